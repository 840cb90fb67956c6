<?php

namespace App\Http\Controllers;

use App\Blog\NewestPosts;

class PageController extends Controller
{
    public function home()
    {
        return view('home');
    }

    /** The 20 newest posts with their authors and links, eager-loaded (4 queries), rendered by Blade. */
    public function posts(NewestPosts $posts)
    {
        return view('posts', ['posts' => $posts->query()]);
    }

    /**
     * The same page with its list of posts rendered once and kept for 60 s: in the cache all
     * workers share (`/posts-cached`, store `spindle`), or in another store of config/cache.php to
     * compare (`/posts-cached/file`, `/posts-cached/redis`). Saving a post or a user forgets it.
     */
    public function postsCached(NewestPosts $posts, string $store = 'spindle')
    {
        if (!in_array($store, NewestPosts::STORES, true)) {
            abort(404);
        }

        return view('posts', ['listHtml' => $posts->cachedHtml($store)]);
    }
}
