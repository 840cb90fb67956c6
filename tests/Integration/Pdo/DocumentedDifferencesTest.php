<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pdo;

use Spindle\Database\Pdo;

/**
 * The deliberate differences from pdo_mysql that docs/database.md lists, each asserted against
 * native pdo_mysql: what native does, and what Spindle\Database\Pdo does instead.
 */
final class DocumentedDifferencesTest extends DifferentialTestCase
{
    private const HY093 = 'SQLSTATE[HY093]: Invalid parameter number: number of bound variables does not match number of tokens';
    private const UNBUFFERED_ACTIVE = 'SQLSTATE[HY000]: General error: 2014 Cannot execute queries while other unbuffered queries are active.  Consider using PDOStatement::fetchAll().  Alternatively, if your code is only ever going to run against mysql, you may enable query buffering by setting the PDO::MYSQL_ATTR_USE_BUFFERED_QUERY attribute.';
    private const PENDING_RESULT_SETS = 'SQLSTATE[HY000]: General error: 2014 Cannot execute queries while there are pending result sets. Consider unsetting the previous PDOStatement or calling PDOStatement::closeCursor()';

    /** The message of the throwable an observation recorded, if any. */
    private static function throwsMessage(mixed $observed): ?string
    {
        return \is_array($observed) && isset($observed['throws']['message']) ? $observed['throws']['message'] : null;
    }

    public function testPlaceholdersFollowMysqlLexicalRules(): void
    {
        [$native, $spindle] = $this->observe(static function (string $side, Trace $t): void {
            $db = self::open($side);
            $t->call('backtick', function () use ($db): mixed {
                $st = $db->prepare('SELECT ? AS `a?`');
                $st->execute([5]);

                return $st->fetchAll(\PDO::FETCH_ASSOC);
            });
            $t->call('hash comment', function () use ($db): mixed {
                $st = $db->prepare("SELECT ? AS a # ?\n");
                $st->execute([5]);

                return $st->fetchAll(\PDO::FETCH_ASSOC);
            });
            $t->call('??', fn () => $db->prepare('SELECT ? AS a, 1 ?? 2')->execute([1]));
        });
        $near = "SQLSTATE[42000]: Syntax error or access violation: 1064 You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near '%s' at line 1";
        self::assertSame(sprintf($near, '? 2'), self::throwsMessage($native->get('??')), 'PHP 8.2 sends ?? as ?');
        self::assertSame(sprintf($near, '?? 2'), self::throwsMessage($spindle->get('??')), '?? stays ??');
        foreach (['backtick', 'hash comment'] as $label) {
            self::assertSame(self::HY093, self::throwsMessage($native->get($label)), "PHP 8.2 counts the ? in the $label");
        }
        self::assertSame(['return' => [['a?' => '5']]], $spindle->get('backtick'));
        self::assertSame(['return' => [['a' => '5']]], $spindle->get('hash comment'));
    }

    /** @dataProvider prepareModes */
    public function testExecOfAStatementThatReturnsRows(bool $emulate): void
    {
        $procedure = self::$procedure;
        [$native, $spindle] = $this->observe(static function (string $side, Trace $t) use ($emulate, $procedure): void {
            foreach (['SELECT 1' => 'SELECT', "CALL $procedure(1)" => 'CALL'] as $sql => $label) {
                $db = self::open($side, [\PDO::ATTR_EMULATE_PREPARES => $emulate]);
                $t->call("exec $label", fn () => $db->exec($sql));
                $t->call("next query after exec $label", fn () => $db->query('SELECT 2')->fetchColumn());
            }
        });
        foreach (['SELECT' => self::UNBUFFERED_ACTIVE, 'CALL' => self::PENDING_RESULT_SETS] as $label => $error) {
            self::assertSame(['return' => 0], $native->get("exec $label"));
            self::assertSame(['return' => 0], $spindle->get("exec $label"));
            self::assertSame($error, self::throwsMessage($native->get("next query after exec $label")), 'pdo_mysql leaves the rows unread');
            self::assertSame(['return' => 2], $spindle->get("next query after exec $label"));
        }
    }

    /** @return iterable<string, array{bool}> */
    public function prepareModes(): iterable
    {
        yield 'emulated prepares' => [true];
        yield 'native prepares' => [false];
    }

    public function testWarningsAreUserWarningsWithTheNativeText(): void
    {
        [$native, $spindle] = $this->observe(static function (string $side, Trace $t): void {
            $db = self::open($side, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_WARNING]);
            $t->call('exec', fn () => $db->exec('SELECT * FROM pdo_diff_nope'));
            $st = $db->prepare('SELECT * FROM pdo_diff_nope');
            $t->call('execute', fn () => $st->execute());
        });
        self::assertSame($native->entries, $spindle->entries, 'same return values and warning texts');
        self::assertSame([E_WARNING, E_WARNING], $native->levels);
        self::assertSame([E_USER_WARNING, E_USER_WARNING], $spindle->levels);
        self::assertSame(['return' => false, 'warnings' => [['warning', "PDOStatement::execute(): SQLSTATE[42S02]: Base table or view not found: 1146 Table 'spindle_test.pdo_diff_nope' doesn't exist"]]], $spindle->get('execute'));
    }

    public function testFetchLazyGivesAStandIn(): void
    {
        [$native, $spindle] = $this->observe(static function (string $side, Trace $t): void {
            $db = self::open($side);
            $row = $db->query('SELECT 1 AS a, NULL AS b')->fetch(\PDO::FETCH_LAZY);
            $t->add('class', \is_object($row) ? $row::class : get_debug_type($row));
            $t->call('columns', fn () => [$row->a, $row->b, $row['a'], $row[0], $row->{0}, $row->nope, isset($row->a), isset($row->b)]);
            $t->call('queryString', fn () => $row->queryString);
            $t->call('write', function () use ($row): void {
                $row->a = 2;
            });
        });
        self::assertSame('PDORow', $native->get('class'));
        self::assertSame(Pdo\LazyRow::class, $spindle->get('class'), 'PDORow cannot be made in PHP');
        foreach (['columns', 'queryString', 'write'] as $label) {
            self::assertSame($native->get($label), $spindle->get($label), $label);
        }
    }

    public function testStatementClassNames(): void
    {
        [$native, $spindle] = $this->observe(static function (string $side, Trace $t): void {
            $db = self::open($side);
            $t->call('default', fn () => $db->getAttribute(\PDO::ATTR_STATEMENT_CLASS));
            $t->call('class of a PDOStatement subclass', function () use ($db): string {
                $db->setAttribute(\PDO::ATTR_STATEMENT_CLASS, [UserPdoStatement::class, ['x']]);

                return \get_class($db->query('SELECT 1'));
            });
        });
        self::assertSame(['return' => [\PDOStatement::class]], $native->get('default'));
        self::assertSame(['return' => [Pdo\Statement::class]], $spindle->get('default'));
        self::assertSame(['return' => UserPdoStatement::class], $native->get('class of a PDOStatement subclass'));
        self::assertSame(['return' => 'Spindle\\Database\\Pdo\\Generated\\' . UserPdoStatement::class], $spindle->get('class of a PDOStatement subclass'), 'a generated subclass');
    }

    public function testPersistentIsAcceptedWithoutEffect(): void
    {
        [$native, $spindle] = $this->observe(static function (string $side, Trace $t): void {
            $t->call('persistent', fn () => self::open($side, [\PDO::ATTR_PERSISTENT => true])->getAttribute(\PDO::ATTR_PERSISTENT));
        });
        self::assertSame(['return' => true], $native->get('persistent'));
        self::assertSame(['return' => false], $spindle->get('persistent'));
    }

    public function testCompressIsIgnored(): void
    {
        [$native, $spindle] = $this->observe(static function (string $side, Trace $t): void {
            $t->call('COMPRESS', fn () => self::open($side, [Pdo::MYSQL_ATTR_COMPRESS => true])->query('SELECT 1')->fetchColumn());
        });
        self::assertSame(['return' => 1], $native->get('COMPRESS'));
        self::assertSame(['return' => 1], $spindle->get('COMPRESS'), 'ignored');
    }

    /** @dataProvider prepareModes */
    public function testStringifiedFloatsAreThePhpFormOfTheNumber(bool $emulate): void
    {
        $sql = 'SELECT 1e25, CAST(3.40282e38 AS FLOAT), 1.7976931348623157e308, 1e-300, 0.1e0, 2.5e0';
        [$native, $spindle] = $this->observe(static function (string $side, Trace $t) use ($emulate, $sql): void {
            $db = self::open($side, [\PDO::ATTR_EMULATE_PREPARES => $emulate, \PDO::ATTR_STRINGIFY_FETCHES => true]);
            $t->call('row', fn () => $db->query($sql)->fetch(\PDO::FETCH_NUM));
        });
        $php = ['1.0E+25', '3.40282E+38', '1.7976931348623E+308', '1.0E-300', '0.1', '2.5'];
        self::assertSame(['return' => $php], $spindle->get('row'));
        self::assertSame(['return' => $emulate ? ['1e25', '3.40282e38', '1.7976931348623157e308', '1e-300', '0.1', '2.5'] : $php], $native->get('row'), $emulate ? 'the server\'s text' : 'mysqlnd converts binary floats the same way');
    }

    public function testForeachByReference(): void
    {
        [$native, $spindle] = $this->observe(static function (string $side, Trace $t): void {
            $st = self::open($side)->query('SELECT 1');
            $t->call('foreach by reference', function () use ($st): void {
                foreach ($st as &$row) {
                    $row = null;
                }
            });
        });
        self::assertSame(['throws' => ['class' => \Error::class, 'message' => 'An iterator cannot be used with foreach by reference', 'code' => 0]], $native->get('foreach by reference'));
        self::assertSame(['throws' => ['class' => \Exception::class, 'message' => 'You can only iterate a generator by-reference if it declared that it yields by-reference', 'code' => 0]], $spindle->get('foreach by reference'));
    }

    public function testFetchSerializeDeprecationIsAUserDeprecation(): void
    {
        [$native, $spindle] = $this->observe(static function (string $side, Trace $t): void {
            $db = self::open($side);
            $t->call('FETCH_SERIALIZE', fn () => $db->query("SELECT 'abc' AS data")->fetchAll(\PDO::FETCH_CLASS | \PDO::FETCH_SERIALIZE, SerializableTarget::class));
        });
        self::assertSame($native->entries, $spindle->entries, 'same objects, same message');
        self::assertSame([E_DEPRECATED], $native->levels);
        self::assertSame([E_USER_DEPRECATED], $spindle->levels, 'so error_reporting without E_DEPRECATED does not hide it');
    }

    /** @dataProvider prepareModes */
    public function testLoadDataLocalInfileWithoutTheOption(bool $emulate): void
    {
        $file = tempnam(sys_get_temp_dir(), 'pdo-diff-');
        self::assertIsString($file);
        file_put_contents($file, "1\n");
        try {
            [$native, $spindle] = $this->observe(static function (string $side, Trace $t) use ($file, $emulate): void {
                $db = self::open($side, [\PDO::ATTR_EMULATE_PREPARES => $emulate]);
                $db->exec('CREATE TEMPORARY TABLE pdo_diff_load (id INT)');
                $t->call('LOAD DATA', fn () => $db->prepare('LOAD DATA LOCAL INFILE ' . $db->quote($file) . ' INTO TABLE pdo_diff_load')->execute());
                $t->call('afterwards', fn () => $db->query('SELECT COUNT(*) FROM pdo_diff_load')->fetchColumn());
            });
        } finally {
            unlink($file);
        }
        self::assertSame(
            'SQLSTATE[HY000]: General error: 2068 LOAD DATA LOCAL INFILE is forbidden, check related settings like mysqli.allow_local_infile|mysqli.local_infile_directory or PDO::MYSQL_ATTR_LOCAL_INFILE|PDO::MYSQL_ATTR_LOCAL_INFILE_DIRECTORY',
            self::throwsMessage($native->get('LOAD DATA')),
            'mysqlnd offers LOCAL INFILE to the server and refuses the request itself',
        );
        self::assertSame(
            'SQLSTATE[HY000]: General error: 4166 The used command is not allowed because the MariaDB server or client has disabled the local infile capability',
            self::throwsMessage($spindle->get('LOAD DATA')),
            'Spindle does not offer LOCAL INFILE: the server refuses',
        );
        self::assertSame(['return' => 0], $native->get('afterwards'));
        self::assertSame(['return' => 0], $spindle->get('afterwards'));
    }

    public function testUtf8mb3CharsetName(): void
    {
        [$native, $spindle] = $this->observe(static function (string $side, Trace $t): void {
            $t->call('utf8mb3', fn () => self::open($side, [], self::dsn('tcp', 'utf8mb3'))->query('SELECT @@character_set_client')->fetchColumn());
            $t->call('utf8', fn () => self::open($side, [], self::dsn('tcp', 'utf8'))->query('SELECT @@character_set_client')->fetchColumn());
        });
        self::assertSame('SQLSTATE[HY000] [2019] Unknown character set', self::throwsMessage($native->get('utf8mb3')));
        self::assertSame(['return' => 'utf8mb3'], $spindle->get('utf8mb3'), 'Spindle knows the newer name');
        self::assertSame($native->get('utf8'), $spindle->get('utf8'));
    }
}
