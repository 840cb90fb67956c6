<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Redis;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Redis\ConnectionException;
use Spindle\Redis\RedisClient;
use Spindle\Redis\RedisConfig;

/**
 * rediss:// against a redis-server listening with TLS only, on a certificate made for the test.
 *
 * @requires extension openssl
 */
final class TlsTest extends TestCase
{
    private static ?RedisServer $server = null;
    private static string $directory = '';
    private static int $port = 0;

    public static function setUpBeforeClass(): void
    {
        self::$directory = sys_get_temp_dir() . '/spindle-redis-tls-' . bin2hex(random_bytes(4));
        mkdir(self::$directory);
        $key = openssl_pkey_new(['private_key_bits' => 2048, 'private_key_type' => OPENSSL_KEYTYPE_RSA]);
        self::assertNotFalse($key);
        $csr = openssl_csr_new(['commonName' => '127.0.0.1'], $key, ['digest_alg' => 'sha256']);
        self::assertNotFalse($csr);
        $certificate = openssl_csr_sign($csr, null, $key, 1, ['digest_alg' => 'sha256']);
        self::assertNotFalse($certificate);
        openssl_x509_export_to_file($certificate, self::$directory . '/cert.pem');
        openssl_pkey_export_to_file($key, self::$directory . '/key.pem');
        $probe = stream_socket_server('tcp://127.0.0.1:0');
        self::assertNotFalse($probe);
        $name = (string) stream_socket_get_name($probe, false);
        fclose($probe);
        self::$port = (int) substr($name, strrpos($name, ':') + 1);
        self::$server = RedisServer::start(['--port', '0', '--tls-port', (string) self::$port,
            '--tls-cert-file', self::$directory . '/cert.pem', '--tls-key-file', self::$directory . '/key.pem',
            '--tls-ca-cert-file', self::$directory . '/cert.pem', '--tls-auth-clients', 'no']);
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
        foreach (glob(self::$directory . '/*') ?: [] as $file) {
            unlink($file);
        }
        @rmdir(self::$directory);
    }

    public function testCommandsOverTlsFromManyFibers(): void
    {
        $client = new RedisClient(RedisConfig::fromArray([
            'url' => 'rediss://127.0.0.1:' . self::$port . '/2?name=tls-client',
            'ssl' => ['cafile' => self::$directory . '/cert.pem', 'verify_peer' => true],
        ]));
        $value = random_bytes(300000);
        $results = [];
        for ($i = 0; $i < 10; ++$i) {
            EventLoop::queue(static function () use ($client, $value, $i, &$results): void {
                $client->execute('SET', 'k' . $i, $value . $i);
                $results[$i] = $client->execute('GET', 'k' . $i) === $value . $i;
            });
        }
        EventLoop::run();
        self::assertSame(array_fill(0, 10, true), $results);
        self::assertSame('tls-client', $client->execute('CLIENT', 'GETNAME'));
        self::assertNull($client->execute('BLPOP', 'nothing', '0.1'));
    }

    public function testUntrustedCertificateIsRefused(): void
    {
        $client = RedisClient::fromUrl('rediss://127.0.0.1:' . self::$port);
        $this->expectException(ConnectionException::class);
        $this->expectExceptionMessage('TLS handshake with Redis server 127.0.0.1:' . self::$port . ' failed');
        $client->execute('PING');
    }
}
