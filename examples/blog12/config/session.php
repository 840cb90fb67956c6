<?php

use Illuminate\Support\Str;

return [
    /*
    | The blog keeps its (small) session in an encrypted cookie: nothing to store on the server,
    | and a load test that never sends the cookie back leaves no files behind.
    */
    'driver' => env('SESSION_DRIVER', 'cookie'),
    'cookie' => env('SESSION_COOKIE', Str::slug(env('APP_NAME', 'Spindle blog'), '_').'_session'),
];
