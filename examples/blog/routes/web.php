<?php

use App\Http\Controllers\PageController;
use Illuminate\Support\Facades\Route;

/*
| Pages for people: they run through the "web" middleware group (session, cookies, CSRF).
*/

Route::get('/', [PageController::class, 'home']);
Route::get('/posts', [PageController::class, 'posts']);
Route::get('/posts-cached/{store?}', [PageController::class, 'postsCached']);
