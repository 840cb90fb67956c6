<?php

// Only what differs from Laravel's own defaults (vendor/laravel/framework/config/app.php).
return [
    'name' => env('APP_NAME', 'Spindle blog'),
    'env' => env('APP_ENV', 'production'),
    'debug' => (bool) env('APP_DEBUG', false),
    'url' => env('APP_URL', 'http://127.0.0.1:8080'),
    'key' => env('APP_KEY'),
];
