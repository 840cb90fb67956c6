<?php

namespace App\Providers;

use Illuminate\Foundation\Support\Providers\RouteServiceProvider as ServiceProvider;
use Illuminate\Support\Facades\Route;

class RouteServiceProvider extends ServiceProvider
{
    /**
     * The path to the "home" route for your application.
     *
     * @var string
     */
    public const HOME = '/';

    /**
     * Define your route model bindings, pattern filters, etc.
     *
     * @return void
     */
    public function boot()
    {
        $this->routes(function () {
            // Pages for people (session, cookies, CSRF) ...
            Route::middleware('web')
                ->group(base_path('routes/web.php'));

            // ... and the stateless JSON endpoints, at the root like the pages.
            Route::middleware('api')
                ->group(base_path('routes/api.php'));
        });
    }
}
