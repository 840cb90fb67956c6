<?php

namespace App\Models;

use App\Blog\NewestPosts;
use Illuminate\Database\Eloquent\Model;
use Illuminate\Database\Eloquent\Relations\BelongsTo;
use Illuminate\Database\Eloquent\Relations\BelongsToMany;

/**
 * A blog post. post_posts links posts to each other: linkPosts are the posts this one links to,
 * linkedPosts the posts that link to this one.
 */
class Post extends Model
{
    /**
     * The attributes that are mass assignable.
     *
     * @var array<int, string>
     */
    protected $fillable = [
        'user_id',
        'title',
        'body',
    ];

    public function user(): BelongsTo
    {
        return $this->belongsTo(User::class);
    }

    public function linkPosts(): BelongsToMany
    {
        return $this->belongsToMany(Post::class, 'post_posts', 'post_id', 'link_post_id');
    }

    public function linkedPosts(): BelongsToMany
    {
        return $this->belongsToMany(Post::class, 'post_posts', 'link_post_id', 'post_id');
    }

    /** A saved or deleted post changes the newest posts' list: the cached copies are forgotten. */
    protected static function booted(): void
    {
        static::saved(static fn () => NewestPosts::forget());
        static::deleted(static fn () => NewestPosts::forget());
    }
}
