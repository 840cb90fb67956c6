<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Mysql\Protocol\Auth;

final class AuthTest extends TestCase
{
    public function testNativePasswordScramble(): void
    {
        $nonce = Wire::MARIADB_NONCE;
        self::assertSame(Wire::expectedNative('spindle', $nonce), Auth::nativePassword('spindle', $nonce));
        self::assertSame(20, \strlen(Auth::nativePassword('spindle', $nonce)));
        self::assertSame('', Auth::nativePassword('', $nonce));
    }

    public function testNativePasswordKnownVector(): void
    {
        // SHA1("password") = 5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8, and with an all-zero nonce
        // the result is SHA1("password") XOR SHA1(20 zero bytes . SHA1(SHA1("password"))).
        $nonce = str_repeat("\0", 20);
        $stage2 = sha1((string) hex2bin('5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8'), true);
        self::assertSame('2470c0c06dee42fd1618bb99005adca2ec9d1e19', bin2hex($stage2));
        self::assertSame(Wire::expectedNative('password', $nonce), Auth::nativePassword('password', $nonce));
    }

    public function testCachingSha2Scramble(): void
    {
        $nonce = 'abcdefghijklmnopqrst';
        self::assertSame(Wire::expectedSha2('secret', $nonce), Auth::cachingSha2Password('secret', $nonce));
        self::assertSame(32, \strlen(Auth::cachingSha2Password('secret', $nonce)));
        self::assertSame('', Auth::cachingSha2Password('', $nonce));
    }

    public function testXorWithNonceRepeatsTheNonce(): void
    {
        $nonce = 'abcdefghijklmnopqrst';
        $password = str_repeat('p', 25);
        $xored = Auth::xorWithNonce($password, $nonce);
        self::assertSame(26, \strlen($xored));
        $plain = $password . "\0";
        for ($i = 0; $i < 26; ++$i) {
            self::assertSame(\ord($plain[$i]) ^ \ord($nonce[$i % 20]), \ord($xored[$i]));
        }
    }

    public function testRsaEncryptedPasswordDecryptsWithThePrivateKey(): void
    {
        $key = openssl_pkey_new(['private_key_bits' => 1024, 'private_key_type' => OPENSSL_KEYTYPE_RSA]);
        self::assertNotFalse($key);
        $details = openssl_pkey_get_details($key);
        self::assertIsArray($details);
        $nonce = 'abcdefghijklmnopqrst';
        $encrypted = Auth::rsaEncryptPassword('secret', $nonce, $details['key']);
        self::assertTrue(openssl_private_decrypt($encrypted, $decrypted, $key, OPENSSL_PKCS1_OAEP_PADDING));
        self::assertSame(Auth::xorWithNonce('secret', $nonce), $decrypted);
    }
}
