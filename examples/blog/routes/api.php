<?php

use App\Http\Controllers\ApiController;
use Illuminate\Support\Facades\Route;

/*
| Stateless endpoints (the "api" middleware group, without the /api prefix): the benchmark routes.
*/

Route::get('/hello', [ApiController::class, 'hello']);
Route::get('/users/{id}', [ApiController::class, 'user'])->where('id', '[0-9]+');
Route::get('/batch', [ApiController::class, 'batch']);
Route::get('/sleep', [ApiController::class, 'sleep']);
Route::get('/stats', [ApiController::class, 'stats']);
Route::get('/redis-wait', [ApiController::class, 'redisWait']);
Route::get('/redis-cache', [ApiController::class, 'redisCache']);
