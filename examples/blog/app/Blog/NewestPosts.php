<?php

namespace App\Blog;

use App\Models\Post;
use Illuminate\Database\Eloquent\Collection;
use Illuminate\Support\Facades\Cache;
use Illuminate\Support\Facades\Log;

/**
 * The 20 newest posts with their authors and links, as /posts shows them, and the same list
 * rendered once and kept in a cache (/posts-cached): what the page needs, the list's HTML, is
 * what is cached, so a request from the cache neither hydrates models nor renders the list.
 *
 * Saving or deleting a post or a user forgets the cached list in every store it may be in
 * (App\Models\Post and User call forget()); a change made outside the app (SQL, another
 * process) shows after the TTL at the latest.
 */
final class NewestPosts
{
    public const KEY = 'posts.newest.html';
    public const TTL = 60;
    /** The stores /posts-cached/{store} may use. */
    public const STORES = ['spindle', 'file', 'redis', 'array'];

    /** The posts, eager-loaded: 4 queries. */
    public function query(): Collection
    {
        return Post::with(['user', 'linkPosts', 'linkedPosts'])
            ->orderByDesc('id')
            ->take(20)
            ->get();
    }

    /** The list's HTML, from the store when it is there, else rendered and stored for TTL seconds. */
    public function cachedHtml(string $store): string
    {
        return Cache::store($store)->remember(
            self::KEY,
            self::TTL,
            fn (): string => view('partials.post-list', ['posts' => $this->query()])->render()
        );
    }

    /** Forgets the cached list in every store this app configures (a store that cannot be reached is logged). */
    public static function forget(): void
    {
        foreach (self::STORES as $store) {
            if (config("cache.stores.{$store}") === null || ($store === 'redis' && !env('REDIS_HOST'))) {
                continue;
            }
            try {
                Cache::store($store)->forget(self::KEY);
            } catch (\Throwable $e) {
                Log::warning("Cannot forget the cached post list in the {$store} store: " . $e->getMessage());
            }
        }
    }
}
