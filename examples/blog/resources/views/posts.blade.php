@extends('layouts.app')

@section('title', 'Latest posts')

@section('content')
<h2>Latest posts</h2>
{{-- /posts-cached passes the list already rendered (App\Blog\NewestPosts), /posts the models --}}
@isset($listHtml)
{!! $listHtml !!}@else
@include('partials.post-list')
@endisset
@endsection
