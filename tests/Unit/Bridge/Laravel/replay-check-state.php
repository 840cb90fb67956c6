<?php

declare(strict_types=1);

// Boots the Laravel 12 fixture app in-process with the environment given as NAME=VALUE
// arguments, replays the paths given after "--" through Spindle's Laravel handler and prints the
// log lines as JSON (ReplayStateCheckTest). A child process: the fixture brings its own Laravel.

use Spindle\Tests\Replay\LaravelReplay;

$fixture = dirname(__DIR__, 4) . '/tests/fixtures/laravel12-app';
require $fixture . '/vendor/autoload.php';
require dirname(__DIR__, 3) . '/Replay/ReplayResponse.php';
require dirname(__DIR__, 3) . '/Replay/LaravelReplay.php';

$env = [];
$paths = [];
$separator = array_search('--', $argv, true);
foreach (array_slice($argv, 1) as $i => $argument) {
    if ($separator !== false && $i + 1 > $separator) {
        $paths[] = $argument;
    } elseif ($argument !== '--') {
        [$name, $value] = explode('=', $argument, 2);
        $env[$name] = $value;
    }
}
$logger = new class () extends Psr\Log\AbstractLogger {
    /** @var list<string> */
    public array $lines = [];

    public function log($level, $message, array $context = []): void
    {
        $this->lines[] = $level . ': ' . $message;
    }
};
$replay = LaravelReplay::boot($fixture, $env, false, $logger);
$statuses = [];
foreach ($paths as $path) {
    $statuses[] = $replay->get($path)->status;
}
echo json_encode(['statuses' => $statuses, 'log' => $logger->lines], JSON_THROW_ON_ERROR), "\n";
