<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\Protocol\Auth;
use Spindle\Database\Mysql\Protocol\Capability;
use Spindle\Database\Mysql\Protocol\ClientProtocol;
use Spindle\Database\Mysql\Protocol\Phase;

final class ClientProtocolConnectTest extends TestCase
{
    private const NONCE = 'abcdefghijklmnopqrst';

    public function testMariaDbNativePasswordHandshake(): void
    {
        $p = new ClientProtocol(new ConnectionConfig(user: 'spindle', password: 'spindle', database: 'spindle_test'));
        self::assertSame(Phase::AwaitingHandshake, $p->phase());
        $p->push((string) hex2bin(Wire::MARIADB_HANDSHAKE_HEX));
        self::assertSame(Phase::Authenticating, $p->phase());

        $out = $p->takeOutgoing();
        self::assertSame(1, \ord($out[3]), 'the handshake response carries sequence id 1');
        $r = self::parseResponse(substr($out, 4));
        self::assertSame(\strlen($out) - 4, \ord($out[0]) | \ord($out[1]) << 8 | \ord($out[2]) << 16);
        foreach ([Capability::PROTOCOL_41, Capability::SECURE_CONNECTION, Capability::PLUGIN_AUTH, Capability::CONNECT_WITH_DB, Capability::MULTI_RESULTS, Capability::DEPRECATE_EOF, Capability::PLUGIN_AUTH_LENENC_CLIENT_DATA] as $flag) {
            self::assertNotSame(0, $r['caps'] & $flag, sprintf('capability 0x%X', $flag));
        }
        self::assertSame(0, $r['caps'] & Capability::SSL);
        self::assertSame(0, $r['caps'] & Capability::LOCAL_FILES);
        self::assertSame(45, $r['charset']);
        self::assertSame('spindle', $r['user']);
        self::assertSame(Wire::expectedNative('spindle', Wire::MARIADB_NONCE), $r['auth']);
        self::assertSame('spindle_test', $r['database']);
        self::assertSame('mysql_native_password', $r['plugin']);

        $p->push(Wire::packet(Wire::ok(), 2));
        self::assertSame(Phase::Ready, $p->phase());
        self::assertTrue($p->takeOutcome());
        self::assertSame('10.11.19-MariaDB-0+deb12u1', $p->handshake()?->displayVersion());
    }

    public function testCollationIdAndLocalInfileCapability(): void
    {
        $p = new ClientProtocol(new ConnectionConfig(user: 'u', collation: 'utf8mb4_unicode_ci', allowLocalInfile: true));
        $p->push((string) hex2bin(Wire::MARIADB_HANDSHAKE_HEX));
        $r = self::parseResponse(substr($p->takeOutgoing(), 4));
        self::assertSame(224, $r['charset']);
        self::assertNotSame(0, $r['caps'] & Capability::LOCAL_FILES);
        self::assertSame(0, $r['caps'] & Capability::CONNECT_WITH_DB);
        self::assertNull($r['database']);
    }

    public function testAuthSwitchRequest(): void
    {
        $p = new ClientProtocol(new ConnectionConfig(user: 'u', password: 'pw'));
        $p->push(Wire::packet(Wire::mysql8Handshake(self::NONCE), 0));
        $r = self::parseResponse(substr($p->takeOutgoing(), 4));
        self::assertSame('caching_sha2_password', $r['plugin']);
        self::assertSame(Wire::expectedSha2('pw', self::NONCE), $r['auth']);

        $newNonce = 'ZYXWVUTSRQPONMLKJIHG';
        $p->push(Wire::packet("\xFE" . "mysql_native_password\0" . $newNonce . "\0", 2));
        $out = $p->takeOutgoing();
        self::assertSame(Wire::packet(Wire::expectedNative('pw', $newNonce), 3), $out);
        $p->push(Wire::packet(Wire::ok(), 4));
        self::assertSame(Phase::Ready, $p->phase());
    }

    public function testAuthSwitchToAnUnknownPluginFails(): void
    {
        $p = new ClientProtocol(new ConnectionConfig(user: 'u', password: 'pw'));
        $p->push((string) hex2bin(Wire::MARIADB_HANDSHAKE_HEX));
        $p->takeOutgoing();
        try {
            $p->push(Wire::packet("\xFE" . "client_ed25519\0" . self::NONCE . "\0", 2));
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertSame(2059, $e->errorCode);
        }
        self::assertSame(Phase::Broken, $p->phase());
    }

    public function testClearPasswordIsRefusedWithoutTls(): void
    {
        $p = new ClientProtocol(new ConnectionConfig(user: 'u', password: 'pw'));
        $p->push((string) hex2bin(Wire::MARIADB_HANDSHAKE_HEX));
        $p->takeOutgoing();
        $this->expectException(MysqlException::class);
        $p->push(Wire::packet("\xFE" . "mysql_clear_password\0", 2));
    }

    public function testAccessDenied(): void
    {
        $p = new ClientProtocol(new ConnectionConfig(user: 'u', password: 'wrong'));
        $p->push((string) hex2bin(Wire::MARIADB_HANDSHAKE_HEX));
        try {
            $p->push(Wire::packet(Wire::err(1045, '28000', "Access denied for user 'u'@'localhost' (using password: YES)"), 2));
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertSame(1045, $e->errorCode);
            self::assertSame('28000', $e->sqlState);
        }
    }

    public function testErrInsteadOfHandshake(): void
    {
        $p = new ClientProtocol(new ConnectionConfig());
        try {
            $p->push(Wire::packet("\xFF\x10\x04Too many connections", 0));
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertSame(1040, $e->errorCode);
        }
    }

    public function testCachingSha2FastAuth(): void
    {
        $p = new ClientProtocol(new ConnectionConfig(user: 'u', password: 'secret'));
        $p->push(Wire::packet(Wire::mysql8Handshake(self::NONCE), 0));
        $r = self::parseResponse(substr($p->takeOutgoing(), 4));
        self::assertSame(Wire::expectedSha2('secret', self::NONCE), $r['auth']);
        $p->push(Wire::packet("\x01\x03", 2));
        self::assertSame('', $p->takeOutgoing());
        self::assertSame(Phase::Authenticating, $p->phase());
        $p->push(Wire::packet(Wire::ok(), 3));
        self::assertSame(Phase::Ready, $p->phase());
    }

    public function testCachingSha2FullAuthRequestsTheKeyAndSendsRsa(): void
    {
        [$private, $public] = self::keyPair();
        $p = new ClientProtocol(new ConnectionConfig(user: 'u', password: 'secret'));
        $p->push(Wire::packet(Wire::mysql8Handshake(self::NONCE), 0));
        $p->takeOutgoing();
        $p->push(Wire::packet("\x01\x04", 2));
        self::assertSame(Wire::packet("\x02", 3), $p->takeOutgoing());
        $p->push(Wire::packet("\x01" . $public, 4));
        $out = $p->takeOutgoing();
        self::assertSame(5, \ord($out[3]));
        self::assertTrue(openssl_private_decrypt(substr($out, 4), $plain, $private, OPENSSL_PKCS1_OAEP_PADDING));
        self::assertSame(Auth::xorWithNonce('secret', self::NONCE), $plain);
        $p->push(Wire::packet(Wire::ok(), 6));
        self::assertSame(Phase::Ready, $p->phase());
    }

    public function testCachingSha2FullAuthWithAConfiguredKey(): void
    {
        [$private, $public] = self::keyPair();
        $p = new ClientProtocol(new ConnectionConfig(user: 'u', password: 'secret', serverPublicKey: $public));
        $p->push(Wire::packet(Wire::mysql8Handshake(self::NONCE), 0));
        $p->takeOutgoing();
        $p->push(Wire::packet("\x01\x04", 2));
        $out = $p->takeOutgoing();
        self::assertTrue(openssl_private_decrypt(substr($out, 4), $plain, $private, OPENSSL_PKCS1_OAEP_PADDING));
        self::assertSame(Auth::xorWithNonce('secret', self::NONCE), $plain);
    }

    public function testCachingSha2FullAuthOnAUnixSocketSendsTheCleartextPassword(): void
    {
        $p = new ClientProtocol(new ConnectionConfig(user: 'u', password: 'secret'), secureTransport: true);
        $p->push(Wire::packet(Wire::mysql8Handshake(self::NONCE), 0));
        $p->takeOutgoing();
        $p->push(Wire::packet("\x01\x04", 2));
        self::assertSame(Wire::packet("secret\0", 3), $p->takeOutgoing());
    }

    public function testTlsRequestThenHandshakeResponseOverTls(): void
    {
        $p = new ClientProtocol(new ConnectionConfig(user: 'u', password: 'secret', tls: ['verify_peer' => false]));
        $p->push(Wire::packet(Wire::mysql8Handshake(self::NONCE), 0));
        self::assertSame(Phase::TlsRequested, $p->phase());
        $ssl = $p->takeOutgoing();
        self::assertSame("\x20\x00\x00\x01", substr($ssl, 0, 4), 'the SSL request is 32 bytes with sequence id 1');
        $caps = \ord($ssl[4]) | \ord($ssl[5]) << 8 | \ord($ssl[6]) << 16 | \ord($ssl[7]) << 24;
        self::assertNotSame(0, $caps & Capability::SSL);
        $p->tlsEstablished();
        $response = $p->takeOutgoing();
        self::assertSame(2, \ord($response[3]));
        self::assertSame(substr($ssl, 4, 32), substr($response, 4, 32), 'the response starts like the SSL request');
        $p->push(Wire::packet("\x01\x04", 3));
        self::assertSame(Wire::packet("secret\0", 4), $p->takeOutgoing(), 'full auth over TLS sends the password in clear');
    }

    public function testTlsRefusedWhenTheServerHasNone(): void
    {
        $p = new ClientProtocol(new ConnectionConfig(tls: []));
        $handshake = Wire::mysql8Handshake(self::NONCE);
        // clear CLIENT_SSL (0x0800) in the lower capability bytes
        $offset = 1 + \strlen("8.0.36\0") + 4 + 8 + 1;
        $handshake[$offset + 1] = "\xF7";
        try {
            $p->push(Wire::packet($handshake, 0));
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertSame(2026, $e->errorCode);
        }
    }

    /**
     * @return array{caps: int, charset: int, user: string, auth: string, database: ?string, plugin: ?string}
     */
    public static function parseResponse(string $payload): array
    {
        $caps = \ord($payload[0]) | \ord($payload[1]) << 8 | \ord($payload[2]) << 16 | \ord($payload[3]) << 24;
        $charset = \ord($payload[8]);
        self::assertSame(str_repeat("\0", 23), substr($payload, 9, 23));
        $offset = 32;
        $end = (int) strpos($payload, "\0", $offset);
        $user = substr($payload, $offset, $end - $offset);
        $offset = $end + 1;
        $length = \ord($payload[$offset]);
        $auth = substr($payload, $offset + 1, $length);
        $offset += 1 + $length;
        $database = null;
        if (($caps & Capability::CONNECT_WITH_DB) !== 0) {
            $end = (int) strpos($payload, "\0", $offset);
            $database = substr($payload, $offset, $end - $offset);
            $offset = $end + 1;
        }
        $plugin = null;
        if (($caps & Capability::PLUGIN_AUTH) !== 0) {
            $end = (int) strpos($payload, "\0", $offset);
            $plugin = substr($payload, $offset, $end - $offset);
            $offset = $end + 1;
        }
        self::assertSame(\strlen($payload), $offset, 'nothing after the plugin name');

        return ['caps' => $caps, 'charset' => $charset, 'user' => $user, 'auth' => $auth, 'database' => $database, 'plugin' => $plugin];
    }

    /** @return array{\OpenSSLAsymmetricKey, string} */
    public static function keyPair(): array
    {
        $key = openssl_pkey_new(['private_key_bits' => 1024, 'private_key_type' => OPENSSL_KEYTYPE_RSA]);
        self::assertNotFalse($key);
        $details = openssl_pkey_get_details($key);
        self::assertIsArray($details);

        return [$key, $details['key']];
    }
}
