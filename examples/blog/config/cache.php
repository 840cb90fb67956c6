<?php

use Illuminate\Support\Str;

return [

    'default' => env('CACHE_DRIVER', 'array'),

    'stores' => [

        'array' => [
            'driver' => 'array',
            'serialize' => false,
        ],

        'file' => [
            'driver' => 'file',
            'path' => storage_path('framework/cache/data'),
        ],

        // The cache every worker of `spindle serve` shares (docs/worker-features.md).
        'spindle' => [
            'driver' => 'spindle',
        ],

        'redis' => [
            'driver' => 'redis',
            'connection' => 'default',
        ],

    ],

    'prefix' => env('CACHE_PREFIX', Str::slug(env('APP_NAME', 'Spindle blog'), '_').'_cache'),

];
