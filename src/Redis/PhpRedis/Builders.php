<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/**
 * @internal phpredis methods whose arguments or replies need more than CommandTable's rules.
 * Each takes the key prefix and the method's arguments and returns the command and how its
 * reply reads.
 *
 * @phpstan-type Built array{list<string>, Reply|\Closure(mixed): mixed}
 */
final class Builders
{
    private function __construct()
    {
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built|null null when the method is not one of these
     */
    public static function build(string $method, string $p, array $a): ?array
    {
        return match ($method) {
            'set' => self::set($p, $a),
            'mset', 'msetnx' => [[strtoupper($method), ...self::pairs($p, (array) ($a[0] ?? []))], Reply::Bool],
            'hmset' => [['HMSET', $p . Args::value($a[0] ?? ''), ...self::pairs('', (array) ($a[1] ?? []))], Reply::Bool],
            'hmget' => self::hmget($p, $a),
            'zadd' => self::zadd($p, $a),
            'zrange', 'zrevrange' => self::zrange(strtoupper($method), $p, $a),
            'zrangebyscore', 'zrevrangebyscore' => self::zrangeByScore(strtoupper($method), $p, $a),
            'zinterstore', 'zunionstore' => self::zstore(strtoupper($method), $p, $a),
            'lrem', 'lremove' => [['LREM', $p . Args::value($a[0] ?? ''), Args::value($a[2] ?? 0), Args::value($a[1] ?? '')], Reply::Int],
            'lpop', 'rpop' => self::pop(strtoupper($method), $p, $a),
            'spop' => self::pop('SPOP', $p, $a),
            'srandmember' => isset($a[1]) ? [['SRANDMEMBER', $p . Args::value($a[0]), Args::value($a[1])], Reply::List] : [['SRANDMEMBER', $p . Args::value($a[0] ?? '')], Reply::Str],
            'eval', 'evalsha' => self::eval(strtoupper($method), $p, $a),
            'script' => self::script($a),
            'info' => [['INFO', ...Args::values($a)], Reply::Info],
            'config' => self::config($a),
            'client' => self::client($a),
            'object' => [['OBJECT', Args::value($a[0] ?? ''), $p . Args::value($a[1] ?? '')], strtolower(Args::value($a[0] ?? '')) === 'encoding' ? Reply::Str : Reply::Int],
            'flushdb', 'flushall' => [[strtoupper($method), ...(!empty($a[0]) ? ['ASYNC'] : [])], Reply::Bool],
            'pubsub' => self::pubsub($p, $a),
            'xack' => [['XACK', $p . Args::value($a[0] ?? ''), Args::value($a[1] ?? ''), ...Args::values((array) ($a[2] ?? []))], Reply::Int],
            'bitop' => [['BITOP', Args::value($a[0] ?? ''), ...Args::keys($p, \array_slice($a, 1))], Reply::Int],
            'rawcommand' => [Args::values($a), Reply::Raw],
            'acl' => [['ACL', ...Args::values($a)], self::acl(strtolower(Args::value($a[0] ?? '')))],
            default => StreamBuilders::build($method, $p, $a),
        };
    }

    /**
     * @param array<int|string, mixed> $map
     *
     * @return list<string>
     */
    public static function pairs(string $prefix, array $map): array
    {
        $out = [];
        foreach ($map as $key => $value) {
            $out[] = $prefix . $key;
            $out[] = Args::value($value);
        }

        return $out;
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function set(string $p, array $a): array
    {
        $command = ['SET', $p . Args::value($a[0] ?? ''), Args::value($a[1] ?? '')];
        $options = $a[2] ?? null;
        if (\is_int($options) || \is_float($options) || (\is_string($options) && is_numeric($options))) {
            if ((int) $options > 0) {
                array_push($command, 'EX', (string) (int) $options);
            }
        } elseif (\is_array($options)) {
            // As phpredis: EX/PX with a positive integer, the NX/XX/KEEPTTL/GET flags; anything else is ignored.
            foreach ($options as $key => $value) {
                $name = strtoupper(\is_string($key) ? $key : (\is_string($value) ? $value : ''));
                if (\is_string($key) && ($name === 'EX' || $name === 'PX')) {
                    if (!\is_scalar($value)) {
                        trigger_error('Redis::set(): Invalid expire value', \E_USER_WARNING);

                        return [[], static fn (): bool => false];
                    }
                    if ((int) $value > 0) {
                        array_push($command, $name, (string) (int) $value);
                    }
                } elseif (!\is_string($key) && \in_array($name, ['NX', 'XX', 'KEEPTTL', 'GET'], true)) {
                    $command[] = $name;
                }
            }
        } elseif ($options !== null) {
            trigger_error('Redis::set(): Invalid options argument', \E_USER_WARNING);

            return [[], static fn (): bool => false];
        }

        return [$command, Reply::Set];
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function hmget(string $p, array $a): array
    {
        // As phpredis: only integers and non-empty strings are fields; with none, false at once.
        $fields = array_values(array_filter((array) ($a[1] ?? []), static fn (mixed $f): bool => \is_int($f) || (\is_string($f) && $f !== '')));
        if ($fields === []) {
            return [[], static fn (): bool => false];
        }

        return [['HMGET', $p . Args::value($a[0] ?? ''), ...Args::values($fields)], static function (mixed $reply) use ($fields): mixed {
            if (!\is_array($reply)) {
                return Reply::raw($reply);
            }
            $out = [];
            foreach ($fields as $i => $field) {
                $value = $reply[$i] ?? null;
                $out[Args::value($field)] = $value === null ? false : Reply::raw($value);
            }

            return $out;
        }];
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function zadd(string $p, array $a): array
    {
        $command = ['ZADD', $p . Args::value($a[0] ?? '')];
        $rest = \array_slice($a, 1);
        if (isset($rest[0]) && \is_array($rest[0])) {
            foreach (array_shift($rest) as $key => $option) {
                $command[] = strtoupper(\is_string($key) ? $key : Args::value($option));
            }
        }
        foreach ($rest as $i => $value) {
            $command[] = $i % 2 === 0 && \is_float($value) ? Args::float($value) : Args::value($value);
        }

        // phpredis 5 reads every ZADD reply as an integer: with INCR (a bulk score) that is false.
        return [$command, Reply::Int];
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function zrange(string $name, string $p, array $a): array
    {
        $command = [$name, $p . Args::value($a[0] ?? ''), Args::value($a[1] ?? 0), Args::value($a[2] ?? -1)];
        $options = $a[3] ?? null;
        // phpredis 5 takes only `true` or ['withscores' => true] (a 'WITHSCORES' string is ignored).
        $withScores = $options === true || (\is_array($options) && !empty($options['withscores']));
        if ($withScores) {
            $command[] = 'WITHSCORES';
        }

        return [$command, $withScores ? Reply::Scores : Reply::List];
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function zrangeByScore(string $name, string $p, array $a): array
    {
        $command = [$name, $p . Args::value($a[0] ?? ''), Args::value($a[1] ?? '-inf'), Args::value($a[2] ?? '+inf')];
        $options = \is_array($a[3] ?? null) ? $a[3] : [];
        $withScores = !empty($options['withscores']);
        if ($withScores) {
            $command[] = 'WITHSCORES';
        }
        if (isset($options['limit']) && \is_array($options['limit'])) {
            $limit = array_values($options['limit']);
            array_push($command, 'LIMIT', Args::value($limit[0] ?? 0), Args::value($limit[1] ?? -1));
        }

        return [$command, $withScores ? Reply::Scores : Reply::List];
    }

    /**
     * zInterStore($destination, array $keys, ?array $weights = null, ?string $aggregate = null)
     *
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function zstore(string $name, string $p, array $a): array
    {
        $keys = (array) ($a[1] ?? []);
        $command = [$name, $p . Args::value($a[0] ?? ''), (string) \count($keys), ...Args::keys($p, $keys)];
        if (isset($a[2]) && \is_array($a[2]) && $a[2] !== []) {
            array_push($command, 'WEIGHTS', ...Args::values($a[2]));
        }
        if (isset($a[3]) && \is_string($a[3]) && $a[3] !== '') {
            array_push($command, 'AGGREGATE', strtoupper($a[3]));
        }

        return [$command, Reply::Int];
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function pop(string $name, string $p, array $a): array
    {
        $count = (int) ($a[1] ?? 0);
        if ($count > 0) {
            return [[$name, $p . Args::value($a[0] ?? ''), (string) $count], Reply::List];
        }

        return [[$name, $p . Args::value($a[0] ?? '')], Reply::Str];
    }

    /**
     * eval($script, array $args = [], int $numKeys = 0): the first $numKeys arguments are keys.
     *
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function eval(string $name, string $p, array $a): array
    {
        $arguments = array_values((array) ($a[1] ?? []));
        $numKeys = (int) ($a[2] ?? 0);
        $keys = Args::keys($p, \array_slice($arguments, 0, $numKeys));

        return [[$name, Args::value($a[0] ?? ''), (string) $numKeys, ...$keys, ...Args::values(\array_slice($arguments, $numKeys))], Reply::Raw];
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function script(array $a): array
    {
        $sub = strtolower(Args::value($a[0] ?? ''));
        $command = ['SCRIPT', ...Args::values($a)];

        return [$command, match ($sub) {
            'load' => Reply::Str,
            'exists' => Reply::List,
            default => Reply::Bool,
        }];
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function config(array $a): array
    {
        $sub = strtolower(Args::value($a[0] ?? ''));
        if ($sub === 'set' && \is_array($a[1] ?? null)) {
            return [['CONFIG', 'SET', ...self::pairs('', $a[1])], Reply::Bool];
        }

        return [['CONFIG', ...Args::values($a)], $sub === 'get' ? Reply::Assoc : Reply::Bool];
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function client(array $a): array
    {
        $sub = strtolower(Args::value($a[0] ?? ''));
        $command = ['CLIENT', ...Args::values($a)];

        return [$command, match ($sub) {
            'list' => static function (mixed $reply): mixed {
                if (!\is_string($reply)) {
                    return Reply::raw($reply);
                }
                $clients = [];
                foreach (explode("\n", trim($reply)) as $line) {
                    $client = [];
                    foreach (explode(' ', trim($line)) as $pair) {
                        [$key, $value] = array_pad(explode('=', $pair, 2), 2, '');
                        $client[$key] = $value;
                    }
                    $clients[] = $client;
                }

                return $clients;
            },
            'getname' => Reply::Str,
            'id' => Reply::Int,
            default => Reply::Bool,
        }];
    }

    /** ACL's replies as phpredis reads them: GETUSER a map, LOG a list of maps (age-seconds a float). */
    private static function acl(string $sub): Reply|\Closure
    {
        return match ($sub) {
            'getuser' => static fn (mixed $reply): mixed => \is_array($reply) ? Reply::Assoc->apply($reply) : Reply::raw($reply),
            'log' => static fn (mixed $reply): mixed => \is_array($reply) ? array_map(static function (mixed $entry): mixed {
                $entry = Reply::Assoc->apply($entry);
                if (\is_array($entry) && isset($entry['age-seconds']) && is_numeric($entry['age-seconds'])) {
                    $entry['age-seconds'] += 0;     // a number: an integer when it has no fraction
                }

                return $entry;
            }, $reply) : false,     // as phpredis: LOG RESET's +OK is not the list it reads
            default => Reply::Raw,
        };
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function pubsub(string $p, array $a): array
    {
        $sub = strtolower(Args::value($a[0] ?? ''));
        if ($sub === 'numsub') {
            if (!\is_array($a[1] ?? null)) {
                return [[], static fn (): bool => false];
            }
            $channels = $a[1];

            return [['PUBSUB', 'NUMSUB', ...Args::keys($p, $channels)], Reply::Assoc];
        }
        if ($sub === 'numpat') {
            return [['PUBSUB', 'NUMPAT'], Reply::Int];
        }
        if ($sub !== 'channels') {
            // phpredis knows only CHANNELS, NUMSUB and NUMPAT
            return [[], static fn (): bool => false];
        }

        return [['PUBSUB', ...Args::values($a)], Reply::List];
    }
}
