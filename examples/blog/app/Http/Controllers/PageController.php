<?php

namespace App\Http\Controllers;

use App\Models\Post;
use Illuminate\Support\Facades\Cache;

class PageController extends Controller
{
    public function home()
    {
        return view('home');
    }

    /** The 20 newest posts with their authors and links, eager-loaded (4 queries). */
    public function posts()
    {
        return view('posts', ['posts' => $this->newestPosts()]);
    }

    /**
     * The same page with its data cached for 60 s: in the cache all workers share
     * (`/posts-cached`, store `spindle`), or in another store of config/cache.php to compare
     * (`/posts-cached/file`, `/posts-cached/redis`).
     */
    public function postsCached(string $store = 'spindle')
    {
        if (!in_array($store, ['spindle', 'file', 'redis', 'array'], true)) {
            abort(404);
        }
        $posts = Cache::store($store)->remember('posts.newest', 60, fn () => $this->newestPosts());

        return view('posts', ['posts' => $posts]);
    }

    private function newestPosts()
    {
        return Post::with(['user', 'linkPosts', 'linkedPosts'])
            ->orderByDesc('id')
            ->take(20)
            ->get();
    }
}
