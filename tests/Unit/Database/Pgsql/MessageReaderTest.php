<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pgsql;

use PHPUnit\Framework\TestCase;
use Random\Engine\Mt19937;
use Random\Randomizer;
use Spindle\Database\Pgsql\Protocol\Authentication;
use Spindle\Database\Pgsql\Protocol\BackendKeyData;
use Spindle\Database\Pgsql\Protocol\CommandComplete;
use Spindle\Database\Pgsql\Protocol\CopyData;
use Spindle\Database\Pgsql\Protocol\CopyResponse;
use Spindle\Database\Pgsql\Protocol\DataRow;
use Spindle\Database\Pgsql\Protocol\MessageReader;
use Spindle\Database\Pgsql\Protocol\MessageType;
use Spindle\Database\Pgsql\Protocol\NegotiateProtocolVersion;
use Spindle\Database\Pgsql\Protocol\Notification;
use Spindle\Database\Pgsql\Protocol\ParameterDescription;
use Spindle\Database\Pgsql\Protocol\ParameterStatus;
use Spindle\Database\Pgsql\Protocol\ProtocolError;
use Spindle\Database\Pgsql\Protocol\ReadyForQuery;
use Spindle\Database\Pgsql\Protocol\RowDescription;
use Spindle\Database\Pgsql\Protocol\ServerMessage;
use Spindle\Database\Pgsql\Protocol\Signal;
use Spindle\Database\Pgsql\Protocol\TransactionStatus;

final class MessageReaderTest extends TestCase
{
    /** A whole conversation's worth of backend messages, one of each kind. */
    private static function conversation(): string
    {
        return Backend::auth(10, "SCRAM-SHA-256\0SCRAM-SHA-256-PLUS\0\0")
            . Backend::auth(11, 'r=abc,s=c2FsdA==,i=4096')
            . Backend::auth(12, 'v=c2ln')
            . Backend::auth(0)
            . Backend::auth(5, "\x01\x02\x03\x04")
            . Backend::parameterStatus('server_version', '15.18')
            . Backend::keyData(4242, 0xDEADBEEF)
            . Backend::ready('I')
            . Backend::rowDescription([['id', 23], ['name', 25]])
            . Backend::dataRow(['1', 'one'])
            . Backend::dataRow([null, ''])
            . Backend::complete('SELECT 2')
            . Backend::message('1', '') . Backend::message('2', '') . Backend::message('3', '')
            . Backend::message('n', '') . Backend::message('I', '') . Backend::message('s', '')
            . Backend::message('t', pack('nNN', 2, 23, 25))
            . Backend::error(['S' => 'ERROR', 'V' => 'ERROR', 'C' => '42P01', 'M' => 'relation "x" does not exist', 'D' => 'a detail', 'H' => 'a hint', 'P' => '15'])
            . Backend::error(['S' => 'NOTICE', 'C' => '00000', 'M' => 'just so you know'], 'N')
            . Backend::message('A', pack('N', 77) . "chan\0payload\0")
            . Backend::message('G', "\0" . pack('nnn', 2, 0, 0))
            . Backend::message('H', "\1" . pack('nn', 1, 1))
            . Backend::message('d', "1\tone\n")
            . Backend::message('c', '')
            . Backend::message('v', pack('NN', 0, 1) . "_pq_.x\0")
            . Backend::ready('T')
            . Backend::ready('E');
    }

    /** @return list<object> */
    private static function decode(MessageReader $reader): array
    {
        $messages = [];
        while (($message = $reader->next()) !== null) {
            $messages[] = $message;
        }

        return $messages;
    }

    /** @param list<object> $messages */
    private static function assertConversation(array $messages): void
    {
        self::assertCount(28, $messages);
        [$sasl, $continue, $final, $ok, $md5, $status, $key, $ready] = $messages;
        self::assertInstanceOf(Authentication::class, $sasl);
        self::assertSame(Authentication::SASL, $sasl->code);
        self::assertSame(['SCRAM-SHA-256', 'SCRAM-SHA-256-PLUS'], $sasl->mechanisms());
        self::assertInstanceOf(Authentication::class, $continue);
        self::assertSame('r=abc,s=c2FsdA==,i=4096', $continue->data);
        self::assertInstanceOf(Authentication::class, $final);
        self::assertSame(Authentication::SASL_FINAL, $final->code);
        self::assertInstanceOf(Authentication::class, $ok);
        self::assertSame(Authentication::OK, $ok->code);
        self::assertInstanceOf(Authentication::class, $md5);
        self::assertSame("\x01\x02\x03\x04", $md5->data);
        self::assertEquals(new ParameterStatus('server_version', '15.18'), $status);
        self::assertEquals(new BackendKeyData(4242, 0xDEADBEEF), $key);
        self::assertEquals(new ReadyForQuery(TransactionStatus::Idle), $ready);

        $description = $messages[8];
        self::assertInstanceOf(RowDescription::class, $description);
        self::assertSame(['id', 'name'], array_map(static fn ($f) => $f->name, $description->fields));
        self::assertSame(23, $description->fields[0]->typeOid);
        self::assertSame(16384, $description->fields[0]->tableOid);
        self::assertSame(-1, $description->fields[0]->typeModifier);
        self::assertEquals(new DataRow(['1', 'one']), $messages[9]);
        self::assertEquals(new DataRow([null, '']), $messages[10]);
        $complete = $messages[11];
        self::assertInstanceOf(CommandComplete::class, $complete);
        self::assertSame(2, $complete->rows());
        self::assertSame('SELECT', $complete->command());
        $signals = array_map(static fn ($m) => $m instanceof Signal ? $m->type : null, \array_slice($messages, 12, 6));
        self::assertSame([MessageType::ParseComplete, MessageType::BindComplete, MessageType::CloseComplete, MessageType::NoData, MessageType::EmptyQueryResponse, MessageType::PortalSuspended], $signals);
        self::assertEquals(new ParameterDescription([23, 25]), $messages[18]);

        $error = $messages[19];
        self::assertInstanceOf(ServerMessage::class, $error);
        self::assertTrue($error->isError);
        self::assertSame('42P01', $error->sqlState());
        self::assertSame('relation "x" does not exist', $error->message());
        self::assertSame('a detail', $error->detail());
        self::assertSame('a hint', $error->hint());
        self::assertSame(15, $error->position());
        self::assertSame('ERROR', $error->severity());
        self::assertFalse($error->isFatal());
        $notice = $messages[20];
        self::assertInstanceOf(ServerMessage::class, $notice);
        self::assertFalse($notice->isError);
        self::assertNull($notice->position());

        self::assertEquals(new Notification(77, 'chan', 'payload'), $messages[21]);
        $copyIn = $messages[22];
        self::assertInstanceOf(CopyResponse::class, $copyIn);
        self::assertSame(MessageType::CopyInResponse, $copyIn->type);
        self::assertSame([0, 0], $copyIn->columnFormats);
        $copyOut = $messages[23];
        self::assertInstanceOf(CopyResponse::class, $copyOut);
        self::assertSame(1, $copyOut->format);
        self::assertEquals(new CopyData("1\tone\n"), $messages[24]);
        self::assertEquals(new Signal(MessageType::CopyDone), $messages[25]);
        self::assertEquals(new NegotiateProtocolVersion(0, ['_pq_.x']), $messages[26]);
        self::assertEquals(new ReadyForQuery(TransactionStatus::InTransaction), $messages[27]);
    }

    public function testWholeConversation(): void
    {
        $reader = new MessageReader();
        $bytes = self::conversation();
        $reader->push($bytes . Backend::ready('E'));
        $messages = self::decode($reader);
        self::assertEquals(new ReadyForQuery(TransactionStatus::Failed), array_pop($messages));
        self::assertConversation(\array_slice($messages, 0, 28));
        self::assertSame(0, $reader->buffered());
    }

    public function testByteByByte(): void
    {
        $reader = new MessageReader();
        $messages = [];
        foreach (str_split(self::conversation()) as $byte) {
            $reader->push($byte);
            array_push($messages, ...self::decode($reader));
        }
        self::assertConversation(\array_slice($messages, 0, 28));
    }

    public function testRandomSplits(): void
    {
        $bytes = self::conversation();
        mt_srand(25);
        for ($round = 0; $round < 200; ++$round) {
            $reader = new MessageReader();
            $messages = [];
            $offset = 0;
            while ($offset < \strlen($bytes)) {
                $size = mt_rand(1, 64);
                $reader->push(substr($bytes, $offset, $size));
                $offset += $size;
                array_push($messages, ...self::decode($reader));
            }
            self::assertConversation(\array_slice($messages, 0, 28));
        }
    }

    public function testLargeRowAcrossManyPushes(): void
    {
        $value = (new Randomizer(new Mt19937(300)))->getBytes(300000);
        $bytes = Backend::dataRow([$value, null, 'x']);
        $reader = new MessageReader();
        foreach (str_split($bytes, 8192) as $chunk) {
            self::assertNull($reader->next());
            $reader->push($chunk);
        }
        self::assertEquals(new DataRow([$value, null, 'x']), $reader->next());
    }

    public function testSslAnswer(): void
    {
        $reader = new MessageReader();
        self::assertNull($reader->sslAnswer());
        $reader->push('S');
        self::assertTrue($reader->sslAnswer());
        $reader->push('N');
        self::assertFalse($reader->sslAnswer());
        $reader->push('X');
        $this->expectException(ProtocolError::class);
        $reader->sslAnswer();
    }

    /** @return iterable<string, array{string, string}> */
    public static function garbage(): iterable
    {
        yield 'unknown type' => ['?' . pack('N', 4), 'Unknown message type'];
        yield 'length below 4' => ['Z' . pack('N', 3), 'length 3'];
        yield 'huge length' => ['D' . pack('N', 0x7FFFFFFF), 'length'];
        yield 'ready without status' => [Backend::message('Z', ''), 'ReadyForQuery'];
        yield 'bad status' => [Backend::message('Z', 'Q'), 'transaction status'];
        yield 'row value past end' => [Backend::message('D', pack('nN', 1, 100) . 'ab'), 'DataRow'];
        yield 'row bytes left' => [Backend::message('D', pack('nN', 1, 1) . 'abc'), 'DataRow'];
        yield 'row too short' => [Backend::message('D', "\0"), 'DataRow'];
        yield 'unterminated string' => [Backend::message('S', "name\0value"), 'unterminated'];
        yield 'key data leftovers' => [Backend::message('K', str_repeat("\0", 9)), 'left over'];
        yield 'error unterminated' => [Backend::message('E', 'Mboom'), 'ErrorResponse'];
        yield 'description short' => [Backend::message('T', pack('n', 1) . "a\0"), 'RowDescription'];
        yield 'description leftovers' => [substr(Backend::rowDescription([['id', 23]]), 0, 1) . pack('N', \strlen(Backend::rowDescription([['id', 23]])) - 1 + 2) . substr(Backend::rowDescription([['id', 23]]), 5) . 'xx', 'left over'];
        yield 'signal with a body' => [Backend::message('1', 'x'), 'left over'];
        yield 'ready with two bytes' => [Backend::message('Z', 'II'), 'left over'];
        yield 'tag unterminated' => [Backend::message('C', 'SELECT 1'), 'unterminated'];
        yield 'tag with bytes after its end' => [Backend::message('C', "SELECT 1\0x"), 'left over'];
        yield 'empty tag body' => [Backend::message('C', ''), 'unterminated'];
    }

    public function testTheSameDescriptionIsDecodedOnceAndADifferentOneAfresh(): void
    {
        $reader = new MessageReader();
        $reader->push(Backend::rowDescription([['id', 23], ['name', 25]]) . Backend::rowDescription([['id', 23], ['name', 25]]) . Backend::rowDescription([['id', 20], ['name', 25]]));
        $first = $reader->next();
        $again = $reader->next();
        $other = $reader->next();
        self::assertInstanceOf(RowDescription::class, $first);
        self::assertSame($first, $again);
        self::assertInstanceOf(RowDescription::class, $other);
        self::assertNotSame($first, $other);
        self::assertSame([23, 25], array_map(static fn ($field): int => $field->typeOid, $first->fields));
        self::assertSame([20, 25], array_map(static fn ($field): int => $field->typeOid, $other->fields));
        // Beyond the remembered number, descriptions are still right.
        for ($i = 0; $i < 100; ++$i) {
            $reader->push(Backend::rowDescription([['c' . $i, 23]]));
            $description = $reader->next();
            self::assertInstanceOf(RowDescription::class, $description);
            self::assertSame('c' . $i, $description->fields[0]->name);
        }
    }

    /** @dataProvider garbage */
    public function testGarbageGivesAClearError(string $bytes, string $expected): void
    {
        $reader = new MessageReader();
        $reader->push($bytes);
        try {
            while ($reader->next() !== null) {
            }
            self::fail('no ProtocolError');
        } catch (ProtocolError $e) {
            self::assertStringContainsString($expected, $e->getMessage());
        }
    }

    public function testRandomGarbageNeverHangsOrCrashes(): void
    {
        mt_srand(7);
        $valid = self::conversation();
        for ($round = 0; $round < 500; ++$round) {
            $bytes = $valid;
            // Flip a few random bytes of a valid stream, or feed pure noise.
            if ($round % 2 === 0) {
                for ($i = 0; $i < 3; ++$i) {
                    $at = mt_rand(0, \strlen($bytes) - 1);
                    $bytes[$at] = \chr(mt_rand(0, 255));
                }
            } else {
                $bytes = (new Randomizer(new Mt19937(mt_rand())))->getBytes(mt_rand(1, 400));
            }
            $reader = new MessageReader();
            $reader->push($bytes);
            $count = 0;
            try {
                while ($reader->next() !== null) {
                    ++$count;
                    self::assertLessThan(1000, $count);
                }
            } catch (ProtocolError) {
            }
            // Either an error, or it waits for more bytes with what it holds bounded by the input.
            self::assertLessThanOrEqual(\strlen($bytes), $reader->buffered());
        }
    }

    /**
     * Messages the way Session reads them: runs of DataRow through dataRows(), the rest through
     * next(); rows are appended to $rows, other messages to $messages.
     *
     * @param array<int, int>                  $kinds
     * @param list<list<string|int|bool|null>> $rows
     * @param list<object>                     $messages
     */
    private static function drain(MessageReader $reader, array $kinds, array &$rows, array &$messages): void
    {
        while (true) {
            if ($reader->dataRows($rows, $kinds) > 0) {
                continue;
            }
            $message = $reader->next();
            if ($message === null) {
                return;
            }
            if ($message instanceof DataRow) {
                $rows[] = $message->values;
                continue;
            }
            $messages[] = $message;
        }
    }

    public function testDataRowsDecodeAsNextDoesAtRandomSplits(): void
    {
        mt_srand(11);
        $stream = Backend::rowDescription([['id', 23], ['flag', 16], ['name', 25]]);
        $expected = [];
        for ($i = 0; $i < 300; ++$i) {
            $name = match ($i % 4) {
                0 => null,
                1 => '',
                2 => str_repeat('x', 256 + $i),   // a length past one byte
                default => "name $i",
            };
            $row = [(string) ($i - 150), $i % 3 === 0 ? null : ($i % 2 === 0 ? 't' : 'f'), $name];
            $stream .= Backend::dataRow($row);
            $expected[] = [$i - 150, $row[1] === null ? null : $row[1] === 't', $name];
        }
        $stream .= Backend::complete('SELECT 300') . Backend::ready('I');
        $kinds = [0 => MessageReader::AS_INT, 1 => MessageReader::AS_BOOL];

        for ($round = 0; $round < 20; ++$round) {
            $reader = new MessageReader();
            $rows = [];
            $messages = [];
            for ($at = 0; $at < \strlen($stream);) {
                $piece = $round === 0 ? 1 : mt_rand(1, 700);
                $reader->push(substr($stream, $at, $piece));
                $at += $piece;
                self::drain($reader, $kinds, $rows, $messages);
            }
            self::assertSame($expected, $rows);
            self::assertCount(3, $messages);
            self::assertInstanceOf(RowDescription::class, $messages[0]);
            self::assertInstanceOf(CommandComplete::class, $messages[1]);
            self::assertInstanceOf(ReadyForQuery::class, $messages[2]);
            self::assertSame(0, $reader->buffered());
        }

        // Without kinds the values stay the text the server sent.
        $reader = new MessageReader();
        $reader->push(Backend::dataRow(['1', 't', null]));
        $rows = [];
        self::assertSame(1, $reader->dataRows($rows));
        self::assertSame([['1', 't', null]], $rows);
    }

    /** @dataProvider garbage */
    public function testGarbageThroughDataRowsGivesTheSameError(string $bytes, string $expected): void
    {
        $reader = new MessageReader();
        $reader->push($bytes);
        $rows = [];
        $messages = [];
        try {
            self::drain($reader, [0 => MessageReader::AS_INT], $rows, $messages);
            self::fail('no ProtocolError');
        } catch (ProtocolError $e) {
            self::assertStringContainsString($expected, $e->getMessage());
        }
    }

    public function testRandomGarbageThroughDataRowsNeverHangsOrCrashes(): void
    {
        mt_srand(13);
        $valid = Backend::rowDescription([['id', 23]]) . Backend::dataRow(['1']) . Backend::dataRow([null]) . Backend::dataRow(['300']) . Backend::complete('SELECT 3');
        for ($round = 0; $round < 500; ++$round) {
            $bytes = $valid;
            for ($i = 0; $i < 3; ++$i) {
                $at = mt_rand(0, \strlen($bytes) - 1);
                $bytes[$at] = \chr(mt_rand(0, 255));
            }
            $reader = new MessageReader();
            $reader->push($bytes);
            $rows = [];
            $messages = [];
            try {
                self::drain($reader, [0 => MessageReader::AS_INT], $rows, $messages);
            } catch (ProtocolError) {
            }
            self::assertLessThanOrEqual(\strlen($bytes), $reader->buffered());
            self::assertLessThan(1000, \count($rows) + \count($messages));
        }
    }
}
