<?php

declare(strict_types=1);

/*
 * Runs phpredis's own Redis tests (tests/ThirdParty/phpredis/<version>/RedisTest.php) against a
 * Redis server, through the redis extension (`native`) or through Spindle's PhpRedisCompat
 * aliased to \Redis in a PHP without the extension (`spindle`), and writes one JSON line per
 * test to standard output: {"test": name, "outcome": passed|failed|skipped|error, "message",
 * "issues"} — each preceded by {"start": name}, so a caller sees which test a dead or hung
 * process was in and can go on with --after=<that test>.
 *
 *     php tests/ThirdParty/phpredis/run.php spindle 5.3.7 --port=6379 [--filter=regex] [--after=testName]
 *         [--claim=file: run the tests no other process given the same file has taken]
 *
 * The suite's own runner (TestRedis.php) is not used: it stops at the first \Error, which a
 * facade missing a method raises. Tests run in the order and the way it runs them (a new test
 * object, setUp(), the test; tearDown() is not called), each one's output discarded.
 */

const SIDES = ['native', 'spindle'];

$arguments = $argv;
array_shift($arguments);
[$side, $version] = [$arguments[0] ?? '', $arguments[1] ?? ''];
$options = [];
foreach (array_slice($arguments, 2) as $argument) {
    if (preg_match('/^--(port|host|filter|after|only|claim)=(.*)$/s', $argument, $m) === 1) {
        $options[$m[1]] = $m[2];
    }
}
require_once __DIR__ . '/Checkout.php';
$directory = $version === '' ? null : Spindle\Tests\ThirdParty\PhpRedis\Checkout::directory($version);
if (!in_array($side, SIDES, true) || $directory === null) {
    fwrite(STDERR, "usage: run.php native|spindle <version: 5.3.7 here, or a tag of a phpredis git copy (SPINDLE_PHPREDIS_GIT)> --port=N [--host=H] [--filter=regex] [--after=test] [--only=a,b]\n");
    exit(2);
}

if ($side === 'spindle' && extension_loaded('redis')) {
    // Run again in a PHP without the redis extension: the same ini files, minus the one loading it.
    $scan = sys_get_temp_dir() . '/spindle-phpredis-ini-' . getmypid();
    @mkdir($scan);
    $dirs = array_filter(explode(PATH_SEPARATOR, (string) (getenv('PHP_INI_SCAN_DIR') ?: PHP_CONFIG_FILE_SCAN_DIR)));
    foreach ($dirs as $dir) {
        foreach (glob($dir . '/*.ini') ?: [] as $ini) {
            $text = (string) file_get_contents($ini);
            if (preg_match('/^\s*extension\s*=\s*"?(redis)(\.so)?"?\s*$/mi', $text) !== 1) {
                copy($ini, $scan . '/' . basename($ini));
            }
        }
    }
    $command = [PHP_BINARY, '-d', 'error_reporting=-1', __FILE__, ...$arguments];
    $process = proc_open($command, [0 => STDIN, 1 => STDOUT, 2 => STDERR], $pipes, null, ['PHP_INI_SCAN_DIR' => $scan] + getenv());
    $status = is_resource($process) ? proc_close($process) : 1;
    array_map('unlink', glob($scan . '/*') ?: []);
    @rmdir($scan);
    exit($status);
}

if ($side === 'spindle') {
    if (extension_loaded('redis')) {
        fwrite(STDERR, "the redis extension is still loaded\n");
        exit(2);
    }
    require dirname(__DIR__, 3) . '/vendor/autoload.php';
    require dirname(__DIR__, 3) . '/src/Redis/PhpRedis/RedisExceptionPolyfill.php';
    class_alias(Spindle\Redis\PhpRedisCompat::class, 'Redis');
} elseif (!extension_loaded('redis')) {
    fwrite(STDERR, "the redis extension is not loaded\n");
    exit(2);
}

error_reporting(E_ALL);
ini_set('display_errors', '0');
define('PHPREDIS_TESTRUN', true);
$_SERVER['PHP_SELF'] = $directory . '/RedisTest.php';   // 5.3's files require each other through it
require $directory . '/TestSuite.php';
require $directory . '/RedisTest.php';

/**
 * The 6.x tests construct \Redis with an options array (phpredis 6's constructor); phpredis 5.3
 * takes none, so the test object connects as the 5.3 tests do.
 */
final class Spindle_Redis_Test extends Redis_Test
{
    protected function newInstance()
    {
        $r = new Redis();
        $r->connect($this->getHost(), $this->getPort());
        if ($this->getAuth()) {
            $this->assertTrue($r->auth($this->getAuth()));
        }

        return $r;
    }
}

$class = str_starts_with(basename($version), '5.') ? 'Redis_Test' : 'Spindle_Redis_Test';
$host = (string) ($options['host'] ?? '127.0.0.1');
$port = (int) ($options['port'] ?? 6379);
$filter = isset($options['filter']) ? (string) $options['filter'] : null;
$after = isset($options['after']) ? (string) $options['after'] : null;
$only = isset($options['only']) ? explode(',', (string) $options['only']) : null;
$claim = isset($options['claim']) ? (string) $options['claim'] : null;

/** Whether this process runs test $index: the next one no process sharing $file has taken. */
function claim(string $file, int $index): bool
{
    $handle = fopen($file, 'c+');
    if ($handle === false || !flock($handle, LOCK_EX)) {
        throw new RuntimeException("Cannot lock $file");
    }
    $next = (int) stream_get_contents($handle);
    $mine = $next === $index;
    if ($mine) {
        ftruncate($handle, 0);
        rewind($handle);
        fwrite($handle, (string) ($index + 1));
    }
    fclose($handle);

    return $mine;
}

$issues = [];
set_error_handler(static function (int $type, string $message, string $file, int $line) use (&$issues): bool {
    if ((error_reporting() & $type) === 0) {
        return true;    // silenced with @
    }
    $issues[] = sprintf('%s: %s', match ($type) {
        E_WARNING, E_USER_WARNING => 'warning',
        E_NOTICE, E_USER_NOTICE => 'notice',
        E_DEPRECATED, E_USER_DEPRECATED => 'deprecation',
        default => 'error ' . $type,
    }, $message);

    return true;
});

$emit = static function (array $line): void {
    fwrite(STDOUT, json_encode($line, JSON_INVALID_UTF8_SUBSTITUTE | JSON_UNESCAPED_SLASHES) . "\n");
    fflush(STDOUT);
};

$started = $after === null;
$index = -1;
foreach ((new ReflectionClass($class))->getMethods(ReflectionMethod::IS_PUBLIC) as $method) {
    $name = $method->name;
    // The session tests drive the extension's session handler in child PHP processes.
    if (!str_starts_with($name, 'test') || str_starts_with($name, 'testSession')) {
        continue;
    }
    if (!$started) {
        $started = $name === $after;
        continue;
    }
    if (($filter !== null && preg_match('/' . $filter . '/i', $name) !== 1) || ($only !== null && !in_array($name, $only, true))) {
        continue;
    }
    if ($claim !== null && !claim($claim, ++$index)) {
        continue;
    }
    $emit(['start' => $name]);
    $clock = hrtime(true);
    $issues = [];
    $errors = count($class::$errors);
    $outcome = 'passed';
    $message = '';
    ob_start();
    try {
        $test = new $class($host, $port, null);
        $test->setUp();
        $test->$name();
        if (count($class::$errors) !== $errors) {
            $outcome = 'failed';
        }
    } catch (TestSkippedException $e) {
        $outcome = 'skipped';
        $message = $e->getMessage();
    } catch (Throwable $e) {
        $outcome = 'error';
        $message = get_class($e) . ': ' . $e->getMessage() . ' at ' . basename($e->getFile()) . ':' . $e->getLine();
    }
    ob_end_clean();
    if ($outcome === 'failed') {
        $message = trim(implode('', array_slice($class::$errors, $errors)));
    }
    $test = null;
    gc_collect_cycles();
    $emit(['test' => $name, 'outcome' => $outcome, 'message' => $message, 'issues' => array_values(array_unique($issues)), 'seconds' => round((hrtime(true) - $clock) / 1e9, 3)]);
}
