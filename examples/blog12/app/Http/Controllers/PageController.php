<?php

namespace App\Http\Controllers;

use App\Models\Post;

class PageController extends Controller
{
    public function home()
    {
        return view('home');
    }

    /** The 20 newest posts with their authors and links, eager-loaded (4 queries). */
    public function posts()
    {
        $posts = Post::with(['user', 'linkPosts', 'linkedPosts'])
            ->orderByDesc('id')
            ->take(20)
            ->get();

        return view('posts', ['posts' => $posts]);
    }
}
