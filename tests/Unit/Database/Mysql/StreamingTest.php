<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\Protocol\ClientProtocol;
use Spindle\Database\Mysql\Protocol\StreamedSet;
use Spindle\Database\Mysql\Result;
use Spindle\Database\Mysql\ResultStream;

/**
 * Streamed (unbuffered) commands in the protocol and ResultStream, without a socket: the same
 * bytes fed whole, byte by byte and at random split points give the same rows as a buffered
 * command, handed out as they arrive.
 */
final class StreamingTest extends TestCase
{
    /** Two result sets (the second after MORE_RESULTS_EXISTS), then an OK. */
    private static function threeResults(): string
    {
        $first = ClientProtocolResultTest::textResultBytes(true);
        // The first set's terminator says more results follow (status 0x0008 | 0x0002).
        $first = substr($first, 0, -11) . Wire::packet(Wire::ok(0, 0, 0x000A, 0, '', "\xFE"), 7);
        $second = Wire::packets(8, "\x01", Wire::column('n', 3), Wire::lstr('7'), Wire::ok(0, 0, 0x000A, 0, '', "\xFE"));
        $ok = Wire::packet(Wire::ok(3, 9, 0x0002), 12);

        return $first . $second . $ok;
    }

    /**
     * Feeds $chunks one per pull to a streamed query and reads it through a ResultStream.
     *
     * @param list<string> $chunks
     *
     * @return array{list<list<list<int|float|string|null>>>, list<?Result>, int} rows per set, summaries, pulls
     */
    private static function stream(array $chunks): array
    {
        $p = ClientProtocolResultTest::ready();
        $p->query('SELECT …', stream: true);
        $p->takeOutgoing();
        $pulls = 0;
        $stream = new ResultStream(static function () use ($p, &$chunks, &$pulls): array {
            ++$pulls;
            $p->push(array_shift($chunks) ?? '');
            $outcome = $p->takeOutcome();

            return [$p->takeStreamSets(), $outcome !== null, $outcome instanceof MysqlException ? $outcome : null];
        });
        $rows = [];
        $summaries = [];
        for ($set = $stream->current(); $set !== null; $set = $stream->nextSet()) {
            $these = [];
            while (($row = $stream->nextRow()) !== null) {
                $these[] = $row;
            }
            $rows[] = $these;
            $summaries[] = $set->summary;
        }
        self::assertTrue($stream->isComplete());
        self::assertTrue($stream->isRead());

        return [$rows, $summaries, $pulls];
    }

    public function testStreamedRowsMatchBufferedOnes(): void
    {
        $bytes = self::threeResults();
        $p = ClientProtocolResultTest::ready();
        $p->query('SELECT …');
        $p->push($bytes);
        $buffered = $p->takeOutcome();
        self::assertIsArray($buffered);
        $expected = array_map(static fn (Result $r): array => $r->rows, $buffered);

        foreach (['whole' => [$bytes], 'byte by byte' => str_split($bytes)] as $label => $chunks) {
            [$rows, $summaries] = self::stream($chunks);
            self::assertSame($expected, $rows, $label);
            self::assertSame(3, $summaries[2]?->affectedRows, $label);
            self::assertSame(9, $summaries[2]?->lastInsertId, $label);
        }
        for ($seed = 1; $seed <= 20; ++$seed) {
            self::assertSame($expected, self::stream(Wire::randomSplit($bytes, $seed))[0], "seed $seed");
        }
    }

    public function testRowsAreHandedOutAsTheyArrive(): void
    {
        $bytes = self::threeResults();
        $p = ClientProtocolResultTest::ready();
        $p->query('SELECT …', stream: true);
        // The column definitions and the first row, not yet the second.
        $cut = strpos($bytes, Wire::lstr('alice') . Wire::lstr('1.5')) + \strlen(Wire::lstr('alice') . Wire::lstr('1.5'));
        $p->push(substr($bytes, 0, $cut));
        $sets = $p->takeStreamSets();
        self::assertCount(1, $sets);
        self::assertInstanceOf(StreamedSet::class, $sets[0]);
        self::assertSame([[1, 'alice', 1.5]], $sets[0]->rows);
        self::assertFalse($sets[0]->ended());
        self::assertNull($p->takeOutcome());
        $sets[0]->rows = [];
        $p->push(substr($bytes, $cut));
        self::assertSame([[-2, null, -0.25]], $sets[0]->rows, 'the same set receives the rest');
        self::assertTrue($sets[0]->ended());
        self::assertCount(2, $p->takeStreamSets());
        $outcome = $p->takeOutcome();
        self::assertIsArray($outcome);
        self::assertSame([], $outcome[0]->rows, 'a streamed outcome holds no rows');
    }

    public function testAnErrorAfterTheFirstSetIsThrownWhereTheReaderReachesIt(): void
    {
        $first = ClientProtocolResultTest::textResultBytes(true);
        $first = substr($first, 0, -11) . Wire::packet(Wire::ok(0, 0, 0x000A, 0, '', "\xFE"), 7);
        $error = Wire::packet(Wire::err(1146, '42S02', "Table 't.nope' doesn't exist"), 8);
        $p = ClientProtocolResultTest::ready();
        $p->query('SELECT …', stream: true);
        $chunks = [$first, $error];
        $stream = new ResultStream(static function () use ($p, &$chunks): array {
            $p->push(array_shift($chunks) ?? '');
            $outcome = $p->takeOutcome();

            return [$p->takeStreamSets(), $outcome !== null, $outcome instanceof MysqlException ? $outcome : null];
        });
        self::assertSame(2, \count($stream->restOfSet()));
        try {
            $stream->nextSet();
            self::fail('no error');
        } catch (MysqlException $e) {
            self::assertSame(1146, $e->errorCode);
        }
        self::assertTrue($stream->isComplete());
        self::assertNull($stream->nextSet(), 'thrown once');
    }

    public function testOfResultsHandsOutBufferedResults(): void
    {
        $stream = ResultStream::ofResults([new Result([], [[1], [2]]), new Result([], [], 5, 6)]);
        self::assertTrue($stream->isComplete());
        self::assertFalse($stream->isRead());
        self::assertSame([1], $stream->nextRow());
        self::assertSame([[2]], $stream->restOfSet());
        self::assertFalse($stream->isRead(), 'a further set is pending');
        self::assertTrue($stream->atSetEnd());
        self::assertSame(5, $stream->nextSet()?->summary?->affectedRows);
        self::assertTrue($stream->isRead());
        $stream->drain();
        self::assertNull($stream->current());
    }
}
