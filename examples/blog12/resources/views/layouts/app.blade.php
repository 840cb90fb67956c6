<!DOCTYPE html>
<html lang="en">
<head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>@yield('title') · {{ config('app.name') }}</title>
    <style>
        body { font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #222; line-height: 1.5; }
        header a { color: inherit; text-decoration: none; }
        article { border-top: 1px solid #ddd; padding: .75rem 0; }
        article h2 { font-size: 1.1rem; margin: 0; }
        .meta, .links { color: #666; font-size: .85rem; }
        code { background: #f4f4f4; padding: 0 .25rem; }
    </style>
</head>
<body>
<header><h1><a href="/">{{ config('app.name') }}</a></h1></header>
<main>
@yield('content')
</main>
<footer class="meta">Laravel {{ app()->version() }} · served by {{ request()->server('SERVER_SOFTWARE', 'PHP') }}</footer>
</body>
</html>
