<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\MysqlException;

/** Password scrambles of the auth plugins. Pure functions. */
final class Auth
{
    /** caching_sha2_password: the next packet says fast auth succeeded (0x01 0x03). */
    public const FAST_AUTH_SUCCESS = 0x03;
    /** caching_sha2_password: the server wants the full password (0x01 0x04). */
    public const PERFORM_FULL_AUTH = 0x04;
    /** caching_sha2_password: the client asks for the server's RSA public key. */
    public const REQUEST_PUBLIC_KEY = "\x02";

    private function __construct()
    {
    }

    /** mysql_native_password: SHA1(password) XOR SHA1(nonce . SHA1(SHA1(password))); empty for no password. */
    public static function nativePassword(string $password, string $nonce): string
    {
        if ($password === '') {
            return '';
        }
        $stage1 = sha1($password, true);
        $stage2 = sha1($stage1, true);

        return $stage1 ^ sha1(substr($nonce, 0, 20) . $stage2, true);
    }

    /** caching_sha2_password: SHA256(password) XOR SHA256(SHA256(SHA256(password)) . nonce). */
    public static function cachingSha2Password(string $password, string $nonce): string
    {
        if ($password === '') {
            return '';
        }
        $stage1 = hash('sha256', $password, true);
        $stage2 = hash('sha256', $stage1, true);

        return $stage1 ^ hash('sha256', $stage2 . substr($nonce, 0, 20), true);
    }

    /** The NUL-terminated password XORed with the nonce, repeated (what the RSA step encrypts). */
    public static function xorWithNonce(string $password, string $nonce): string
    {
        $plain = $password . "\0";
        $nonce = substr($nonce, 0, 20);
        if ($nonce === '') {
            return $plain;
        }
        $key = str_repeat($nonce, intdiv(\strlen($plain), \strlen($nonce)) + 1);

        return $plain ^ substr($key, 0, \strlen($plain));
    }

    /**
     * caching_sha2_password full auth without TLS: RSA-OAEP of the password XOR nonce.
     *
     * @throws MysqlException 2059 when the key is unusable
     */
    public static function rsaEncryptPassword(string $password, string $nonce, string $publicKeyPem): string
    {
        $key = @openssl_pkey_get_public($publicKeyPem);
        if ($key === false) {
            throw new MysqlException('caching_sha2_password: the server public key is not a valid PEM key', Errors::AUTH_PLUGIN_CANNOT_LOAD);
        }
        $encrypted = '';
        if (!@openssl_public_encrypt(self::xorWithNonce($password, $nonce), $encrypted, $key, OPENSSL_PKCS1_OAEP_PADDING)) {
            throw new MysqlException('caching_sha2_password: RSA encryption of the password failed', Errors::AUTH_PLUGIN_CANNOT_LOAD);
        }

        return $encrypted;
    }

    /** The first auth response for a plugin, or null if the plugin is unknown. */
    public static function response(string $plugin, string $password, string $nonce, bool $secure): ?string
    {
        return match (AuthPlugin::tryFrom($plugin)) {
            AuthPlugin::NativePassword => self::nativePassword($password, $nonce),
            AuthPlugin::CachingSha2Password => self::cachingSha2Password($password, $nonce),
            AuthPlugin::ClearPassword => $secure ? $password . "\0" : null,
            null => null,
        };
    }
}
