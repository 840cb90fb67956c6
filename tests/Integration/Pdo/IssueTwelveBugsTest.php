<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pdo;

use Spindle\Database\Pdo;

/**
 * Three bugs PHP's own phpt tests found (pdo_005, pdo_mysql___construct_options,
 * pdo_mysql___construct case 017), each compared with native pdo_mysql.
 */
final class IssueTwelveBugsTest extends DifferentialTestCase
{
    /** FETCH_CLASS passes the constructor arguments by reference, the same array for every row. */
    public function testFetchClassConstructorArgumentsByReference(): void
    {
        foreach ([true, false] as $emulate) {
            $this->differential(static function (\PDO $db, Trace $t): void {
                $sql = 'SELECT 1 AS id UNION ALL SELECT 2 UNION ALL SELECT 3';
                $t->call('fetchAll', fn () => $db->query($sql)->fetchAll(\PDO::FETCH_CLASS, ByReferenceTarget::class, [10]));
                $t->call('fetch one by one', function () use ($db, $sql): array {
                    $stmt = $db->query($sql);
                    $stmt->setFetchMode(\PDO::FETCH_CLASS, ByReferenceTarget::class, [20]);

                    return [$stmt->fetch(), $stmt->fetch(), $stmt->fetch()];
                });
                $t->call('fetchObject', function () use ($db, $sql): array {
                    $stmt = $db->query($sql);
                    $args = [30];

                    return [$stmt->fetchObject(ByReferenceTarget::class, $args), $stmt->fetchObject(ByReferenceTarget::class, $args), $args];
                });
            }, [\PDO::ATTR_EMULATE_PREPARES => $emulate]);
        }
    }

    /** Any ATTR_TIMEOUT PHP accepts connects; none escapes as an engine error. */
    public function testTimeoutOptionValues(): void
    {
        $this->differentialSides(static function (string $side, Trace $t): void {
            foreach (['PHP_INT_MAX' => \PHP_INT_MAX, 'one year and a day' => 366 * 86400, 'PHP_INT_MIN' => \PHP_INT_MIN, 'zero' => 0, 'negative' => -1, 'INF' => \INF, 'NAN' => \NAN, 'string' => 'abc', 'array' => [1], 'null' => null, 'object' => new \stdClass()] as $label => $value) {
                $t->call($label, fn () => self::open($side, [\PDO::ATTR_TIMEOUT => $value])->query('SELECT 1')->fetchColumn());
            }
        });
    }

    /** PDO reads the DSN as a C string: what follows a NUL byte is ignored. */
    public function testDsnCutAtNul(): void
    {
        $this->differentialSides(static function (string $side, Trace $t): void {
            $env = self::env();
            $good = sprintf('host=%s;port=%s;dbname=%s', $env['MYSQL_HOST'], $env['MYSQL_PORT'], $env['MYSQL_DATABASE']);
            $t->call('NUL in the host, good host after it', fn () => self::open($side, [], "mysql:host=-\0;" . $good . ';unix_socket=/tmp/pdo-diff-none.sock'));
            $t->call('NUL after a whole DSN', fn () => self::open($side, [], 'mysql:' . $good . "\0;dbname=nope")->query('SELECT DATABASE()')->fetchColumn());
            $t->call('NUL right after mysql:', fn () => self::open($side, [], "mysql:\0" . $good . ';unix_socket=/tmp/pdo-diff-none.sock'));
            $t->call('NUL before the colon', fn () => self::open($side, [], "mysql\0:" . $good));
        });
    }

    /** FOUND_ROWS and IGNORE_SPACE are capability flags of the handshake; LOCAL INFILE directory rules. */
    public function testCapabilityOptions(): void
    {
        $directory = sys_get_temp_dir() . '/pdo-diff-infile-' . getmypid();
        @mkdir($directory . '/inside', 0777, true);
        file_put_contents($directory . '/inside/rows.csv', "1\n2\n");
        file_put_contents($directory . '/outside.csv', "3\n");
        try {
            $this->differentialSides(static function (string $side, Trace $t) use ($directory): void {
                $t->call('FOUND_ROWS', function () use ($side): mixed {
                    $db = self::open($side, [Pdo::MYSQL_ATTR_FOUND_ROWS => true]);
                    $db->exec('CREATE TEMPORARY TABLE pdo_diff_found (a INT)');
                    $db->exec('INSERT INTO pdo_diff_found VALUES (1), (1)');

                    return [$db->exec('UPDATE pdo_diff_found SET a = 1'), $db->prepare('UPDATE pdo_diff_found SET a = 1')->execute()];
                });
                $t->call('IGNORE_SPACE', fn () => self::open($side, [Pdo::MYSQL_ATTR_IGNORE_SPACE => true])->query('SELECT COUNT (*) FROM DUAL')->fetchColumn());
                $t->call('no IGNORE_SPACE', fn () => self::open($side, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_SILENT])->query('SELECT COUNT (*) FROM DUAL'));
                foreach (['allowed' => [false, $directory . '/inside/rows.csv'], 'denied' => [false, $directory . '/outside.csv'], 'LOCAL_INFILE overrides' => [true, $directory . '/outside.csv'], 'dot dot' => [false, $directory . '/inside/../outside.csv']] as $label => [$local, $file]) {
                    $t->call($label, function () use ($side, $local, $file, $directory): mixed {
                        $db = self::open($side, [Pdo::MYSQL_ATTR_LOCAL_INFILE => $local, Pdo::MYSQL_ATTR_LOCAL_INFILE_DIRECTORY => $directory . '/inside']);
                        $db->exec('CREATE TEMPORARY TABLE pdo_diff_load (id INT)');

                        return [$db->exec('LOAD DATA LOCAL INFILE ' . $db->quote($file) . ' INTO TABLE pdo_diff_load'), $db->getAttribute(Pdo::MYSQL_ATTR_LOCAL_INFILE_DIRECTORY)];
                    });
                }
            });
        } finally {
            @unlink($directory . '/inside/rows.csv');
            @unlink($directory . '/outside.csv');
            @rmdir($directory . '/inside');
            @rmdir($directory);
        }
    }

    /** FLOAT(M,D)/DOUBLE(M,D) as the server writes them ("2.60") with emulation and STRINGIFY_FETCHES. */
    public function testDeclaredDecimals(): void
    {
        foreach ([true, false] as $emulate) {
            foreach ([true, false] as $stringify) {
                $this->differential(static function (\PDO $db, Trace $t): void {
                    $db->exec('CREATE TEMPORARY TABLE pdo_diff_decimals (f FLOAT(5,2), d DOUBLE(12,4), g FLOAT, e DOUBLE, z FLOAT(6,0))');
                    $db->exec("INSERT INTO pdo_diff_decimals VALUES (2.6, 3.6, 2.5, 1.5, 7), (-0.5, 12345678.1234, NULL, 0.1, -3), (0, 0, 0, 0, 0)");
                    $t->call('query', fn () => $db->query('SELECT * FROM pdo_diff_decimals')->fetchAll(\PDO::FETCH_NUM));
                    $t->call('prepared', function () use ($db): array {
                        $st = $db->prepare('SELECT f, d, f * 2 AS twice FROM pdo_diff_decimals WHERE f > ?');
                        $st->execute([-1]);

                        return $st->fetchAll(\PDO::FETCH_ASSOC);
                    });
                }, [\PDO::ATTR_EMULATE_PREPARES => $emulate, \PDO::ATTR_STRINGIFY_FETCHES => $stringify]);
            }
        }
    }
}

/** A FETCH_CLASS target whose constructor takes its argument by reference and changes it. */
final class ByReferenceTarget
{
    public mixed $id = null;
    public mixed $seen = null;

    public function __construct(mixed &$counter)
    {
        $this->seen = $counter;
        ++$counter;
    }
}
