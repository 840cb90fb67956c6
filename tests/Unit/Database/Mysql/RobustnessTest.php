<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use PHPUnit\Framework\TestCase;
use Random\Engine\Mt19937;
use Random\Randomizer;
use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\Protocol\ClientProtocol;
use Spindle\Database\Mysql\Protocol\ColumnFlag;
use Spindle\Database\Mysql\Protocol\ColumnType as T;
use Spindle\Database\Mysql\Protocol\Phase;
use Spindle\Database\Mysql\Result;

/**
 * Whole conversations fed at once, byte by byte and at random split points give the same
 * outcomes; garbage and mutated streams only ever raise MysqlException.
 */
final class RobustnessTest extends TestCase
{
    /** @return array<string, string> the server's side of a conversation, step by step */
    private static function serverBytes(): array
    {
        return [
            'handshake' => (string) hex2bin(Wire::MARIADB_HANDSHAKE_HEX),
            'auth' => Wire::packet("\xFE" . "caching_sha2_password\0" . 'abcdefghijklmnopqrst' . "\0", 2) . Wire::packets(4, "\x01\x03", Wire::ok()),
            'text' => ClientProtocolResultTest::textResultBytes(true),
            'multi' => Wire::packets(
                1,
                "\x01",
                Wire::column('a', T::LongLong->value, ColumnFlag::UNSIGNED),
                Wire::lstr('18446744073709551615'),
                Wire::ok(0, 0, 0x000A, 0, '', "\xFE"),
                // The handshake offers CLIENT_SESSION_TRACK: the info is length-encoded.
                Wire::ok(3, 9, 0x0002, 1, Wire::lstr('info')),
            ),
            'prepare' => Wire::packets(
                1,
                "\x00" . Wire::le(4, 4) . Wire::le(2, 2) . Wire::le(1, 2) . "\x00\x00\x00",
                Wire::column('?', T::Null->value),
                Wire::column('t', T::DateTime->value, 0, 6),
                Wire::column('n', T::Long->value),
            ),
            'execute' => Wire::packets(
                1,
                "\x02",
                Wire::column('t', T::DateTime->value, 0, 6),
                Wire::column('n', T::Long->value),
                "\x00\x00" . "\x0B\xE8\x07\x02\x1D\x0D\x0E\x0F" . Wire::le(123456, 4) . Wire::le(-1 & 0xFFFFFFFF, 4),
                "\x00\x04" . Wire::le(0, 4),
                Wire::ok(0, 0, 2, 0, '', "\xFE"),
            ),
            'error' => Wire::packet(Wire::err(1146, '42S02', "Table 'db.nope' doesn't exist"), 1),
            'infile' => Wire::packet("\xFB/etc/passwd", 1) . Wire::packet(Wire::ok(), 3),
            'ping' => Wire::packet(Wire::ok(), 1),
        ];
    }

    /**
     * Runs the conversation, feeding each server step through $feed.
     *
     * @param \Closure(ClientProtocol, string): void $feed
     *
     * @return array{list<mixed>, string}
     */
    private static function converse(\Closure $feed): array
    {
        $bytes = self::serverBytes();
        $p = new ClientProtocol(new ConnectionConfig(user: 'u', password: 'pw', database: 'db'));
        $outcomes = [];
        $sent = '';
        $step = static function (string $name) use ($p, $feed, $bytes, &$outcomes, &$sent): mixed {
            $feed($p, $bytes[$name]);
            $sent .= $p->takeOutgoing();
            $outcome = $p->takeOutcome();
            $outcomes[] = self::describe($outcome);

            return $outcome;
        };
        $step('handshake');
        $step('auth');
        self::assertSame(Phase::Ready, $p->phase());
        $p->query('SELECT id, name, score FROM t');
        $step('text');
        $p->query('SELECT 1; UPDATE t SET x = 1');
        $step('multi');
        $p->prepare('SELECT ?');
        $statement = $step('prepare');
        self::assertInstanceOf(PreparedStatement::class, $statement);
        $p->execute($statement, ['x']);
        $step('execute');
        $p->query('SELECT * FROM nope');
        $step('error');
        $p->query("LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE t");
        $step('infile');
        $p->ping();
        $step('ping');
        self::assertSame(Phase::Ready, $p->phase());

        return [$outcomes, $sent];
    }

    private static function describe(mixed $outcome): mixed
    {
        if ($outcome instanceof MysqlException) {
            return ['error', $outcome->errorCode, $outcome->sqlState, $outcome->getMessage()];
        }
        if (\is_array($outcome)) {
            return array_map(static fn (Result $r) => [$r->rows, $r->affectedRows, $r->lastInsertId, $r->statusFlags, $r->warnings, \count($r->columns)], $outcome);
        }
        if ($outcome instanceof PreparedStatement) {
            return ['statement', $outcome->id, \count($outcome->params), \count($outcome->columns)];
        }

        return $outcome;
    }

    public function testConversationWholeByteByByteAndRandomlySplit(): void
    {
        [$outcomes, $sent] = self::converse(static fn (ClientProtocol $p, string $b) => $p->push($b));
        self::assertSame([[1, 'alice', 1.5], [-2, null, -0.25]], $outcomes[2][0][0]);
        self::assertSame([['18446744073709551615']], $outcomes[3][0][0]);
        self::assertSame([['2024-02-29 13:14:15.123456', -1], [null, 0]], $outcomes[5][0][0]);
        self::assertSame(['error', 1146, '42S02', "Table 'db.nope' doesn't exist"], $outcomes[6]);
        self::assertSame(2068, $outcomes[7][1]);

        $byteByByte = self::converse(static function (ClientProtocol $p, string $b): void {
            foreach (str_split($b) as $byte) {
                $p->push($byte);
            }
        });
        self::assertSame([$outcomes, $sent], $byteByByte);

        for ($seed = 1; $seed <= 30; ++$seed) {
            $split = self::converse(static function (ClientProtocol $p, string $b) use ($seed): void {
                foreach (Wire::randomSplit($b, $seed * 7919 + \strlen($b), 13) as $chunk) {
                    $p->push($chunk);
                }
            });
            self::assertSame([$outcomes, $sent], $split, "seed $seed");
        }
    }

    /**
     * A session waiting in the given state.
     */
    private static function sessionIn(string $state): ClientProtocol
    {
        $p = new ClientProtocol(new ConnectionConfig(user: 'u', password: 'pw'));
        if ($state === 'handshake') {
            return $p;
        }
        $p->push((string) hex2bin(Wire::MARIADB_HANDSHAKE_HEX));
        if ($state === 'auth') {
            return $p;
        }
        $p->push(Wire::packet(Wire::ok(), 2));
        match ($state) {
            'text' => $p->query('SELECT 1'),
            'prepare' => $p->prepare('SELECT ?'),
            'binary' => $p->execute(new PreparedStatement(1, 'SELECT 1', [], []), []),
            'ping' => $p->ping(),
            default => null,
        };
        $p->takeOutgoing();

        return $p;
    }

    public function testGarbageOnlyRaisesMysqlException(): void
    {
        $states = ['handshake', 'auth', 'text', 'prepare', 'binary', 'ping', 'idle'];
        $raised = 0;
        for ($seed = 0; $seed < 400; ++$seed) {
            mt_srand($seed);
            $state = $states[$seed % \count($states)];
            $p = self::sessionIn($state);
            // a valid-looking header with a garbage payload reaches the parsers behind the framing
            $length = mt_rand(0, 80);
            $garbage = Wire::le($length, 3) . \chr($state === 'auth' ? 2 : ($state === 'handshake' || $state === 'idle' ? 0 : 1));
            for ($i = 0; $i < $length + mt_rand(0, 40); ++$i) {
                $garbage .= \chr(mt_rand(0, 255));
            }
            $raised += self::feedExpectingOnlyMysqlException($p, $garbage, $seed);
        }
        self::assertGreaterThan(100, $raised);
    }

    public function testMutatedConversationsOnlyRaiseMysqlException(): void
    {
        $bytes = self::serverBytes();
        $cases = ['handshake' => 'handshake', 'text' => 'text', 'multi' => 'text', 'prepare' => 'prepare', 'execute' => 'binary', 'infile' => 'text'];
        $seed = 0;
        foreach ($cases as $name => $state) {
            $original = $bytes[$name];
            for ($round = 0; $round < 80; ++$round) {
                mt_srand(++$seed);
                $mutated = $original;
                $kind = $round % 4;
                if ($kind === 0) {
                    $mutated = substr($mutated, 0, mt_rand(0, \strlen($mutated) - 1));
                } elseif ($kind === 1) {
                    for ($flips = mt_rand(1, 4); $flips > 0; --$flips) {
                        $at = mt_rand(4, \strlen($mutated) - 1);
                        $mutated[$at] = \chr(mt_rand(0, 255));
                    }
                } elseif ($kind === 2) {
                    $at = mt_rand(4, \strlen($mutated));
                    $mutated = substr($mutated, 0, $at) . (new Randomizer(new Mt19937(mt_rand())))->getBytes(mt_rand(1, 8)) . substr($mutated, $at);
                } else {
                    $at = mt_rand(4, \strlen($mutated) - 1);
                    $mutated = substr($mutated, 0, $at) . substr($mutated, $at + mt_rand(1, 6));
                }
                self::feedExpectingOnlyMysqlException(self::sessionIn($state), $mutated, $seed);
            }
        }
        self::assertGreaterThan(0, $seed);
    }

    /** @return int 1 if a MysqlException was raised */
    private static function feedExpectingOnlyMysqlException(ClientProtocol $p, string $bytes, int $seed): int
    {
        try {
            foreach (Wire::randomSplit($bytes, $seed, 9) as $chunk) {
                $p->push($chunk);
                $p->takeOutgoing();
                if ($p->phase() === Phase::LocalInfileRequested) {
                    $p->sendLocalInfile(null);
                }
            }
        } catch (MysqlException) {
            self::assertSame(Phase::Broken, $p->phase());

            return 1;
        } catch (\Throwable $e) {
            self::fail(sprintf('seed %d: %s: %s at %s:%d', $seed, $e::class, $e->getMessage(), $e->getFile(), $e->getLine()));
        }

        return 0;
    }

    public function testHostileCountsAreMalformedNotAwaited(): void
    {
        $p = self::sessionIn('text');
        $this->expectException(MysqlException::class);
        $p->push(Wire::packet("\xFE" . str_repeat("\xFF", 7) . "\x0F", 1));
    }
}
