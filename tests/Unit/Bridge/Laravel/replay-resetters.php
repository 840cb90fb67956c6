<?php

declare(strict_types=1);

// Replays, in-process, the requests of ReplayResetterTest against the Laravel 12 fixture app
// (FIXTURE_REPLAY=1 loads its routes/replay.php) through Spindle's Laravel handler, and prints
// what each request saw as JSON: for every scenario, a read, the dirtying request, a read, a
// read. A child process, since the fixture brings its own Laravel and autoloader.

use Spindle\Tests\Replay\LaravelReplay;

$fixture = dirname(__DIR__, 4) . '/tests/fixtures/laravel12-app';
require $fixture . '/vendor/autoload.php';
require dirname(__DIR__, 3) . '/Replay/ReplayResponse.php';
require dirname(__DIR__, 3) . '/Replay/LaravelReplay.php';

$replay = LaravelReplay::boot($fixture, ['FIXTURE_REPLAY' => '1', 'APP_DEBUG' => 'true']);
$seen = static function (string $target) use ($replay): array {
    $response = $replay->get($target);
    $decoded = json_decode($response->body, true);

    return ['status' => $response->status, 'seen' => is_array($decoded) && array_key_exists('seen', $decoded) ? $decoded['seen'] : substr($response->body, 0, 300)];
};
$results = [];
foreach (array_slice($argv, 1) as $scenario) {
    $results[$scenario] = [
        'before' => $seen("/replay/$scenario/read"),
        'dirty' => $seen("/replay/$scenario/dirty"),
        'after' => $seen("/replay/$scenario/read"),
        'again' => $seen("/replay/$scenario/read"),
    ];
}
echo json_encode($results, JSON_THROW_ON_ERROR), "\n";
