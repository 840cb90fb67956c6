<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Session;

/**
 * The session settings of one app: framework.session's options (the container's
 * session.storage.options parameter, the array NativeSessionStorage takes), completed by PHP's
 * session.* ini values as NativeSessionStorage would leave them. Read once; PHP's ini, which is
 * process-wide, is never written.
 */
final class SessionOptions
{
    public function __construct(
        public readonly string $name = 'PHPSESSID',
        public readonly int $cookieLifetime = 0,
        public readonly string $cookiePath = '/',
        public readonly ?string $cookieDomain = null,
        public readonly bool $cookieSecure = false,
        /** cookie_secure "auto": Secure when the request came over HTTPS. */
        public readonly bool $cookieSecureAuto = false,
        public readonly bool $cookieHttpOnly = true,
        /** @var 'lax'|'strict'|'none'|null */
        public readonly ?string $cookieSameSite = null,
        public readonly bool $useCookies = true,
        public readonly int $gcMaxLifetime = 1440,
        public readonly int $gcProbability = 1,
        public readonly int $gcDivisor = 100,
        public readonly int $sidLength = 32,
        public readonly int $sidBitsPerCharacter = 4,
        public readonly bool $strictMode = true,
        public readonly bool $lazyWrite = true,
        public readonly SerializeHandler $serializeHandler = SerializeHandler::Php,
    ) {
        if ($sidLength < 22 || $sidLength > 256) {
            throw new \InvalidArgumentException(\sprintf('Session id length %d is outside 22..256', $sidLength));
        }
        if ($sidBitsPerCharacter < 4 || $sidBitsPerCharacter > 6) {
            throw new \InvalidArgumentException(\sprintf('Session id bits per character %d is outside 4..6', $sidBitsPerCharacter));
        }
        if (!\in_array($cookieSameSite, [null, 'lax', 'strict', 'none'], true)) {
            throw new \InvalidArgumentException(\sprintf('Invalid session cookie SameSite "%s"', $cookieSameSite));
        }
        if ($name === '' || \ctype_digit($name)) {
            throw new \InvalidArgumentException(\sprintf('Invalid session name "%s"', $name));
        }
    }

    /**
     * @param array<string, mixed>          $options NativeSessionStorage's options (session.storage.options)
     * @param \Closure(string): string|null $ini     reads a session.* ini value (defaults to ini_get)
     */
    public static function fromArray(array $options, ?\Closure $ini = null): self
    {
        $ini ??= static fn (string $key): string => (string) \ini_get('session.' . $key);
        // NativeSessionStorage's own defaults, then PHP's ini.
        $options += ['use_cookies' => 1, 'lazy_write' => 1, 'use_strict_mode' => 1];
        $get = static function (string $key) use ($options, $ini): mixed {
            return \array_key_exists($key, $options) && $options[$key] !== null ? $options[$key] : $ini($key);
        };
        $secure = $get('cookie_secure');
        $sameSite = (string) self::scalar($get('cookie_samesite'));
        $domain = (string) self::scalar($get('cookie_domain'));

        return new self(
            name: (string) self::scalar($get('name')),
            cookieLifetime: self::int($get('cookie_lifetime')),
            cookiePath: (string) self::scalar($get('cookie_path')) ?: '/',
            cookieDomain: $domain === '' ? null : $domain,
            cookieSecure: $secure !== 'auto' && self::bool($secure),
            cookieSecureAuto: $secure === 'auto',
            cookieHttpOnly: self::bool($get('cookie_httponly')),
            cookieSameSite: match (\strtolower($sameSite)) {
                '' => null,
                'lax' => 'lax',
                'strict' => 'strict',
                'none' => 'none',
                default => throw new \InvalidArgumentException(\sprintf('Invalid session cookie SameSite "%s"', $sameSite)),
            },
            useCookies: self::bool($get('use_cookies')),
            gcMaxLifetime: self::int($get('gc_maxlifetime')),
            gcProbability: self::int($get('gc_probability')),
            gcDivisor: \max(1, self::int($get('gc_divisor'))),
            sidLength: self::int($get('sid_length')) ?: 32,
            sidBitsPerCharacter: self::int($get('sid_bits_per_character')) ?: 4,
            strictMode: self::bool($get('use_strict_mode')),
            lazyWrite: self::bool($get('lazy_write')),
            serializeHandler: SerializeHandler::named((string) self::scalar($get('serialize_handler')) ?: 'php'),
        );
    }

    /** Whether the cookie gets the Secure attribute for a request that is (or is not) over HTTPS. */
    public function secureFor(bool $httpsRequest): bool
    {
        return $this->cookieSecure || ($this->cookieSecureAuto && $httpsRequest);
    }

    private static function scalar(mixed $value): string|int|float|bool|null
    {
        return \is_scalar($value) ? $value : null;
    }

    private static function int(mixed $value): int
    {
        return \is_numeric($value) ? (int) $value : 0;
    }

    private static function bool(mixed $value): bool
    {
        return \is_bool($value) ? $value : \filter_var(self::scalar($value), \FILTER_VALIDATE_BOOL);
    }
}
