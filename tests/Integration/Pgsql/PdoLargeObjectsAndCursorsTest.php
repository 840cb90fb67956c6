<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pgsql;

use Spindle\Tests\Integration\Pdo\Trace;

/**
 * Large objects (pgsqlLOBCreate(), pgsqlLOBOpen() and its stream, pgsqlLOBUnlink(), a LOB stream
 * bound as PARAM_LOB, an oid column fetched as a LOB) and scrollable cursors (ATTR_CURSOR =>
 * CURSOR_SCROLL with every fetch orientation) through native pdo_pgsql and through Spindle,
 * call by call. Oids differ between the two sides: they are recorded as "an oid", and error
 * texts with the oid in it have it replaced.
 */
final class PdoLargeObjectsAndCursorsTest extends PdoDifferentialTestCase
{
    /** @return iterable<string, array{bool}> */
    public static function prepareModes(): iterable
    {
        yield 'emulated prepares' => [true];
        yield 'native prepares' => [false];
    }

    /** A stream, a closed resource or a value, as both sides can be compared. */
    private static function shape(mixed $value): mixed
    {
        return \is_resource($value) || gettype($value) === 'resource (closed)' ? ['resource', get_resource_type($value)] : $value;
    }

    /** An error or errorInfo with the oids and descriptors in it made the same on both sides. */
    private static function withoutNumbers(mixed $value): mixed
    {
        if (\is_array($value)) {
            return array_map(self::withoutNumbers(...), $value);
        }

        return \is_string($value) ? preg_replace('/(large object|descriptor:) \d+/', '$1 N', $value) : $value;
    }

    /** @dataProvider prepareModes */
    public function testLargeObjects(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t) use ($emulate): void {
            $t->call('create table', fn () => $db->exec('CREATE TEMP TABLE files (id int PRIMARY KEY, blob oid)'));
            $t->call('begin', fn () => $db->beginTransaction());
            $oid = $db->pgsqlLOBCreate();
            $t->call('created oid is a numeric string', fn () => \is_string($oid) && ctype_digit($oid) && $oid !== '0');
            \assert(\is_string($oid));
            $lob = $db->pgsqlLOBOpen($oid, 'w+b');
            $t->call('open w+b', fn () => self::shape($lob));
            \assert(\is_resource($lob));
            $t->call('write', fn () => fwrite($lob, "Hello dude\n"));
            $t->call('write more', fn () => fwrite($lob, str_repeat('0123456789', 2000)));
            $t->call('tell', fn () => ftell($lob));
            $t->call('seek 0', fn () => fseek($lob, 0));
            $t->call('read 5', fn () => fread($lob, 5));
            $t->call('tell after read', fn () => ftell($lob));
            $t->call('seek 6', fn () => fseek($lob, 6));
            $t->call('read 4', fn () => fread($lob, 4));
            $t->call('seek from the end', fn () => fseek($lob, -10, SEEK_END));
            $t->call('rest', fn () => stream_get_contents($lob));
            $t->call('eof', fn () => feof($lob));
            $t->call('rewind', fn () => rewind($lob));
            $t->call('whole length', fn () => \strlen((string) stream_get_contents($lob)));

            $insert = $db->prepare('INSERT INTO files (id, blob) VALUES (?, ?)');
            $insert->bindValue(1, 1);
            $insert->bindParam(2, $lob, \PDO::PARAM_LOB);
            $t->call('insert the LOB stream', fn () => $emulate ? 'emulated: the stream contents would be sent' : $insert->execute());
            if ($emulate) {
                $db->prepare('INSERT INTO files (id, blob) VALUES (?, ?)')->execute([1, $oid]);
            }
            $t->call('stored oid is the object', fn () => (string) $db->query('SELECT blob FROM files WHERE id = 1')->fetchColumn() === $oid);

            $select = $db->prepare('SELECT * FROM files');
            $select->bindColumn('blob', $fetched, \PDO::PARAM_LOB);
            $t->call('execute with the LOB column bound', fn () => $select->execute());
            $t->call('fetch bound', fn () => $select->fetch(\PDO::FETCH_BOUND));
            $t->call('bound LOB is a stream', fn () => self::shape($fetched));
            $t->call('its contents', fn () => \is_resource($fetched) ? substr((string) stream_get_contents($fetched), 0, 16) : $fetched);

            $late = $db->prepare('SELECT * FROM files');
            $t->call('execute, bind after', fn () => $late->execute());
            $late->bindColumn('blob', $lateLob, \PDO::PARAM_LOB);
            $t->call('late bind row value is an int', fn () => \is_int($late->fetch(\PDO::FETCH_ASSOC)['blob']));

            $t->call('commit', fn () => $db->commit());
            $t->call('stream closed by commit', fn () => self::shape($lob));
            $t->call('write after commit', fn () => self::shape($lob) === ['resource', 'stream'] ? fwrite($lob, 'x') : 'closed');

            $t->call('begin again', fn () => $db->beginTransaction());
            $read = $db->pgsqlLOBOpen($oid, 'rb');
            $t->call('open rb', fn () => self::shape($read));
            \assert(\is_resource($read));
            $t->call('read back', fn () => substr((string) stream_get_contents($read), 0, 11));
            $t->call('write to a read-only LOB fails', fn () => fwrite($read, 'x'));
            $t->call('rollback', fn () => $db->rollBack());
            $t->call('stream closed by rollback', fn () => self::shape($read));

            $t->call('unlink', fn () => $db->pgsqlLOBUnlink($oid));
            $t->call('unlink again', fn () => self::withoutNumbers((static function () use ($db, $oid): mixed {
                try {
                    return $db->pgsqlLOBUnlink($oid);
                } catch (\PDOException $e) {
                    return [$e->getMessage(), $e->errorInfo];
                }
            })()));
            $db->setAttribute(\PDO::ATTR_ERRMODE, \PDO::ERRMODE_SILENT);
            $t->call('open a missing object', fn () => $db->pgsqlLOBOpen('4000000000', 'r'));
            $t->call('errorInfo', fn () => $db->errorInfo());
            $t->call('open no number', fn () => $db->pgsqlLOBOpen('abc'));
            $t->call('errorInfo after no number', fn () => $db->errorInfo());
            $t->call('create outside a transaction', fn () => \is_string($created = $db->pgsqlLOBCreate()) && $db->pgsqlLOBUnlink($created));
            $t->call('errorInfo at the end', fn () => $db->errorInfo());
        }, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION, \PDO::ATTR_EMULATE_PREPARES => $emulate]);
    }

    /** @dataProvider prepareModes */
    public function testScrollableCursors(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $scroll = [\PDO::ATTR_CURSOR => \PDO::CURSOR_SCROLL];
            $t->call('create', fn () => $db->exec('CREATE TEMP TABLE letters (n int PRIMARY KEY, letter text, vowel boolean)'));
            $t->call('insert', fn () => $db->exec("INSERT INTO letters SELECT n, chr(96 + n), chr(96 + n) IN ('a', 'e', 'i') FROM generate_series(1, 9) AS n"));
            $st = $t->call('prepare scrollable', fn () => $db->prepare('SELECT n, letter, vowel FROM letters WHERE n <= ? ORDER BY n', $scroll));
            \assert($st instanceof \PDOStatement);
            $t->call('emulated', fn () => $st->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
            $t->call('execute 6', fn () => $st->execute([6]));
            $t->call('rowCount', fn () => $st->rowCount());
            $t->call('columnCount', fn () => $st->columnCount());
            $t->call('meta', fn () => array_intersect_key((array) $st->getColumnMeta(2), ['native_type' => 1, 'name' => 1, 'pdo_type' => 1]));
            $t->call('next', fn () => $st->fetch(\PDO::FETCH_ASSOC));
            $t->call('next again', fn () => $st->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_NEXT));
            $t->call('absolute 5', fn () => $st->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_ABS, 5));
            $t->call('prior', fn () => $st->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_PRIOR));
            $t->call('relative -2', fn () => $st->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_REL, -2));
            $t->call('relative 2', fn () => $st->fetch(\PDO::FETCH_BOTH, \PDO::FETCH_ORI_REL, 2));
            $t->call('first', fn () => $st->fetch(\PDO::FETCH_OBJ, \PDO::FETCH_ORI_FIRST));
            $t->call('last', fn () => $st->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_LAST));
            $t->call('past the end', fn () => $st->fetch(\PDO::FETCH_NUM));
            $t->call('absolute -1', fn () => $st->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_ABS, -1));
            $t->call('absolute 99', fn () => $st->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_ABS, 99));
            $t->call('prior from after the end', fn () => $st->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_PRIOR));
            $t->call('unknown orientation', fn () => $st->fetch(\PDO::FETCH_NUM, 42));
            $t->call('absolute 0 (before the first)', fn () => $st->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_ABS, 0));
            $t->call('fetchColumn', fn () => $st->fetchColumn(1));
            $t->call('fetchAll of the rest', fn () => $st->fetchAll(\PDO::FETCH_NUM));
            $t->call('execute again, 2', fn () => $st->execute([2]));
            $t->call('fetchAll after execute again', fn () => $st->fetchAll(\PDO::FETCH_ASSOC));
            $t->call('last after fetchAll', fn () => $st->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_LAST));
            $t->call('in a transaction', fn () => $db->beginTransaction());
            $named = $t->call('named parameter', fn () => $db->prepare('SELECT letter FROM letters WHERE letter > :from ORDER BY n DESC', $scroll));
            \assert($named instanceof \PDOStatement);
            $t->call('execute named', fn () => $named->execute(['from' => "f'"]));
            $t->call('last named', fn () => $named->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_LAST));
            $t->call('commit', fn () => $db->commit());
            $t->call('first after commit (WITH HOLD)', fn () => $named->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_FIRST));
            $bad = $t->call('prepare a failing query', fn () => $db->prepare('SELECT * FROM no_such_table', $scroll));
            \assert($bad instanceof \PDOStatement);
            $t->call('execute it', fn () => $bad->execute());
            $t->call('fetch from it', fn () => $bad->fetch());
            $t->call('errorInfo', fn () => $bad->errorInfo());
            $t->call('forward-only ignores the orientation', fn () => ($f = $db->query('SELECT n FROM letters ORDER BY n')) === false ? false : [$f->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_LAST), $f->fetch(\PDO::FETCH_NUM, \PDO::FETCH_ORI_ABS, 7)]);
            $t->call('cursors left open', fn () => $db->query('SELECT count(*) FROM pg_cursors')->fetchColumn());
        }, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_WARNING, \PDO::ATTR_EMULATE_PREPARES => $emulate]);
    }
}
