<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/**
 * The client side of SCRAM-SHA-256 (RFC 5802, RFC 7677) without channel binding ("n,,"): the
 * first message, the answer to the server's challenge, and the check of the server's signature.
 * The user name goes empty in the messages: the server takes it from the startup packet.
 */
final class Scram
{
    public const MECHANISM = 'SCRAM-SHA-256';
    private const GS2_HEADER = 'n,,';

    private string $clientFirstBare;
    private ?string $serverSignature = null;

    private readonly string $clientNonce;

    /** @param string $user sent in the messages; PostgreSQL ignores it (empty is usual) */
    public function __construct(#[\SensitiveParameter] private readonly string $password, ?string $nonce = null, string $user = '')
    {
        $this->clientNonce = $nonce ?? rtrim(strtr(base64_encode(random_bytes(18)), '+/', '-_'), '=');
        $this->clientFirstBare = 'n=' . str_replace(['=', ','], ['=3D', '=2C'], $user) . ',r=' . $this->clientNonce;
    }

    public function clientFirst(): string
    {
        return self::GS2_HEADER . $this->clientFirstBare;
    }

    /**
     * The client-final-message for the server-first-message.
     *
     * @throws ProtocolError when the challenge is malformed or does not extend our nonce
     */
    public function clientFinal(string $serverFirst): string
    {
        $attributes = self::attributes($serverFirst);
        $nonce = $attributes['r'] ?? '';
        $salt = base64_decode($attributes['s'] ?? '', true);
        $iterations = (int) ($attributes['i'] ?? '0');
        $clientNonce = $this->clientNonce;
        if (!str_starts_with($nonce, $clientNonce) || \strlen($nonce) <= \strlen($clientNonce) || $salt === false || $salt === '' || $iterations < 1) {
            throw new ProtocolError('Malformed SCRAM-SHA-256 challenge from the server');
        }
        $saltedPassword = hash_pbkdf2('sha256', self::normalize($this->password), $salt, $iterations, 32, true);
        $clientKey = hash_hmac('sha256', 'Client Key', $saltedPassword, true);
        $storedKey = hash('sha256', $clientKey, true);
        $withoutProof = 'c=' . base64_encode(self::GS2_HEADER) . ',r=' . $nonce;
        $authMessage = $this->clientFirstBare . ',' . $serverFirst . ',' . $withoutProof;
        $clientSignature = hash_hmac('sha256', $authMessage, $storedKey, true);
        $serverKey = hash_hmac('sha256', 'Server Key', $saltedPassword, true);
        $this->serverSignature = hash_hmac('sha256', $authMessage, $serverKey, true);

        return $withoutProof . ',p=' . base64_encode($clientKey ^ $clientSignature);
    }

    /** @throws ProtocolError when the server's signature is not the one the password gives */
    public function verifyServerFinal(string $serverFinal): void
    {
        $attributes = self::attributes($serverFinal);
        if (isset($attributes['e'])) {
            throw new ProtocolError('SCRAM authentication failed: ' . $attributes['e']);
        }
        $signature = base64_decode($attributes['v'] ?? '', true);
        if ($this->serverSignature === null || $signature === false || !hash_equals($this->serverSignature, $signature)) {
            throw new ProtocolError('The server\'s SCRAM-SHA-256 signature is wrong: it does not know the password');
        }
    }

    /** @return array<string, string> */
    private static function attributes(string $message): array
    {
        $attributes = [];
        foreach (explode(',', $message) as $part) {
            if (\strlen($part) >= 2 && $part[1] === '=') {
                $attributes[$part[0]] = substr($part, 2);
            }
        }

        return $attributes;
    }

    /** SASLprep, as far as it matters here: ASCII passwords are used as they are (so does the server on failure). */
    private static function normalize(string $password): string
    {
        if (class_exists(\Normalizer::class) && preg_match('//u', $password) === 1) {
            $normalized = \Normalizer::normalize($password, \Normalizer::FORM_KC);
            if (\is_string($normalized)) {
                return $normalized;
            }
        }

        return $password;
    }
}
