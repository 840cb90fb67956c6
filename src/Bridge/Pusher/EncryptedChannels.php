<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

/**
 * End-to-end encrypted channels (`private-encrypted-`): the app's /broadcasting/auth gives the
 * client the channel's shared secret (SHA-256 of the channel name and the app's 32-byte
 * encryption master key), and the app's broadcasts to the channel are sealed with it
 * (XSalsa20-Poly1305, libsodium's secretbox, as pusher-js opens them) before they reach the
 * server, which relays `{"nonce", "ciphertext"}` without reading them.
 */
final class EncryptedChannels
{
    public const PREFIX = 'private-encrypted-';

    public static function isEncrypted(string $channel): bool
    {
        return \str_starts_with($channel, self::PREFIX);
    }

    /** The channel's shared secret (32 bytes), from the app's master key. */
    public static function sharedSecret(string $masterKey, string $channel): string
    {
        if (\strlen($masterKey) !== \SODIUM_CRYPTO_SECRETBOX_KEYBYTES) {
            throw new \InvalidArgumentException('An encryption master key is 32 bytes');
        }

        return \hash('sha256', $channel . $masterKey, true);
    }

    /** An event's data, sealed for the channel: the JSON text pusher-js decrypts. */
    public static function seal(string $masterKey, string $channel, string $data): string
    {
        $nonce = \random_bytes(\SODIUM_CRYPTO_SECRETBOX_NONCEBYTES);
        $ciphertext = \sodium_crypto_secretbox($data, $nonce, self::sharedSecret($masterKey, $channel));

        return Frames::json(['nonce' => \base64_encode($nonce), 'ciphertext' => \base64_encode($ciphertext)]);
    }

    /** The data seal() sealed, or null when it does not open with the channel's secret. */
    public static function open(string $masterKey, string $channel, string $sealed): ?string
    {
        $fields = \json_decode($sealed, true);
        if (!\is_array($fields) || !\is_string($fields['nonce'] ?? null) || !\is_string($fields['ciphertext'] ?? null)) {
            return null;
        }
        $nonce = \base64_decode($fields['nonce'], true);
        $ciphertext = \base64_decode($fields['ciphertext'], true);
        if ($nonce === false || $ciphertext === false || \strlen($nonce) !== \SODIUM_CRYPTO_SECRETBOX_NONCEBYTES) {
            return null;
        }
        $data = \sodium_crypto_secretbox_open($ciphertext, $nonce, self::sharedSecret($masterKey, $channel));

        return $data === false ? null : $data;
    }
}
