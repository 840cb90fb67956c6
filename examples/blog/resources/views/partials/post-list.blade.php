@foreach ($posts as $post)
    <article id="post-{{ $post->id }}">
        <h2>{{ $post->title }}</h2>
        <p class="meta">#{{ $post->id }} by <span class="author">{{ $post->user->name }}</span> on {{ $post->created_at->format('Y-m-d H:i') }}</p>
        <p>{{ \Illuminate\Support\Str::limit($post->body, 200) }}</p>
        <p class="links">
            Links to:
            @forelse ($post->linkPosts as $link)
                <a href="#post-{{ $link->id }}">{{ $link->title }}</a>@if (! $loop->last), @endif
            @empty
                none
            @endforelse
            · Linked from: {{ $post->linkedPosts->count() }} {{ \Illuminate\Support\Str::plural('post', $post->linkedPosts->count()) }}
        </p>
    </article>
@endforeach
