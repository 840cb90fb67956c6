<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pgsql;

use Spindle\Tests\Integration\Pdo\FetchTarget;
use Spindle\Tests\Integration\Pdo\Trace;

/**
 * Spindle\Database\Pdo against native pdo_pgsql, call by call: values and their PHP types,
 * statements, fetch modes, parameters, errors (SQLSTATE, driver code, message, errorInfo,
 * warnings), transactions, attributes. Every scenario runs with emulated and native prepares
 * where both exist.
 */
final class PdoDifferentialTest extends PdoDifferentialTestCase
{
    private const PEOPLE = 'CREATE TEMP TABLE people (id serial PRIMARY KEY, name varchar(40) NOT NULL UNIQUE, grp text, score numeric(6,2), note bytea, active boolean DEFAULT true)';
    private const PEOPLE_ROWS = "INSERT INTO people (name, grp, score, note, active) VALUES ('ann', 'a', 1.50, '\\x6e6f7465', true), ('bob', 'b', NULL, NULL, false), ('cid', 'a', 99.99, '', NULL), ('dee', 'c', -2, '\\x00ff', true)";

    /** @return iterable<string, array{bool}> */
    public static function prepareModes(): iterable
    {
        yield 'emulated prepares' => [true];
        yield 'native prepares' => [false];
    }

    /** @return iterable<string, array{bool, int}> */
    public static function prepareModesAndErrorModes(): iterable
    {
        foreach (['emulated' => true, 'native' => false] as $name => $emulate) {
            yield "$name prepares, ERRMODE_EXCEPTION" => [$emulate, \PDO::ERRMODE_EXCEPTION];
            yield "$name prepares, ERRMODE_WARNING" => [$emulate, \PDO::ERRMODE_WARNING];
            yield "$name prepares, ERRMODE_SILENT" => [$emulate, \PDO::ERRMODE_SILENT];
        }
    }

    /** @return array<int, bool> */
    private static function emulate(bool $emulate): array
    {
        return [\PDO::ATTR_EMULATE_PREPARES => $emulate];
    }

    private static function people(\PDO $db, Trace $t): void
    {
        $t->call('create people', fn () => $db->exec(self::PEOPLE));
        $t->call('insert people', fn () => $db->exec(self::PEOPLE_ROWS));
    }

    public function testAttributes(): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            foreach ([
                'ERRMODE' => \PDO::ATTR_ERRMODE, 'CASE' => \PDO::ATTR_CASE, 'ORACLE_NULLS' => \PDO::ATTR_ORACLE_NULLS,
                'DRIVER_NAME' => \PDO::ATTR_DRIVER_NAME, 'PERSISTENT' => \PDO::ATTR_PERSISTENT,
                'DEFAULT_FETCH_MODE' => \PDO::ATTR_DEFAULT_FETCH_MODE,
                'EMULATE_PREPARES' => \PDO::ATTR_EMULATE_PREPARES, 'DISABLE_PREPARES' => 1000,
                'SERVER_VERSION' => \PDO::ATTR_SERVER_VERSION, 'CONNECTION_STATUS' => \PDO::ATTR_CONNECTION_STATUS,
                'STRINGIFY_FETCHES' => \PDO::ATTR_STRINGIFY_FETCHES, 'AUTOCOMMIT' => \PDO::ATTR_AUTOCOMMIT,
                'TIMEOUT' => \PDO::ATTR_TIMEOUT, 'PREFETCH' => \PDO::ATTR_PREFETCH, 'FETCH_TABLE_NAMES' => \PDO::ATTR_FETCH_TABLE_NAMES,
            ] as $name => $attribute) {
                $t->call("get $name", fn () => $db->getAttribute($attribute));
            }
            // Spindle's own statement class (a PDOStatement) is the documented difference.
            $t->call('get STATEMENT_CLASS', fn () => is_a($db->getAttribute(\PDO::ATTR_STATEMENT_CLASS)[0], \PDOStatement::class, true));
            $t->call('server info shape', fn () => preg_replace('/PID: \d+/', 'PID: n', (string) $db->getAttribute(\PDO::ATTR_SERVER_INFO)));
            foreach ([
                'EMULATE on' => [\PDO::ATTR_EMULATE_PREPARES, true], 'EMULATE off' => [\PDO::ATTR_EMULATE_PREPARES, false],
                'DISABLE_PREPARES' => [1000, true], 'DISABLE_PREPARES off' => [1000, false],
                'AUTOCOMMIT' => [\PDO::ATTR_AUTOCOMMIT, false], 'CASE lower' => [\PDO::ATTR_CASE, \PDO::CASE_LOWER],
                'CASE bad' => [\PDO::ATTR_CASE, 99], 'ERRMODE bad' => [\PDO::ATTR_ERRMODE, 99],
                'TIMEOUT' => [\PDO::ATTR_TIMEOUT, 5], 'FETCH_TABLE_NAMES' => [\PDO::ATTR_FETCH_TABLE_NAMES, true],
                'DEFAULT_FETCH_MODE' => [\PDO::ATTR_DEFAULT_FETCH_MODE, \PDO::FETCH_NUM],
                'STRINGIFY' => [\PDO::ATTR_STRINGIFY_FETCHES, true],
            ] as $name => [$attribute, $value]) {
                $t->call("set $name", fn () => $db->setAttribute($attribute, $value));
                $t->call("errorInfo after set $name", fn () => $db->errorInfo());
            }
            $t->call('EMULATE after', fn () => $db->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
            $t->call('available drivers include pgsql', fn () => \in_array('pgsql', \PDO::getAvailableDrivers(), true));
        });
    }

    public function testConnectionErrors(): void
    {
        $this->differentialSides(static function (string $side, Trace $t): void {
            $env = self::env();
            $t->call('wrong password', fn () => self::open($side, [], null, null, 'wrong'));
            $t->call('md5 user, wrong password', fn () => self::open($side, [], null, $env['PGSQL_MD5_USER'], 'wrong'));
            $t->call('unknown database', fn () => self::open($side, [], sprintf('pgsql:host=%s;port=%s;dbname=nosuchdb', $env['PGSQL_HOST'], $env['PGSQL_PORT'])));
            $t->call('sslmode disable, wrong password', fn () => self::open($side, [], self::dsn(';sslmode=disable'), null, 'wrong'));
            $t->call('md5 user', fn () => self::open($side, [], null, $env['PGSQL_MD5_USER'])->query('SELECT current_user')->fetchColumn());
            $t->call('cleartext user', fn () => self::open($side, [], null, $env['PGSQL_CLEARTEXT_USER'])->query('SELECT current_user')->fetchColumn());
            $t->call('trust user', fn () => self::open($side, [], null, $env['PGSQL_TRUST_USER'], '')->query('SELECT current_user')->fetchColumn());
            $t->call('require tls', fn () => self::open($side, [], self::dsn(';sslmode=require'))->query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')->fetchColumn());
            $t->call('unix socket', fn () => self::open($side, [], sprintf('pgsql:host=%s;port=%s;dbname=%s', $env['PGSQL_SOCKET_DIR'], $env['PGSQL_PORT'], $env['PGSQL_DATABASE']))->query("SELECT 'via socket'")->fetchColumn());
            $t->call('dsn user and password', fn () => (new \ReflectionClass($side === self::NATIVE ? \PDO::class : \Spindle\Database\Pdo::class))
                ->newInstance(self::dsn(sprintf(';user=%s;password=%s', $env['PGSQL_USER'], $env['PGSQL_PASSWORD'])))->query('SELECT 1')->fetchColumn());
            $t->call('options exception mode', fn () => self::open($side, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_SILENT])->query('SELECT nope'));
        });
    }

    /** @dataProvider prepareModes */
    public function testTypes(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $columns = [
                '1::int2', '-2::int4', '9223372036854775807::int8', '1.5::float4', '-2.25::float8', "'NaN'::float8",
                '1e300::float8', '12.3400::numeric(8,4)', "'-0.000001'::numeric", 'true', 'false', 'NULL::bool',
                "'text'::text", "'pad'::char(5)", "'var'::varchar(9)", "'\\x00010203'::bytea", "''::bytea",
                "'2024-02-29'::date", "'13:14:15.5'::time", "'2024-02-29 13:14:15.123456'::timestamp",
                "'2024-02-29 13:14:15+02'::timestamptz", "'1 day 02:03:04'::interval", "'{\"a\": [1, 2]}'::jsonb",
                "'{\"b\":1}'::json", "'550e8400-e29b-41d4-a716-446655440000'::uuid", "ARRAY[1, 2, NULL]",
                "ARRAY['a b', 'c']", "'{}'::int[]", '42::oid', "'192.168.0.1'::inet", "'12.5'::money", 'NULL',
                "'ünïcödé ✓'", "E'tab\\there'", "'(1,2)'::point", "'<a/>'::xml",
            ];
            $select = 'SELECT ' . implode(', ', array_map(static fn (string $c, int $i): string => "$c AS c$i", $columns, array_keys($columns)));
            $t->call('set time zone', fn () => $db->exec("SET TIME ZONE 'UTC'"));
            $st = $t->call('query types', fn () => $db->query($select));
            $t->call('fetch ASSOC', fn () => $st->fetch(\PDO::FETCH_ASSOC));
            foreach (array_keys($columns) as $i) {
                $t->call("meta $i", fn () => $st->getColumnMeta($i));
            }
            $t->call('meta past the end', fn () => $st->getColumnMeta(\count($columns)));
            $st = $t->call('prepare types', fn () => $db->prepare($select));
            $t->call('execute types', fn () => $st->execute());
            $t->call('fetch NUM', fn () => $st->fetch(\PDO::FETCH_NUM));
            $t->call('columnCount', fn () => $st->columnCount());
            $t->call('rowCount', fn () => $st->rowCount());

            $t->call('stringify on', fn () => $db->setAttribute(\PDO::ATTR_STRINGIFY_FETCHES, true));
            $t->call('stringified', fn () => $db->query('SELECT 1::int4 AS i, 2.5::float8 AS f, true AS b, NULL AS n')->fetch(\PDO::FETCH_ASSOC));
            $t->call('stringify off', fn () => $db->setAttribute(\PDO::ATTR_STRINGIFY_FETCHES, false));
            $t->call('oracle nulls empty', fn () => $db->setAttribute(\PDO::ATTR_ORACLE_NULLS, \PDO::NULL_EMPTY_STRING));
            $t->call('empty to null', fn () => $db->query("SELECT '' AS e, 'x' AS x")->fetch(\PDO::FETCH_ASSOC));
            $t->call('oracle nulls to string', fn () => $db->setAttribute(\PDO::ATTR_ORACLE_NULLS, \PDO::NULL_TO_STRING));
            $t->call('null to string', fn () => $db->query('SELECT NULL AS n, 1 AS one')->fetch(\PDO::FETCH_ASSOC));
            $t->call('case upper', fn () => $db->setAttribute(\PDO::ATTR_CASE, \PDO::CASE_UPPER));
            $t->call('upper names', fn () => $db->query('SELECT 1 AS "MixedCase", 2 AS lower')->fetch(\PDO::FETCH_ASSOC));
        }, self::emulate($emulate));
    }

    /** @dataProvider prepareModes */
    public function testFetchModes(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            self::people($db, $t);
            $select = 'SELECT id, name, grp, score, active FROM people ORDER BY id';
            $modes = [
                'ASSOC' => [\PDO::FETCH_ASSOC], 'NUM' => [\PDO::FETCH_NUM], 'BOTH' => [\PDO::FETCH_BOTH],
                'OBJ' => [\PDO::FETCH_OBJ], 'NAMED' => [\PDO::FETCH_NAMED],
                'COLUMN' => [\PDO::FETCH_COLUMN], 'COLUMN 2' => [\PDO::FETCH_COLUMN, 2],
                'CLASS' => [\PDO::FETCH_CLASS, FetchTarget::class],
                'CLASS PROPS_LATE' => [\PDO::FETCH_CLASS | \PDO::FETCH_PROPS_LATE, FetchTarget::class, ['late']],
                'GROUP ASSOC' => [\PDO::FETCH_GROUP | \PDO::FETCH_ASSOC],
                'UNIQUE ASSOC' => [\PDO::FETCH_UNIQUE | \PDO::FETCH_ASSOC],
                'GROUP COLUMN 2' => [\PDO::FETCH_GROUP | \PDO::FETCH_COLUMN, 2],
                'FUNC' => [\PDO::FETCH_FUNC, static fn (mixed ...$values): array => $values],
                'bad mode' => [99],
                'COLUMN out of range' => [\PDO::FETCH_COLUMN, 9],
            ];
            foreach ($modes as $name => $args) {
                $st = $t->call("query for $name", fn () => $db->query($select));
                $t->call("fetchAll $name", fn () => $st->fetchAll(...$args));
            }
            $st = $t->call('query pairs', fn () => $db->query('SELECT name, score FROM people ORDER BY id'));
            $t->call('KEY_PAIR', fn () => $st->fetchAll(\PDO::FETCH_KEY_PAIR));
            $st = $t->call('duplicate names', fn () => $db->query('SELECT a.id, b.id, a.name AS id FROM people a JOIN people b ON b.id = a.id + 1 ORDER BY a.id'));
            $t->call('NAMED duplicates', fn () => $st->fetch(\PDO::FETCH_NAMED));
            $t->call('ASSOC duplicates', fn () => $st->fetch(\PDO::FETCH_ASSOC));
            $st = $t->call('fetchColumn', fn () => $db->query($select));
            $t->call('fetchColumn()', fn () => $st->fetchColumn());
            $t->call('fetchColumn(3)', fn () => $st->fetchColumn(3));
            $t->call('fetchColumn(5)', fn () => $st->fetchColumn(5));
            $st = $t->call('fetchObject', fn () => $db->query($select));
            $t->call('fetchObject()', fn () => $st->fetchObject());
            $t->call('fetchObject(class, args)', fn () => $st->fetchObject(FetchTarget::class, ['x', 2]));
            $st = $t->call('bound', fn () => $db->prepare('SELECT id, name, score, note FROM people ORDER BY id'));
            $t->call('bindColumn 1 INT', fn () => $st->bindColumn(1, $id, \PDO::PARAM_INT));
            $t->call('bindColumn name STR', fn () => $st->bindColumn('name', $name));
            $t->call('bindColumn 4 LOB', fn () => $st->bindColumn(4, $note, \PDO::PARAM_LOB));
            $t->call('execute', fn () => $st->execute());
            for ($i = 0; $i < 5; ++$i) {
                $t->call("fetch BOUND $i", fn () => $st->fetch(\PDO::FETCH_BOUND));
                $t->call("bound values $i", fn () => [$id, $name, $note]);
            }
            $st = $t->call('iterate', fn () => $db->query('SELECT id, name FROM people ORDER BY id', \PDO::FETCH_KEY_PAIR));
            $t->call('foreach', function () use ($st): array {
                $rows = [];
                foreach ($st as $key => $row) {
                    $rows[$key] = $row;
                }

                return $rows;
            });
            $st = $t->call('fetch after end', fn () => $db->query('SELECT 1 AS one'));
            $t->call('fetch', fn () => $st->fetch());
            $t->call('fetch end', fn () => $st->fetch());
            $t->call('nextRowset', fn () => $st->nextRowset());
            $t->call('fetch no result', fn () => $db->prepare('SELECT 1')->fetch());
        }, self::emulate($emulate));
    }

    /** @dataProvider prepareModes */
    public function testParameters(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            self::people($db, $t);
            $st = $t->call('positional', fn () => $db->prepare('SELECT name FROM people WHERE grp = ? AND id > ? ORDER BY id'));
            $t->call('execute array', fn () => $st->execute(['a', 0]));
            $t->call('rows', fn () => $st->fetchAll(\PDO::FETCH_COLUMN));
            $t->call('execute again', fn () => $st->execute(['c', 0]));
            $t->call('rows again', fn () => $st->fetchAll(\PDO::FETCH_COLUMN));
            $st = $t->call('named', fn () => $db->prepare('SELECT :a::int + :b::int AS sum, :a::text AS again'));
            $t->call('execute named', fn () => $st->execute([':a' => 2, 'b' => 40]));
            $t->call('named row', fn () => $st->fetch(\PDO::FETCH_ASSOC));
            $st = $t->call('typed', fn () => $db->prepare('SELECT ?::int AS i, ?::text AS s, ?::bool AS b, ? AS n, ?::bytea AS l, ?::text AS fl'));
            $t->call('bind INT', fn () => $st->bindValue(1, '17', \PDO::PARAM_INT));
            $t->call('bind STR', fn () => $st->bindValue(2, "it's \\ \"quoted\""));
            $t->call('bind BOOL', fn () => $st->bindValue(3, true, \PDO::PARAM_BOOL));
            $t->call('bind NULL', fn () => $st->bindValue(4, null, \PDO::PARAM_NULL));
            $t->call('bind LOB', fn () => $st->bindValue(5, "\x00\x01binary'", \PDO::PARAM_LOB));
            $t->call('bind float', fn () => $st->bindValue(6, 0.1));
            $t->call('execute typed', fn () => $st->execute());
            $t->call('typed row', fn () => $st->fetch(\PDO::FETCH_ASSOC));
            $t->call('debugDumpParams', function () use ($st): string {
                ob_start();
                $st->debugDumpParams();

                return (string) ob_get_clean();
            });
            $st = $t->call('bool false', fn () => $db->prepare('SELECT name FROM people WHERE active = ? ORDER BY id'));
            $t->call('bind false', fn () => $st->bindValue(1, false, \PDO::PARAM_BOOL));
            $t->call('execute false', fn () => $st->execute());
            $t->call('false rows', fn () => $st->fetchAll(\PDO::FETCH_COLUMN));
            $value = 'ann';
            $st = $t->call('bindParam', fn () => $db->prepare('SELECT id FROM people WHERE name = :name'));
            $t->call('bindParam name', fn () => $st->bindParam(':name', $value));
            foreach (['ann', 'cid', 'zed'] as $name) {
                $value = $name;
                $t->call("execute $name", fn () => $st->execute());
                $t->call("id of $name", fn () => $st->fetchColumn());
            }
            $st = $t->call('lob stream', fn () => $db->prepare('SELECT ?::bytea AS b'));
            $stream = fopen('php://memory', 'r+');
            \assert(\is_resource($stream));
            fwrite($stream, "stream\x00data");
            rewind($stream);
            $t->call('bind stream', fn () => $st->bindValue(1, $stream, \PDO::PARAM_LOB));
            $t->call('execute stream', fn () => $st->execute());
            $t->call('stream row', fn () => $st->fetch(\PDO::FETCH_ASSOC));
            $t->call('jsonb ?? operator', fn () => $db->query("SELECT '{\"a\":1}'::jsonb ?? 'a' AS has")->fetch(\PDO::FETCH_ASSOC));
            $st = $t->call('?? with a parameter', fn () => $db->prepare("SELECT '{\"a\":1}'::jsonb ?? ? AS has"));
            $t->call('execute ??', fn () => $st->execute(['b']));
            $t->call('?? row', fn () => $st->fetch(\PDO::FETCH_ASSOC));
            $t->call('? in a string', fn () => $db->prepare("SELECT '?' AS q, ? AS p")->execute([1]));
            $t->call('cast is no placeholder', fn () => $db->query("SELECT '5'::int AS five")->fetch(\PDO::FETCH_ASSOC));
            $t->call('mixed', fn () => $db->prepare('SELECT ?, :x'));
            $st = $t->call('too few', fn () => $db->prepare('SELECT ?::int, ?::int'));
            $t->call('execute too few', fn () => $st->execute([1]));
            $t->call('errorInfo too few', fn () => $st->errorInfo());
            $t->call('execute with both after too few', fn () => $st->execute([1, 2]));
            $t->call('both', fn () => $st->fetch(\PDO::FETCH_NUM));
            $st = $t->call('too many', fn () => $db->prepare('SELECT ?::int'));
            $t->call('execute too many', fn () => $st->execute([1, 2]));
            $st = $t->call('unknown name', fn () => $db->prepare('SELECT :a::int'));
            $t->call('execute unknown name', fn () => $st->execute([':b' => 1]));
            $t->call('bindValue unknown name', fn () => $st->bindValue(':zzz', 1));
            $t->call('quote', fn () => [$db->quote("a'b"), $db->quote('back\\slash'), $db->quote(''), $db->quote("nul\0byte"), $db->quote('ünï')]);
            $t->call('insert with params', fn () => $db->prepare('INSERT INTO people (name, grp) VALUES (?, ?)')->execute(['eve', 'e']));
            $t->call('count', fn () => $db->query('SELECT count(*) FROM people')->fetchColumn());
        }, self::emulate($emulate));
    }

    /** @dataProvider prepareModesAndErrorModes */
    public function testServerErrors(bool $emulate, int $errorMode): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            self::people($db, $t);
            $t->call('undefined table', fn () => $db->query('SELECT * FROM missing'));
            $t->call('errorCode', fn () => $db->errorCode());
            $t->call('errorInfo', fn () => $db->errorInfo());
            $t->call('syntax error', fn () => $db->exec('SELEC 1'));
            $t->call('errorInfo after exec', fn () => $db->errorInfo());
            $t->call('unique violation', fn () => $db->exec("INSERT INTO people (name) VALUES ('ann')"));
            $t->call('not null violation', fn () => $db->exec('INSERT INTO people (grp) VALUES (1)'));
            $t->call('division by zero', fn () => $db->query('SELECT 1/0'));
            $t->call('bad input', fn () => $db->query("SELECT 'abc'::int"));
            $t->call('undefined function with hint', fn () => $db->query('SELECT lenght(name) FROM people'));
            $t->call('undefined column on line 2', fn () => $db->query("SELECT id,\n  nope FROM people"));
            $t->call('long line', fn () => $db->query('SELECT id, name, grp, score, note, active, id AS a, name AS b, grp AS c, score AS d, nope FROM people'));
            $t->call('raise exception', fn () => $db->exec("DO \$\$ BEGIN RAISE EXCEPTION 'custom %', 42 USING DETAIL = 'the detail', HINT = 'the hint'; END \$\$"));
            $st = $t->call('prepare bad', fn () => $db->prepare('SELECT * FROM missing WHERE id = ?'));
            $t->call('execute bad', fn () => $st ? $st->execute([1]) : 'no statement');
            $t->call('statement errorInfo', fn () => $st ? $st->errorInfo() : 'no statement');
            $t->call('statement errorCode', fn () => $st ? $st->errorCode() : 'no statement');
            $t->call('handle errorInfo after statement', fn () => $db->errorInfo());
            $t->call('ok afterwards', fn () => $db->query('SELECT 1')->fetchColumn());
            $t->call('errorInfo cleared', fn () => $db->errorInfo());
            $t->call('two statements in query', fn () => $db->query('SELECT 1; SELECT 2'));
            $t->call('two statements in exec', fn () => $db->exec("UPDATE people SET grp = 'z' WHERE id = 1; DELETE FROM people WHERE id = 4"));
            $t->call('lastInsertId before any', fn () => (new \ReflectionClass($db))->getName() !== '' ? 'skip' : 'skip');
        }, [\PDO::ATTR_EMULATE_PREPARES => $emulate, \PDO::ATTR_ERRMODE => $errorMode]);
    }

    /** @dataProvider prepareModes */
    public function testRowCountsAndInsertIds(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $t->call('lastInsertId before any', fn () => $db->lastInsertId());
            self::people($db, $t);
            $t->call('lastInsertId', fn () => $db->lastInsertId());
            $t->call('lastInsertId of sequence', fn () => $db->lastInsertId('people_id_seq'));
            $t->call('lastInsertId of unknown sequence', fn () => $db->lastInsertId('nope_seq'));
            $t->call('update', fn () => $db->exec("UPDATE people SET grp = 'x' WHERE grp = 'a'"));
            $t->call('update none', fn () => $db->exec("UPDATE people SET grp = 'x' WHERE grp = 'nope'"));
            $st = $t->call('prepared delete', fn () => $db->prepare('DELETE FROM people WHERE id > ?'));
            $t->call('execute delete', fn () => $st->execute([2]));
            $t->call('rowCount delete', fn () => $st->rowCount());
            $t->call('columnCount delete', fn () => $st->columnCount());
            $st = $t->call('select', fn () => $db->query('SELECT * FROM people'));
            $t->call('rowCount select', fn () => $st->rowCount());
            $st = $t->call('returning', fn () => $db->prepare('INSERT INTO people (name) VALUES (?) RETURNING id, name'));
            $t->call('execute returning', fn () => $st->execute(['fay']));
            $t->call('returned', fn () => $st->fetch(\PDO::FETCH_ASSOC));
            $t->call('rowCount returning', fn () => $st->rowCount());
            $t->call('lastInsertId after returning', fn () => $db->lastInsertId());
            $t->call('exec select', fn () => $db->exec('SELECT * FROM people'));
            $t->call('exec create', fn () => $db->exec('CREATE TEMP TABLE other (x int)'));
            $t->call('exec empty statement', fn () => $db->exec(' '));
        }, self::emulate($emulate));
    }

    public function testTransactions(): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            self::people($db, $t);
            $t->call('inTransaction', fn () => $db->inTransaction());
            $t->call('commit without', fn () => $db->commit());
            $t->call('rollBack without', fn () => $db->rollBack());
            $t->call('begin', fn () => $db->beginTransaction());
            $t->call('begin again', fn () => $db->beginTransaction());
            $t->call('inTransaction after begin', fn () => $db->inTransaction());
            $t->call('insert', fn () => $db->exec("INSERT INTO people (name) VALUES ('tx')"));
            $t->call('savepoint', fn () => $db->exec('SAVEPOINT s1'));
            $t->call('insert 2', fn () => $db->exec("INSERT INTO people (name) VALUES ('tx2')"));
            $t->call('rollback to savepoint', fn () => $db->exec('ROLLBACK TO SAVEPOINT s1'));
            $t->call('release', fn () => $db->exec('RELEASE SAVEPOINT s1'));
            $t->call('rollBack', fn () => $db->rollBack());
            $t->call('inTransaction after rollBack', fn () => $db->inTransaction());
            $t->call('count after rollBack', fn () => $db->query("SELECT count(*) FROM people WHERE name LIKE 'tx%'")->fetchColumn());
            $t->call('begin 2', fn () => $db->beginTransaction());
            $t->call('insert 3', fn () => $db->exec("INSERT INTO people (name) VALUES ('tx3')"));
            $t->call('commit', fn () => $db->commit());
            $t->call('count after commit', fn () => $db->query("SELECT count(*) FROM people WHERE name LIKE 'tx%'")->fetchColumn());
            $t->call('begin 3', fn () => $db->beginTransaction());
            $t->call('failing statement', fn () => $db->exec('SELECT 1/0'));
            $t->call('inTransaction in failed transaction', fn () => $db->inTransaction());
            $t->call('statement in failed transaction', fn () => $db->query('SELECT 1'));
            $t->call('commit failed transaction', fn () => $db->commit());
            $t->call('inTransaction after failed commit', fn () => $db->inTransaction());
            $t->call('BEGIN by hand', fn () => $db->exec('BEGIN'));
            $t->call('inTransaction after BEGIN by hand', fn () => $db->inTransaction());
            $t->call('COMMIT by hand', fn () => $db->exec('COMMIT'));
            $t->call('inTransaction after COMMIT by hand', fn () => $db->inTransaction());
        }, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
    }

    public function testPdoPgsqlMethods(): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $file = tempnam(sys_get_temp_dir(), 'spindle-copy-');
            \assert(\is_string($file));
            $t->call('create', fn () => $db->exec('CREATE TEMP TABLE c (id int, name text)'));
            $t->call('copy from array', fn () => $db->pgsqlCopyFromArray('c', ["1\tone", "2\t\\N\n", "3\tthree"]));
            $t->call('copy to array', fn () => $db->pgsqlCopyToArray('c'));
            $t->call('copy to array, separator, null, fields', fn () => $db->pgsqlCopyToArray('c', ';', 'NULL', 'name'));
            $t->call('copy from array, fields', fn () => $db->pgsqlCopyFromArray('c', ['4;x'], ';', '\\\\N', 'id,name'));
            $t->call('copy bad row', fn () => $db->pgsqlCopyFromArray('c', ["bad\tx"]));
            $t->call('errorInfo after bad row', fn () => $db->errorInfo());
            $t->call('copy to unknown table', fn () => $db->pgsqlCopyToArray('nope'));
            $t->call('copy to file', fn () => $db->pgsqlCopyToFile('c', $file));
            $t->call('file contents', fn () => file_get_contents($file));
            $t->call('copy from file', fn () => $db->pgsqlCopyFromFile('c', $file));
            $t->call('count', fn () => $db->query('SELECT count(*) FROM c')->fetchColumn());
            $t->call('pid', fn () => $db->pgsqlGetPid() === (int) $db->query('SELECT pg_backend_pid()')->fetchColumn());
            $t->call('listen', fn () => $db->exec('LISTEN ch'));
            $t->call('nothing yet', fn () => $db->pgsqlGetNotify());
            $t->call('notify', fn () => $db->exec("NOTIFY ch, 'hello'"));
            $pid = static fn (array|false $n): array|false => $n === false ? false : array_map(static fn ($v) => \is_int($v) ? 'pid' : $v, $n);
            $t->call('notification assoc', fn () => $pid($db->pgsqlGetNotify(\PDO::FETCH_ASSOC)));
            $t->call('none left, 10 ms', fn () => $db->pgsqlGetNotify(\PDO::FETCH_ASSOC, 10));
            $t->call('notify without payload', fn () => $db->exec('NOTIFY ch'));
            $t->call('notification both', fn () => $pid($db->pgsqlGetNotify()));
            $t->call('notify x', fn () => $db->exec("NOTIFY ch, 'x'"));
            $t->call('notification num', fn () => $pid($db->pgsqlGetNotify(\PDO::FETCH_NUM)));
            $t->call('bad fetch mode', fn () => $db->pgsqlGetNotify(\PDO::FETCH_OBJ));
            $t->call('negative timeout', fn () => $db->pgsqlGetNotify(\PDO::FETCH_NUM, -1));
            @unlink($file);
        });
    }

    public function testNotificationFromAnotherSessionWithinTheTimeout(): void
    {
        $this->differentialSides(static function (string $side, Trace $t): void {
            $listener = self::open($side);
            $sender = self::open($side);
            $t->call('listen', fn () => $listener->exec('LISTEN other'));
            $t->call('notify from another session', fn () => $sender->exec("NOTIFY other, 'from afar'"));
            $t->call('received', fn () => ($n = $listener->pgsqlGetNotify(\PDO::FETCH_ASSOC, 5000)) === false ? false : [$n['message'], $n['payload'], $n['pid'] === $sender->pgsqlGetPid()]);
        });
    }

    /** @dataProvider prepareModes */
    public function testStatementLifecycle(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            self::people($db, $t);
            $st = $t->call('prepare', fn () => $db->prepare('SELECT id, name FROM people WHERE id <= ? ORDER BY id'));
            $t->call('columnCount before execute', fn () => $st->columnCount());
            $t->call('getColumnMeta before execute', fn () => $st->getColumnMeta(0));
            $t->call('execute 2', fn () => $st->execute([2]));
            $t->call('fetch one', fn () => $st->fetch(\PDO::FETCH_ASSOC));
            $t->call('closeCursor', fn () => $st->closeCursor());
            $t->call('fetch after closeCursor', fn () => $st->fetch());
            $t->call('execute 3', fn () => $st->execute([3]));
            $t->call('fetchAll', fn () => $st->fetchAll(\PDO::FETCH_ASSOC));
            // Each side's temporary table has an oid of its own.
            $t->call('meta table column', fn () => ['pgsql:table_oid' => $st->getColumnMeta(1)['pgsql:table_oid'] > 0] + $st->getColumnMeta(1));
            $t->call('getAttribute EMULATE', fn () => $st->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
            $t->call('queryString', fn () => $st->queryString);
            for ($i = 0; $i < 20; ++$i) {
                $db->prepare('SELECT ' . $i)->execute();
            }
            $t->call('many statements later', fn () => $db->query('SELECT count(*) FROM pg_prepared_statements')->fetchColumn() <= 2);
            $t->call('disable prepares', fn () => $db->setAttribute(1000, true));
            $st = $t->call('unnamed', fn () => $db->prepare('SELECT ?::int * 2'));
            $t->call('execute unnamed', fn () => $st->execute([21]));
            $t->call('unnamed result', fn () => $st->fetchColumn());
        }, self::emulate($emulate));
    }
}
