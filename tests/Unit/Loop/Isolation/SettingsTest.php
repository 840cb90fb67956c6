<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Loop\Isolation;

use PHPUnit\Framework\TestCase;
use Spindle\Loop\Isolation\Settings;

/**
 * Settings compares every setting in one unrolled chain (for speed) and lists its ini settings in
 * Settings::INI: this test holds the two together. Each setting in turn is changed as an app
 * would change it; unchanged() must notice, and write() must put the baseline back. An ini
 * setting added to the list without its line in the chain fails here.
 *
 * It runs in a PHP process of its own, started with zend.assertions=1: a process started with -1
 * (production) cannot change that setting at all, and this one must be able to change them all.
 */
final class SettingsTest extends TestCase
{
    /** Two values for each ini setting of Settings::INI: the one that differs from the current value is set. */
    private const INI_VALUES = [
        'precision' => ['5', '6'],
        'serialize_precision' => ['5', '6'],
        'memory_limit' => ['1G', '2G'],
        'max_execution_time' => ['77', '78'],
        'default_charset' => ['ISO-8859-1', 'UTF-8'],
        'display_errors' => ['1', '0'],
        'log_errors' => ['1', '0'],
        'error_log' => ['/tmp/spindle-settings-test.log', '/tmp/spindle-settings-test-2.log'],
        'html_errors' => ['1', '0'],
        'default_socket_timeout' => ['17', '18'],
        'user_agent' => ['spindle-test', 'spindle-test-2'],
        'arg_separator.output' => [';', '&'],
        'pcre.backtrack_limit' => ['12345', '12346'],
        'pcre.recursion_limit' => ['12345', '12346'],
        'zend.assertions' => ['0', '1'],
    ];

    public function testEveryIniSettingOfTheListHasAValueHere(): void
    {
        self::assertSame(Settings::INI, \array_keys(self::INI_VALUES), 'Settings::INI and this test list the same ini settings, in the same order');
    }

    public function testEverySettingIsNoticedWhenChangedAndPutBack(): void
    {
        $script = <<<'PHP'
            require $argv[1];
            $values = json_decode($argv[2], true);
            $settings = new Spindle\Loop\Isolation\Settings();
            $results = [];
            $changes = [
                'time zone' => static fn () => date_default_timezone_set(date_default_timezone_get() === 'Asia/Tokyo' ? 'Europe/Paris' : 'Asia/Tokyo'),
                'locale' => static fn () => setlocale(LC_ALL, setlocale(LC_ALL, '0') === 'C' ? 'C.UTF-8' : 'C') !== false,
                'error reporting' => static fn () => error_reporting(error_reporting() === E_ALL ? E_ERROR : E_ALL) !== -1,
                'mbstring encoding' => static fn () => function_exists('mb_internal_encoding') && mb_internal_encoding(mb_internal_encoding() === 'UTF-8' ? 'ISO-8859-1' : 'UTF-8'),
                'libxml errors' => static fn () => libxml_use_internal_errors(!libxml_use_internal_errors()) || true,
                'response code' => static fn () => http_response_code(http_response_code() === 418 ? 419 : 418) !== null,
                'working directory' => static fn () => chdir(getcwd() === '/' ? sys_get_temp_dir() : '/'),
            ];
            foreach ($values as $name => [$a, $b]) {
                $changes[$name] = static fn () => ini_set($name, ini_get($name) === $a ? $b : $a) !== false;
            }
            http_response_code(200);
            foreach ($changes as $name => $change) {
                $base = $settings->read();
                $changed = $change();
                $noticed = !$settings->unchanged($base);
                $settings->write($base, $settings->read());
                $results[$name] = ['changed' => $changed, 'noticed' => $noticed, 'put back' => $settings->unchanged($base) && $settings->read() === $base];
            }
            echo json_encode(['count' => count($settings->read()), 'results' => $results]);
            PHP;
        $command = \sprintf(
            '%s -d zend.assertions=1 -r %s %s %s 2>&1',
            \escapeshellarg(\PHP_BINARY),
            \escapeshellarg($script),
            \escapeshellarg(\dirname(__DIR__, 4) . '/vendor/autoload.php'),
            \escapeshellarg((string) \json_encode(self::INI_VALUES)),
        );
        $output = (string) \shell_exec($command);
        $report = \json_decode($output, true);
        self::assertIsArray($report, $output);
        self::assertIsArray($report['results']);
        self::assertCount(7 + \count(Settings::INI), $report['results']);
        self::assertSame(7 + \count(Settings::INI), $report['count'], 'read() returns one value per setting');
        foreach ($report['results'] as $name => $result) {
            $expected = ['changed' => true, 'noticed' => true, 'put back' => true];
            if ($name === 'mbstring encoding' && !\function_exists('mb_internal_encoding')) {
                $expected = ['changed' => false, 'noticed' => false, 'put back' => true];
            }
            self::assertSame($expected, $result, $name);
        }
    }
}
