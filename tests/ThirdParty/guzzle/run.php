<?php

declare(strict_types=1);

/*
 * Runs Guzzle's own handler tests (ClientTest, CurlHandlerTest, CurlMultiHandlerTest,
 * CurlFactoryTest, StreamHandlerTest) against Guzzle's Node test server with one side's handlers,
 * and prints every test's outcome as JSON:
 *
 *     php tests/ThirdParty/guzzle/run.php native|spindle [--tag=7.8.1] [--in-fiber] [PHPUnit options, e.g. --filter X]
 *
 * native: Guzzle's curl and stream handlers; spindle: the same classes as SpindleHandler stand-ins
 * (src/SpindleHandlers.php). The tests run unchanged, with Spindle's PHPUnit 9 and Guzzle from
 * Spindle's vendor/. --in-fiber: PHPUnit runs inside a fiber of the event loop
 * (phpunit-in-fiber.php), as code runs under `spindle serve`.
 *
 * Guzzle's tests at --tag come from tests/ThirdParty/guzzle/<tag>/tests when that folder exists,
 * else from a git repository of Guzzle (SPINDLE_GUZZLE_GIT, a bare git directory; by default the
 * one the search tool's fetch leaves in /work/.mirror/guzzle+guzzle/repo), checked out once
 * under the temporary directory. Exit status 3 when neither is there.
 */

const SUITE = ['ClientTest.php', 'Handler/CurlHandlerTest.php', 'Handler/CurlMultiHandlerTest.php', 'Handler/CurlFactoryTest.php', 'Handler/StreamHandlerTest.php'];

$side = $argv[1] ?? '';
$options = array_slice($argv, 2);
$tag = '7.8.1';
$inFiber = false;
while (isset($options[0]) && preg_match('/^--(tag=([0-9.]+)|in-fiber)$/', $options[0], $m) === 1) {
    if ($m[1] === 'in-fiber') {
        $inFiber = true;
    } else {
        $tag = $m[2];
    }
    array_shift($options);
}
if (!in_array($side, ['native', 'spindle'], true)) {
    fwrite(STDERR, "usage: php run.php native|spindle [--tag=7.8.1] [--in-fiber] [PHPUnit options]\n");
    exit(2);
}
$root = dirname(__DIR__, 3);
if (!is_file($root . '/vendor/bin/phpunit')) {
    fwrite(STDERR, "Install Spindle's dependencies first (composer install; scripts/test does).\n");
    exit(2);
}
$tests = guzzleTests($tag);
if ($tests === null) {
    fwrite(STDERR, "Guzzle's tests at $tag are not here: put them in tests/ThirdParty/guzzle/$tag/tests, or set SPINDLE_GUZZLE_GIT to a git repository of Guzzle (README.md).\n");
    exit(3);
}

$work = sys_get_temp_dir() . '/spindle-guzzle-' . $side . '-' . getmypid();
if (!is_dir($work) && !mkdir($work, 0700, true)) {
    fwrite(STDERR, "cannot create $work\n");
    exit(1);
}
$results = $work . '/results.json';
$log = $work . '/phpunit.log';
$files = implode("\n", array_map(static fn (string $file): string => "            <file>$tests/$file</file>", SUITE));
$bootstrap = __DIR__ . '/bootstrap.php';
// Guzzle's own phpunit.xml.dist settings, but in a fixed order (Guzzle's is random).
file_put_contents($work . '/phpunit.xml', <<<XML
    <?xml version="1.0" encoding="UTF-8"?>
    <phpunit bootstrap="$bootstrap" backupGlobals="true" colors="false" cacheResult="false"
             failOnRisky="true" failOnWarning="true" convertDeprecationsToExceptions="true">
        <testsuites>
            <testsuite name="Guzzle handler tests">
    $files
            </testsuite>
        </testsuites>
        <listeners>
            <listener class="Spindle\\Tests\\ThirdParty\\Guzzle\\ResultRecorder">
                <arguments><string>$results</string></arguments>
            </listener>
        </listeners>
    </phpunit>
    XML);

$env = getenv() + [];
$env['SPINDLE_GUZZLE_SIDE'] = $side;
$env['SPINDLE_GUZZLE_TESTS'] = $tests;
$started = microtime(true);
$command = [PHP_BINARY, $inFiber ? __DIR__ . '/phpunit-in-fiber.php' : $root . '/vendor/bin/phpunit', '--configuration', $work . '/phpunit.xml', ...$options];
$process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'w'], 2 => ['file', $log, 'a']], $pipes, $work, $env);
$status = is_resource($process) ? proc_close($process) : -1;
$seconds = microtime(true) - $started;

$decoded = is_file($results) ? json_decode((string) file_get_contents($results), true) : null;
if (!is_array($decoded)) {
    fwrite(STDERR, "PHPUnit (exit status $status) wrote no results; its output is in $log\n");
    exit(1);
}
echo json_encode(['tag' => $tag, 'tests' => $tests, 'results' => $decoded, 'log' => $log, 'work' => $work, 'seconds' => round($seconds, 1)], JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR), "\n";

/** The directory holding Guzzle's tests/ at $tag, or null. */
function guzzleTests(string $tag): ?string
{
    $vendored = __DIR__ . '/' . $tag . '/tests';
    if (is_file($vendored . '/Server.php')) {
        return $vendored;
    }
    $git = getenv('SPINDLE_GUZZLE_GIT') ?: '/work/.mirror/guzzle+guzzle/repo';
    if (!is_dir($git)) {
        return null;
    }
    $checkout = sys_get_temp_dir() . '/spindle-guzzle-tests/' . $tag;
    if (is_file($checkout . '/tests/Server.php')) {
        return $checkout . '/tests';
    }
    // Guzzle's .gitattributes keeps tests/ out of `git archive`: read the tag's tree into an
    // index of our own and check that out.
    $temporary = $checkout . '.' . getmypid();
    $index = $temporary . '.index';
    @mkdir(dirname($checkout), 0700, true);
    $env = ['GIT_DIR' => $git, 'GIT_INDEX_FILE' => $index, 'PATH' => (string) getenv('PATH')];
    foreach ([['git', 'read-tree', $tag], ['git', 'checkout-index', '--all', '--prefix=' . $temporary . '/']] as $command) {
        $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
        $errors = is_resource($process) ? (string) stream_get_contents($pipes[2]) : '';
        if (!is_resource($process) || proc_close($process) !== 0) {
            fwrite(STDERR, implode(' ', $command) . " failed in $git: $errors");
            @unlink($index);

            return null;
        }
    }
    @unlink($index);
    patchServer($temporary . '/tests/Server.php');
    if (!@rename($temporary, $checkout)) {
        exec('rm -rf ' . escapeshellarg($temporary));
    }

    return is_file($checkout . '/tests/Server.php') ? $checkout . '/tests' : null;
}

/**
 * The one change to Guzzle's tests, in their checkout: Server::received() (7.8.1) passes the Host
 * header, "127.0.0.1:8126", to UriInterface::withHost(), which guzzlehttp/psr7 2.7 and later
 * reject ("Invalid host"); it is split into host and port instead. Later tags need no change.
 */
function patchServer(string $file): void
{
    $code = (string) file_get_contents($file);
    $from = '->withHost($response->getHeaderLine(\'host\'))';
    $to = '->withHost((string) \parse_url(\'http://\'.$response->getHeaderLine(\'host\'), \PHP_URL_HOST))'
        . '->withPort(\parse_url(\'http://\'.$response->getHeaderLine(\'host\'), \PHP_URL_PORT))';
    if (str_contains($code, $from)) {
        file_put_contents($file, str_replace($from, $to, $code));
    }
}
