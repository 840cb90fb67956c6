<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Symfony\Session;

use PHPUnit\Framework\TestCase;
use Random\Engine\Mt19937;
use Random\Randomizer;
use Spindle\Bridge\Symfony\Session\SerializeHandler;
use Spindle\Bridge\Symfony\Session\SessionSerializer;

final class SessionSerializerTest extends TestCase
{
    /**
     * PHP code that sets $_SESSION: run by PHP's own session module in a child process, and
     * here, so that both encodings can be compared byte for byte.
     */
    private const DATA = <<<'PHP'
        $object = new \stdClass();
        $object->x = 1.5;
        $object->self = $object;
        $list = ['a' => 1];
        $_SESSION = [
            '_sf2_attributes' => ['user' => 'ada', 'none' => null, 'f' => -0.1, 't' => true, 'i' => -42],
            '_symfony_flashes' => ['notice' => ["It's done; {really} \"yes\"|"]],
            'object' => $object,
            'again' => $object,
            'list' => &$list,
            'same_list' => &$list,
            'bytes' => "\x00\xff|;:\"}",
            'array_object' => new \ArrayObject([1, 2]),
            'nested' => ['deep' => ['deeper' => [$object]]],
            '_sf2_meta' => ['u' => 1700000000, 'c' => 1700000000, 'l' => 0],
        ];
        PHP;

    public function testPhpFormatIsTheOneOfPhpsSessionModule(): void
    {
        $native = self::native('echo session_encode();');
        $data = self::data();
        self::assertSame($native, (new SessionSerializer(SerializeHandler::Php))->encode($data));
    }

    public function testPhpFormatReadsWhatPhpWroteWithItsReferences(): void
    {
        $decoded = (new SessionSerializer(SerializeHandler::Php))->decode(self::native('echo session_encode();'));
        self::assertSame(\serialize(self::data()), \serialize($decoded));
        self::assertSame($decoded['object'], $decoded['again']);
        self::assertSame($decoded['object'], $decoded['object']->self);
        self::assertSame($decoded['object'], $decoded['nested']['deep']['deeper'][0]);
        $decoded['list']['b'] = 2;
        self::assertSame(['a' => 1, 'b' => 2], $decoded['same_list'], 'a PHP reference stays a reference');
    }

    public function testPhpReadsWhatSpindleWrote(): void
    {
        $encoded = (new SessionSerializer(SerializeHandler::Php))->encode(self::data());
        $native = self::native('session_decode(base64_decode(' . \var_export(\base64_encode($encoded), true) . ')); echo serialize($_SESSION);', data: false);
        self::assertSame(\serialize(self::data()), $native);
    }

    public function testPhpSerializeFormat(): void
    {
        $serializer = new SessionSerializer(SerializeHandler::PhpSerialize);
        $native = self::native('echo session_encode();', ini: ['session.serialize_handler' => 'php_serialize']);
        self::assertSame($native, $serializer->encode(self::data()));
        self::assertSame(\serialize(self::data()), \serialize($serializer->decode($native)));
    }

    public function testEmptySessionIsEmptyBytes(): void
    {
        foreach ([SerializeHandler::Php, SerializeHandler::PhpSerialize] as $handler) {
            $serializer = new SessionSerializer($handler);
            self::assertSame('', $serializer->encode([]));
            self::assertSame([], $serializer->decode(''));
        }
    }

    public function testIntegerKeysAreLeftOutOfThePhpFormat(): void
    {
        $notices = [];
        \set_error_handler(static function (int $level, string $message) use (&$notices): bool {
            $notices[] = $message;

            return true;
        });
        try {
            $encoded = (new SessionSerializer(SerializeHandler::Php))->encode([5 => 'x', 'a|b' => 1, 'kept' => true]);
        } finally {
            \restore_error_handler();
        }
        self::assertSame('kept|b:1;', $encoded);
        self::assertCount(2, $notices);
    }

    public function testUnknownHandlerIsRefused(): void
    {
        $this->expectException(\LogicException::class);
        SerializeHandler::named('wddx');
    }

    public function testTruncatedOrGarbledDataRaisesOnlyTheDecodeError(): void
    {
        $serializer = new SessionSerializer(SerializeHandler::Php);
        $valid = $serializer->encode(self::data());
        for ($length = 1; $length < \strlen($valid); ++$length) {
            self::assertDecodeFailsCleanly($serializer, \substr($valid, 0, $length));
        }
        \mt_srand(5);
        for ($i = 0; $i < 300; ++$i) {
            $garbled = $valid;
            $garbled[\mt_rand(0, \strlen($valid) - 1)] = \chr(\mt_rand(0, 255));
            self::assertDecodeFailsCleanly($serializer, $garbled);
            self::assertDecodeFailsCleanly($serializer, (new Randomizer(new Mt19937(\mt_rand())))->getBytes(\mt_rand(1, 64)));
        }
    }

    private static function assertDecodeFailsCleanly(SessionSerializer $serializer, string $bytes): void
    {
        try {
            self::assertIsArray($serializer->decode($bytes));
        } catch (\UnexpectedValueException) {
            self::assertTrue(true);
        }
    }

    /** @return array<string, mixed> */
    private static function data(): array
    {
        $_SESSION = [];
        eval(self::DATA);
        $data = $_SESSION;
        unset($_SESSION);

        return $data;
    }

    /**
     * Runs $code in a PHP process with an active native session ($_SESSION set from DATA).
     *
     * @param array<string, string> $ini
     */
    private static function native(string $code, bool $data = true, array $ini = []): string
    {
        $directory = \sys_get_temp_dir() . '/spindle-session-test-' . \getmypid();
        @\mkdir($directory);
        $arguments = [\PHP_BINARY, '-n', '-d', 'session.save_path=' . $directory, '-d', 'session.use_cookies=0', '-d', 'session.cache_limiter='];
        foreach ($ini as $name => $value) {
            $arguments[] = '-d';
            $arguments[] = "{$name}={$value}";
        }
        $script = 'session_id("spindletestspindletest0001"); session_start(); ' . ($data ? self::DATA : '') . "\n" . $code . ' session_abort();';
        $process = \proc_open([...$arguments, '-r', $script], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        self::assertIsResource($process);
        $out = (string) \stream_get_contents($pipes[1]);
        $err = (string) \stream_get_contents($pipes[2]);
        \proc_close($process);
        @\rmdir($directory);
        self::assertSame('', $err);

        return $out;
    }
}
