<?php

declare(strict_types=1);

/*
 * Bootstrap of Guzzle's handler tests (run.php runs them): what Guzzle's own tests/bootstrap.php
 * does (C locale, every error reported, the Node test server started and stopped), on Spindle's
 * vendor/, with two differences:
 *
 * - SPINDLE_GUZZLE_SIDE=spindle declares Guzzle's handler classes as SpindleHandler stand-ins
 *   (src/SpindleHandlers.php) before anything loads Guzzle's own; =native keeps Guzzle's.
 * - The test server listens on Guzzle's port 8126 when it is free, else on a free port (tests
 *   that spell out 8126 then fail on both sides alike), so that a run never talks to another
 *   checkout's server. Guzzle's overrides of curl_setopt_array() and curl_multi_setopt(), which
 *   only tests of curl's own options read, are not declared.
 *
 * SPINDLE_GUZZLE_TESTS names the directory holding Guzzle's tests/ (run.php sets it).
 */

$side = getenv('SPINDLE_GUZZLE_SIDE');
$tests = getenv('SPINDLE_GUZZLE_TESTS');
if (!in_array($side, ['native', 'spindle'], true) || !is_string($tests) || !is_file($tests . '/Server.php')) {
    fwrite(STDERR, "Set SPINDLE_GUZZLE_SIDE=native|spindle and SPINDLE_GUZZLE_TESTS=<Guzzle's tests/ directory> (run.php does).\n");
    exit(2);
}
if ($side === 'spindle') {
    require __DIR__ . '/src/SpindleHandlers.php';
}
require dirname(__DIR__, 3) . '/vendor/autoload.php';
require_once __DIR__ . '/src/ResultRecorder.php';

setlocale(LC_ALL, 'C');
error_reporting(E_ALL);

spl_autoload_register(static function (string $class) use ($tests): void {
    if (str_starts_with($class, 'GuzzleHttp\\Tests\\')) {
        $file = $tests . '/' . str_replace('\\', '/', substr($class, strlen('GuzzleHttp\\Tests\\'))) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});

$port = 8126;
$probe = @stream_socket_server('tcp://127.0.0.1:' . $port);
if ($probe === false) {
    $probe = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) substr((string) stream_socket_get_name($probe, false), strlen('127.0.0.1:'));
}
fclose($probe);
unset($probe, $side); // PHPUnit's backupGlobals copies what is left in the global scope
GuzzleHttp\Tests\Server::$port = $port;
GuzzleHttp\Tests\Server::$url = 'http://127.0.0.1:' . $port . '/';
GuzzleHttp\Tests\Server::start();
register_shutdown_function(static function (): void {
    GuzzleHttp\Tests\Server::stop();
});
