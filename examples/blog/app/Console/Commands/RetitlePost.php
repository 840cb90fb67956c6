<?php

namespace App\Console\Commands;

use App\Models\Post;
use Illuminate\Console\Command;

/**
 * Changes a post's title through Eloquent, as an admin screen would: saving the post forgets the
 * cached list of newest posts (App\Blog\NewestPosts::forget()) in the stores this process reaches.
 * The file and Redis stores are the server's too; the `spindle` store lives in the server's
 * memory, which a command run outside it cannot reach: there the list shows the new title once
 * its 60 s are over.
 */
class RetitlePost extends Command
{
    /** @var string */
    protected $signature = 'blog:retitle {id : The post\'s id} {title : Its new title}';

    /** @var string */
    protected $description = 'Change a post\'s title (and forget the cached list of newest posts)';

    public function handle(): int
    {
        $post = Post::find((int) $this->argument('id'));
        if ($post === null) {
            $this->error("No post {$this->argument('id')}");

            return 1;
        }
        $post->title = (string) $this->argument('title');
        $post->save();
        $this->line("Post {$post->id} is now titled \"{$post->title}\"");

        return 0;
    }
}
