@extends('layouts.app')

@section('title', 'Home')

@section('content')
<p>A Laravel blog with 10,000 posts by 1,000 users and 33,864 links between posts.</p>
<ul>
    <li><a href="/posts">/posts</a>: the 20 newest posts with their authors and links (4 queries, Blade)</li>
    <li><a href="/posts-cached">/posts-cached</a>: the same page, its list of posts rendered once and kept in the cache all workers share</li>
    <li><a href="/hello">/hello</a>: Hello World</li>
    <li><a href="/users/5">/users/5</a>: one user as JSON (1 query)</li>
    <li><a href="/batch">/batch</a>: 100 queries, a JSON summary</li>
    <li><a href="/stats">/stats</a>: the blog's numbers, four queries at once (<code>Spindle\concurrently()</code>)</li>
    <li><a href="/sleep">/sleep</a>: <code>SELECT SLEEP(1)</code> (MySQL only); <a href="/sleep?tasks=3">/sleep?tasks=3</a>: three at once</li>
</ul>
@endsection
