<?php

use Illuminate\Support\Str;

return [
    // CACHE_STORE as Laravel 12 names it, or CACHE_DRIVER as examples/blog (Laravel 8) does.
    'default' => env('CACHE_STORE', env('CACHE_DRIVER', 'array')),
    'stores' => [
        'array' => ['driver' => 'array', 'serialize' => false],
        'file' => ['driver' => 'file', 'path' => storage_path('framework/cache/data')],
        'redis' => ['driver' => 'redis', 'connection' => 'default'],
    ],
    'prefix' => env('CACHE_PREFIX', Str::slug(env('APP_NAME', 'Spindle blog'), '_').'_cache'),
];
