<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/**
 * @internal phpredis methods that convert their arguments before sending them (INCR with an
 * amount is INCRBY, an expiry is an integer, a bit is 0 or 1, invalid arguments return false
 * without a round trip), SORT with its options array, and the GEO commands.
 *
 * A Built with no command ([]) is answered at once: its reply reading gets null.
 *
 * @phpstan-import-type Built from Builders
 */
final class KeyspaceBuilders
{
    private function __construct()
    {
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built|null
     */
    public static function build(string $method, string $p, array $a): ?array
    {
        $key = $p . Args::value($a[0] ?? '');

        return match ($method) {
            'incr', 'decr' => isset($a[1])
                ? [[$method === 'incr' ? 'INCRBY' : 'DECRBY', $key, self::int($a[1])], Reply::Int]
                : [[strtoupper($method), $key], Reply::Int],
            'expire', 'pexpire', 'expireat', 'pexpireat' => [[strtoupper($method), $key, self::int($a[1] ?? 0)], Reply::Bool],
            'settimeout' => [['EXPIRE', $key, self::int($a[1] ?? 0)], Reply::Bool],
            'setbit' => [['SETBIT', $key, self::int($a[1] ?? 0), empty($a[2]) ? '0' : '1'], Reply::Int],
            'ping' => isset($a[0]) ? [['PING', Args::value($a[0])], Reply::Str] : [['PING'], Reply::Status],
            'zrangebylex', 'zrevrangebylex' => self::rangeByLex(strtoupper($method), $key, $a),
            'sort' => self::sort($key, \is_array($a[1] ?? null) ? $a[1] : []),
            'geoadd' => [['GEOADD', $key, ...Args::values(\array_slice($a, 1))], Reply::Int],
            'geopos' => [['GEOPOS', $key, ...Args::values(Args::spread(\array_slice($a, 1)))], static fn (mixed $r): mixed => \is_array($r) ? array_map(static fn (mixed $pos): mixed => $pos === null ? [] : Reply::raw($pos), $r) : Reply::raw($r)],
            'geohash' => [['GEOHASH', $key, ...Args::values(Args::spread(\array_slice($a, 1)))], Reply::List],
            'geodist' => [['GEODIST', $key, ...Args::values(\array_slice($a, 1, 3))], Reply::Float],
            'georadius', 'georadius_ro' => self::radius(strtoupper($method), $p, [$key, ...Args::values(\array_slice($a, 1, 4))], $a[5] ?? []),
            'georadiusbymember', 'georadiusbymember_ro' => self::radius(strtoupper($method), $p, [$key, ...Args::values(\array_slice($a, 1, 3))], $a[4] ?? []),
            default => null,
        };
    }

    /** An integer argument as phpredis reads a `long` one: numeric strings and floats are truncated. */
    public static function int(mixed $value): string
    {
        return (string) (\is_int($value) ? $value : (int) (\is_numeric($value) ? (float) $value : Args::value($value)));
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function rangeByLex(string $name, string $key, array $a): array
    {
        $command = [$name, $key, Args::value($a[1] ?? '-'), Args::value($a[2] ?? '+')];
        if (isset($a[3], $a[4])) {
            array_push($command, 'LIMIT', self::int($a[3]), self::int($a[4]));
        }

        return [$command, Reply::List];
    }

    /**
     * sort($key, ['by' => pattern, 'limit' => [offset, count], 'get' => pattern(s), 'sort' => 'asc'|'desc',
     * 'alpha' => bool, 'store' => key]); phpredis prefixes only the key.
     *
     * @param array<mixed> $options
     *
     * @return Built
     */
    private static function sort(string $key, array $options): array
    {
        $options = array_change_key_case($options, \CASE_LOWER);
        $command = ['SORT', $key];
        if (isset($options['by']) && $options['by'] !== '') {
            array_push($command, 'BY', Args::value($options['by']));
        }
        if (isset($options['limit']) && \is_array($options['limit']) && \count($options['limit']) === 2) {
            $limit = array_values($options['limit']);
            array_push($command, 'LIMIT', self::int($limit[0]), self::int($limit[1]));
        }
        foreach (isset($options['get']) ? (array) $options['get'] : [] as $pattern) {
            array_push($command, 'GET', Args::value($pattern));
        }
        if (isset($options['sort']) && \in_array(strtolower(Args::value($options['sort'])), ['asc', 'desc'], true)) {
            $command[] = strtoupper(Args::value($options['sort']));
        }
        if (!empty($options['alpha'])) {
            $command[] = 'ALPHA';
        }
        if (isset($options['store'])) {
            array_push($command, 'STORE', Args::value($options['store']));

            return [$command, Reply::Int];
        }

        return [$command, Reply::List];
    }

    /**
     * GEORADIUS and friends: options 'withcoord', 'withdist', 'withhash', 'asc'/'desc',
     * 'count' => n, 'store'/'storedist' => key (prefixed).
     *
     * @param list<string> $head the key and the position arguments
     *
     * @return Built
     */
    private static function radius(string $name, string $p, array $head, mixed $options): array
    {
        $command = [$name, ...$head];
        $store = false;
        foreach (\is_array($options) ? $options : [] as $option => $value) {
            if (\is_string($option)) {
                $option = strtolower($option);
                if ($option === 'count') {
                    if ((int) $value <= 0) {
                        trigger_error("Redis::$name(): COUNT must be an integer > 0!", \E_USER_WARNING);

                        return [[], static fn (): bool => false];
                    }
                    array_push($command, 'COUNT', self::int($value));
                } elseif ($option === 'store' || $option === 'storedist') {
                    array_push($command, strtoupper($option), $p . Args::value($value));
                    $store = true;
                }
                continue;
            }
            $flag = strtolower(Args::value($value));
            if (\in_array($flag, ['withcoord', 'withdist', 'withhash', 'asc', 'desc'], true)) {
                $command[] = strtoupper($flag);
            }
        }

        return [$command, $store ? Reply::Int : Reply::Raw];
    }
}
