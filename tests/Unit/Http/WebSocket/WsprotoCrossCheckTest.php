<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\WebSocket;

use PHPUnit\Framework\TestCase;
use Spindle\Http\WebSocket\ClientHandshake;
use Spindle\Http\WebSocket\Event;
use Spindle\Http\WebSocket\EventType;
use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Http\WebSocket\FrameParser;
use Spindle\Http\WebSocket\OriginPolicy;
use Spindle\Http\WebSocket\PerMessageDeflate;
use Spindle\Http\WebSocket\ServerHandshake;
use Spindle\Http\WebSocket\SessionState;
use Spindle\Http\WebSocket\WebSocketLimits;
use Spindle\Http\WebSocket\WebSocketSession;

/**
 * Spindle's codec against an independent one, Debian's python3-wsproto
 * (tests/Support/WebSocket/wsproto-peer.py, run as a subprocess): wsproto's client handshake
 * and frames into Spindle's server side, Spindle's answers back into wsproto; then Spindle's
 * client handshake and masked frames into wsproto's server side.
 */
final class WsprotoCrossCheckTest extends TestCase
{
    private const SEED = 1455;

    /** @var resource|null */
    private $process;
    /** @var array<int, resource> */
    private array $pipes = [];

    protected function tearDown(): void
    {
        foreach ($this->pipes as $pipe) {
            \fclose($pipe);
        }
        if ($this->process !== null) {
            \proc_close($this->process);
        }
    }

    public function testWsprotosClientAgainstSpindlesServerSide(): void
    {
        $this->converse(false);
    }

    public function testWsprotosClientAgainstSpindlesServerSideWithPermessageDeflate(): void
    {
        $this->converse(true);
    }

    private function converse(bool $deflate): void
    {
        $this->start('client', $deflate ? ['deflate'] : []);
        $request = (string) \hex2bin($this->hear()['request']);
        [$head] = \explode("\r\n\r\n", $request, 2);
        $lines = \explode("\r\n", $head);
        if (\preg_match('~^(\S+) (\S+) HTTP/(\d\.\d)$~', $lines[0], $line) !== 1) {
            self::fail('Not a request line: ' . $lines[0]);
        }
        $headers = [];
        foreach (\array_slice($lines, 1) as $headerLine) {
            [$name, $value] = \explode(':', $headerLine, 2);
            $headers[\strtolower($name)][] = \trim($value);
        }
        $result = (new ServerHandshake(['v2.chat', 'v1.chat'], new OriginPolicy(['https://app.example.com']), $deflate ? new PerMessageDeflate() : null))->evaluate($line[1], $line[3], $headers);
        self::assertSame($deflate, $result->deflate !== null);
        self::assertTrue($result->isAccepted(), $result->reason);
        $response = "HTTP/1.1 101 Switching Protocols\r\n";
        foreach ($result->headers as $name => $value) {
            $response .= "{$name}: {$value}\r\n";
        }
        $this->say(['response' => \bin2hex($response . "\r\n")]);
        $accepted = $this->hear();
        self::assertSame('v2.chat', $accepted['subprotocol'], "wsproto accepted Spindle's 101");
        self::assertSame($deflate ? ['<PerMessageDeflate client_max_window_bits=15; client_no_context_takeover; server_max_window_bits=15; server_no_context_takeover>'] : [], $accepted['extensions']);

        $conversation = $this->hear();
        $frames = (string) \hex2bin($conversation['frames']);
        // The echo server: messages back as they came, cut into 1000-byte frames; a ping of its own.
        $session = new WebSocketSession(new WebSocketLimits(outgoingFragmentBytes: 1000), null, $result->deflate);
        $session->ping('server ping');
        $events = [];
        \mt_srand(self::SEED);
        for ($offset = 0; $offset < \strlen($frames);) {
            $length = \mt_rand(1, 3000);
            foreach ($session->receive(\substr($frames, $offset, $length)) as $event) {
                $events[] = $event;
                if ($event->type === EventType::Text) {
                    $session->sendText($event->payload);
                } elseif ($event->type === EventType::Binary) {
                    $session->sendBinary($event->payload);
                }
            }
            $offset += $length;
        }
        self::assertNull($session->error());
        self::assertSame(self::short($conversation['expected']), self::short(\array_map(self::plain(...), $events)), \sprintf('what Spindle parsed from wsproto (seed %d)', self::SEED));
        // 70,000 bytes of repeated ASCII went each way: compressed, far fewer bytes on the wire.
        $counters = $session->counters();
        self::assertSame($deflate, $counters->bytesIn < 20_000, 'bytes in: ' . $counters->bytesIn);
        self::assertSame($deflate, $counters->bytesOut < 20_000, 'bytes out: ' . $counters->bytesOut);
        $this->say(['server' => \bin2hex($session->takeOutput())]);
        self::assertSame(SessionState::Closed, $session->state());
        // The ping is answered as soon as it is parsed: its pong may overtake the echo of a message
        // that came in the same read. So the pongs are compared apart from the rest.
        $expected = [['type' => 'Ping', 'hex' => \bin2hex('server ping')]];
        $pongs = [];
        foreach ($conversation['expected'] as $event) {
            if ($event['type'] === 'Ping') {
                $pongs[] = ['type' => 'Pong', 'hex' => $event['hex']];
            } else {
                $expected[] = $event['type'] === 'Close' ? ['type' => 'Close', 'hex' => '', 'code' => 1000] : $event;
            }
        }
        $decoded = $this->hear()['events'];
        self::assertIsArray($decoded);
        $isPong = static fn (array $e): bool => $e['type'] === 'Pong';
        self::assertSame(self::short($expected), self::short(\array_values(\array_filter($decoded, static fn (array $e): bool => !$isPong($e)))), "what wsproto decoded from Spindle's frames");
        self::assertSame($pongs, \array_values(\array_filter($decoded, $isPong)));
    }

    /**
     * The same bytes into Spindle's server-side parser and into wsproto's: the listed valid and
     * invalid inputs of FrameParserTest (those without a limit of their own) and seeded random
     * frames (any opcode, RSV bits now and then, unmasked now and then, random payloads, close
     * codes from 0 to 5100, UTF-8 cut short). Both must give the same messages and control
     * frames up to the first close, and fail with the same close code, or both not fail. One
     * difference is deliberate: wsproto refuses a length in a longer form than needed with 1002,
     * Spindle accepts it (docs/websocket.md, "Non-minimal lengths").
     */
    public function testSpindleAndWsprotoAgreeOnWhatIsValidAndOnTheCloseCode(): void
    {
        $this->start('decode');
        $inputs = [];
        foreach ([...FrameParserTest::validInputs(), ...FrameParserTest::invalidInputs()] as $name => $case) {
            if (\is_string($case[0])) {
                $inputs[$name] = $case[0];
            }
        }
        \mt_srand(self::SEED);
        for ($round = 0; $round < 2000; ++$round) {
            $input = '';
            for ($i = \mt_rand(1, 4); $i > 0; --$i) {
                $payload = match (\mt_rand(0, 3)) {
                    0 => FrameParserTest::bytes(\mt_rand(0, 130)),
                    1 => "\x03\xe8ok",
                    2 => \pack('n', \mt_rand(0, 5100)) . FrameParserTest::bytes(\mt_rand(0, 3)),
                    default => "h\xc3\xa9llo\xe2\x82",
                };
                $opcode = [0, 1, 2, 8, 9, 10, \mt_rand(0, 15)][\mt_rand(0, 6)];
                $input .= FrameEncoder::frame($opcode, $payload, \mt_rand(0, 3) > 0, \mt_rand(0, 9) > 0 ? "\x01\x02\x03\x04" : null, \mt_rand(0, 9) === 0 ? \mt_rand(1, 7) : 0);
            }
            $inputs[\sprintf('random %d (seed %d)', $round, self::SEED)] = $input;
        }
        $errors = 0;
        foreach ($inputs as $name => $input) {
            $parser = FrameParser::forServer();
            $events = \array_map(
                static fn (Event $e): array => $e->type === EventType::Close ? [$e->type->name, \bin2hex($e->payload), $e->closeCode] : [$e->type->name, \bin2hex($e->payload)],
                $parser->push($input),
            );
            $code = $parser->error()?->closeCode->value;
            $errors += $code === null ? 0 : 1;
            $this->say(['hex' => \bin2hex($input)]);
            $theirs = $this->hear();
            if ($name === 'non-minimal 16-bit and 64-bit lengths are accepted') {
                self::assertSame(1002, $theirs['code'], 'wsproto refuses non-minimal lengths');
                self::assertNull($code);
                continue;
            }
            self::assertSame(['events' => $events, 'code' => $code], $theirs, $name . ': ' . \bin2hex($input));
        }
        self::assertGreaterThan(500, $errors, 'the random frames include many invalid ones');
    }

    public function testSpindlesClientSideAgainstWsprotosServer(): void
    {
        $this->start('server');
        $client = new ClientHandshake('127.0.0.1:8080', '/socket', ['v1.chat', 'v2.chat']);
        $this->say(['request' => \bin2hex($client->request())]);
        $answer = $this->hear();
        self::assertSame('/socket', $answer['target']);
        self::assertSame(['v1.chat', 'v2.chat'], $answer['subprotocols']);
        [$status, $headers] = ClientHandshake::parseResponseHead(\explode("\r\n\r\n", (string) \hex2bin($answer['response']))[0]);
        self::assertSame('v2.chat', $client->validate($status, $headers));

        $mask = static fn (): string => \random_bytes(4);
        $frames = FrameEncoder::message(false, 'cut ✓ in pieces', 3, $mask())
            . FrameEncoder::message(true, \str_repeat("\x80", 70000), 0, $mask())
            . FrameEncoder::frame(9, 'p', true, $mask())
            . FrameEncoder::close(4001, 'done', $mask());
        $this->say(['frames' => \bin2hex($frames)]);
        self::assertSame(['events' => [
            ['type' => 'Text', 'hex' => \bin2hex('cut ✓ in pieces')],
            ['type' => 'Binary', 'hex' => \str_repeat('80', 70000)],
            ['type' => 'Ping', 'hex' => \bin2hex('p')],
            ['type' => 'Close', 'hex' => \bin2hex('done'), 'code' => 4001],
        ]], $this->hear());
    }

    /**
     * Events with long payloads shortened to their length and digest, for readable failures.
     *
     * @param mixed $events
     *
     * @return list<array<string, mixed>>
     */
    private static function short(mixed $events): array
    {
        self::assertIsArray($events);
        $short = [];
        foreach ($events as $event) {
            self::assertIsArray($event);
            $hex = $event['hex'] ?? '';
            self::assertIsString($hex);
            if (\strlen($hex) > 200) {
                $event['hex'] = \sprintf('%d bytes, sha1 %s', \strlen($hex) / 2, \sha1($hex));
            }
            $short[] = $event;
        }

        return $short;
    }

    /** @return array<string, mixed> */
    private static function plain(Event $event): array
    {
        $plain = ['type' => $event->type->name, 'hex' => \bin2hex($event->payload)];
        if ($event->type === EventType::Close) {
            $plain['code'] = $event->closeCode;
        }

        return $plain;
    }

    /** @param list<string> $arguments */
    private function start(string $mode, array $arguments = []): void
    {
        $python = \is_executable('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
        $script = \dirname(__DIR__, 4) . '/tests/Support/WebSocket/wsproto-peer.py';
        $process = \proc_open([$python, $script, $mode, ...$arguments], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        self::assertIsResource($process);
        $this->process = $process;
        $this->pipes = $pipes;
    }

    /** @param array<string, mixed> $message */
    private function say(array $message): void
    {
        \fwrite($this->pipes[0], \json_encode($message, \JSON_THROW_ON_ERROR) . "\n");
        \fflush($this->pipes[0]);
    }

    /**
     * @return array<string, mixed>
     *
     * @phpstan-impure
     */
    private function hear(): array
    {
        $line = \fgets($this->pipes[1]);
        if ($line === false) {
            self::fail('wsproto-peer.py ended: ' . \stream_get_contents($this->pipes[2]) . ' (python3-wsproto is installed by scripts/test)');
        }
        $message = \json_decode($line, true, 512, \JSON_THROW_ON_ERROR);
        self::assertIsArray($message);
        if (isset($message['error'])) {
            self::fail('wsproto: ' . $message['error']);
        }

        return $message;
    }
}
