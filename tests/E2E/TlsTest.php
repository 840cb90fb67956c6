<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * HTTPS on Spindle's own listener (--tls-cert/--tls-key): HTTP/1.1 and HTTP/2 by ALPN with curl,
 * the app told the request is secure, the certificate chosen by SNI, a private key readable by
 * others refused, and handshakes that stall or are not TLS at all costing the other clients
 * nothing.
 */
final class TlsTest extends E2ETestCase
{
    private static string $dir = '';
    private static ?ServerProcess $server = null;

    public static function setUpBeforeClass(): void
    {
        self::$dir = \sys_get_temp_dir() . '/spindle-tls-' . \getmypid();
        @\mkdir(self::$dir);
        foreach (['a.test', 'b.test'] as $name) {
            $out = [];
            \exec(\sprintf(
                'openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj %s -addext %s -keyout %s -out %s 2>&1',
                \escapeshellarg('/CN=' . $name),
                \escapeshellarg('subjectAltName=DNS:' . $name . ',IP:127.0.0.1'),
                \escapeshellarg(self::$dir . "/$name.key"),
                \escapeshellarg(self::$dir . "/$name.pem"),
            ), $out, $code);
            self::assertSame(0, $code, \implode("\n", $out));
            \chmod(self::$dir . "/$name.key", 0o600);
        }
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
        self::removeTree(self::$dir);
        parent::tearDownAfterClass();
    }

    private static function server(): ServerProcess
    {
        return self::$server ??= ServerProcess::start(__DIR__ . '/../fixtures/apps/echo.php', [
            '--workers=1',
            '--tls-cert=' . self::$dir . '/a.test.pem', '--tls-key=' . self::$dir . '/a.test.key',
            '--tls-cert=' . self::$dir . '/b.test.pem', '--tls-key=' . self::$dir . '/b.test.key',
        ]);
    }

    public function testHttp11AndHttp2ByAlpnWithTheRequestMarkedSecure(): void
    {
        $url = 'https://127.0.0.1:' . self::server()->port() . '/secure?x=1';
        foreach (['--http1.1' => ['1.1', '1.1'], '--http2' => ['2', '2.0']] as $flag => [$wire, $protocol]) {
            $response = self::parseCurlResponse(self::curl(['-s', '-i', '-k', $flag, $url])['out']);
            self::assertSame(200, $response['status'], $flag);
            self::assertSame($wire, $response['protocol'], $flag);
            $seen = \json_decode($response['body'], true);
            self::assertIsArray($seen);
            self::assertSame($protocol, $seen['protocol']);
            self::assertSame('on', $seen['server']['HTTPS'] ?? null, 'HTTPS=on for the app');
            self::assertSame('https', $seen['server']['REQUEST_SCHEME'] ?? null);
        }
    }

    public function testTheCertificateIsChosenByServerName(): void
    {
        foreach (['a.test', 'b.test'] as $name) {
            $context = \stream_context_create(['ssl' => ['peer_name' => $name, 'verify_peer' => false, 'verify_peer_name' => false, 'capture_peer_cert' => true, 'SNI_enabled' => true]]);
            $client = \stream_socket_client('tls://127.0.0.1:' . self::server()->port(), $errno, $error, 5.0, \STREAM_CLIENT_CONNECT, $context);
            self::assertNotFalse($client, $error);
            $certificate = \stream_context_get_params($client)['options']['ssl']['peer_certificate'] ?? null;
            self::assertNotNull($certificate);
            self::assertSame($name, \openssl_x509_parse($certificate)['subject']['CN'] ?? null);
            \fclose($client);
        }
    }

    public function testStalledAndPlainTextHandshakesCostTheOthersNothing(): void
    {
        $port = self::server()->port();
        $stalled = [];
        for ($i = 0; $i < 20; ++$i) {
            $socket = \stream_socket_client('tcp://127.0.0.1:' . $port, $errno, $error, 5.0);
            self::assertNotFalse($socket);
            // The first bytes of a ClientHello, then nothing.
            \fwrite($socket, "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03");
            $stalled[] = $socket;
        }
        $plain = \stream_socket_client('tcp://127.0.0.1:' . $port, $errno, $error, 5.0);
        self::assertNotFalse($plain);
        \fwrite($plain, "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        $result = self::curl(['-s', '-k', '-o', '/dev/null', '-w', '%{http_code}', 'https://127.0.0.1:' . $port . '/beside'], 5.0);
        self::assertSame('200', $result['out']);
        self::assertLessThan(1.0, $result['seconds'], 'a request beside 20 stalled handshakes');
        \stream_set_timeout($plain, 5);
        self::assertSame('', (string) \fread($plain, 1024), 'plain HTTP on the TLS port gets no answer, only a close');
        foreach ([...$stalled, $plain] as $socket) {
            \fclose($socket);
        }
    }

    public function testAKeyReadableByOthersIsRefusedWithAClearMessage(): void
    {
        $key = self::$dir . '/open.key';
        \copy(self::$dir . '/a.test.key', $key);
        \chmod($key, 0o644);
        $output = [];
        \exec(\sprintf(
            '%s %s serve %s --port=0 --tls-cert=%s --tls-key=%s 2>&1',
            \escapeshellarg(\PHP_BINARY),
            \escapeshellarg(__DIR__ . '/../../bin/spindle'),
            \escapeshellarg(__DIR__ . '/../fixtures/apps/echo.php'),
            \escapeshellarg(self::$dir . '/a.test.pem'),
            \escapeshellarg($key),
        ), $output, $code);
        self::assertNotSame(0, $code);
        self::assertStringContainsString('is readable by every user (mode 644): make it private (chmod 600) first', \implode("\n", $output));
        self::assertStringNotContainsString('#0 ', \implode("\n", $output), 'no stack trace');
    }
}
