<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/**
 * @internal Which arguments of a phpredis method are values (serialized and compressed under
 * OPT_SERIALIZER / OPT_COMPRESSION) and which replies hold values (read back), as phpredis
 * does: values, list elements, set and sorted-set members, hash values, stream field values —
 * never keys, hash fields, scores, counters or scripts' arguments.
 *
 * @phpstan-import-type Built from Builders
 */
final class Values
{
    /** method => the value arguments' positions; an int alone: that position and every one after */
    private const PACK = [
        'set' => [1], 'setex' => [2], 'psetex' => [2], 'setnx' => [1], 'getset' => [1], 'append' => [1],
        'lpush' => 1, 'rpush' => 1, 'lpushx' => 1, 'rpushx' => 1, 'sadd' => 1, 'srem' => 1, 'sremove' => 1,
        'smismember' => 1, 'zrem' => 1, 'zdelete' => 1, 'zremove' => 1, 'geopos' => 1, 'geohash' => 1,
        'lset' => [2], 'lrem' => [1], 'lremove' => [1], 'linsert' => [2, 3], 'sismember' => [1], 'scontains' => [1],
        'smove' => [2], 'hset' => [2], 'hsetnx' => [2], 'zscore' => [1], 'zrank' => [1], 'zrevrank' => [1], 'zincrby' => [2],
    ];

    /** methods whose reply holds values */
    private const UNPACK = [
        'get' => true, 'getset' => true, 'getdel' => true, 'getrange' => true, 'mget' => true, 'getmultiple' => true,
        'lindex' => true, 'lget' => true, 'lpop' => true, 'rpop' => true, 'lrange' => true, 'lgetrange' => true,
        'rpoplpush' => true, 'brpoplpush' => true, 'lmove' => true, 'blmove' => true, 'blpop' => true, 'brpop' => true,
        'spop' => true, 'srandmember' => true, 'smembers' => true, 'sgetmembers' => true, 'sinter' => true, 'sunion' => true, 'sdiff' => true,
        'hget' => true, 'hmget' => true, 'hgetall' => true, 'hvals' => true,
        'zrange' => true, 'zrevrange' => true, 'zrangebyscore' => true, 'zrevrangebyscore' => true, 'zrangebylex' => true, 'zrevrangebylex' => true,
        'zpopmin' => true, 'zpopmax' => true, 'bzpopmin' => true, 'bzpopmax' => true,
        'xrange' => true, 'xrevrange' => true, 'xread' => true, 'xreadgroup' => true, 'xclaim' => true,
    ];

    private function __construct()
    {
    }

    /**
     * The method's arguments with its values packed.
     *
     * @param list<mixed> $a
     *
     * @return list<mixed>
     */
    public static function pack(string $method, array $a, Codec $codec): array
    {
        $positions = self::PACK[$method] ?? null;
        if (\is_int($positions)) {
            foreach ($a as $i => $value) {
                if ($i >= $positions) {
                    $a[$i] = $codec->pack($value);
                }
            }

            return $a;
        }
        if (\is_array($positions)) {
            foreach ($positions as $i) {
                if (\array_key_exists($i, $a)) {
                    $a[$i] = $codec->pack($a[$i]);
                }
            }

            return $a;
        }

        return match ($method) {
            'mset', 'msetnx' => self::packArray($a, 0, $codec),
            'hmset', 'pfadd', 'saddarray' => self::packArray($a, 1, $codec),
            'xadd' => self::packArray($a, 2, $codec),
            'zadd' => self::packEvery($a, \is_array($a[1] ?? null) ? 3 : 2, 2, $codec),
            'geoadd' => self::packEvery($a, 3, 3, $codec),
            default => $a,
        };
    }

    /**
     * The method's reply reading, followed by unpacking its values.
     *
     * @param Built $built
     *
     * @return Built
     */
    public static function unpackReply(string $method, array $built, Codec $codec): array
    {
        if (!isset(self::UNPACK[$method])) {
            return $built;
        }
        $reply = $built[1];
        $shape = match (true) {
            $method === 'hmget' || $reply === Reply::Assoc => 'assoc',
            $reply === Reply::Scores => 'scores',
            \in_array($method, ['xrange', 'xrevrange', 'xclaim'], true) => 'entries',
            \in_array($method, ['xread', 'xreadgroup'], true) => 'streams',
            default => 'list',
        };
        $built[1] = static function (mixed $raw) use ($reply, $shape, $codec): mixed {
            return self::unpack($reply instanceof Reply ? $reply->apply($raw) : $reply($raw), $shape, $codec);
        };

        return $built;
    }

    /** A converted reply with its values unpacked; $shape says where they are. */
    public static function unpack(mixed $result, string $shape, Codec $codec): mixed
    {
        if (\is_string($result)) {
            return $codec->unpack($result);
        }
        if (!\is_array($result)) {
            return $result;
        }
        switch ($shape) {
            case 'scores':
                $out = [];
                foreach ($result as $member => $score) {
                    $value = $codec->unpack((string) $member);
                    $out[\is_int($value) || \is_string($value) ? $value : Args::value($value)] = $score;
                }

                return $out;
            case 'entries':
                return array_map(static fn (mixed $fields): mixed => self::unpack($fields, 'assoc', $codec), $result);
            case 'streams':
                return array_map(static fn (mixed $entries): mixed => self::unpack($entries, 'entries', $codec), $result);
            default:
                return array_map(static fn (mixed $value): mixed => \is_string($value) ? $codec->unpack($value) : $value, $result);
        }
    }

    /**
     * The values of the array at $at (a map's values, a list's elements).
     *
     * @param list<mixed> $a
     *
     * @return list<mixed>
     */
    private static function packArray(array $a, int $at, Codec $codec): array
    {
        if (isset($a[$at]) && \is_array($a[$at])) {
            $a[$at] = array_map($codec->pack(...), $a[$at]);
        }

        return $a;
    }

    /**
     * Every $step-th argument from $first on (a ZADD member after its score, a GEOADD member after
     * its coordinates).
     *
     * @param list<mixed> $a
     *
     * @return list<mixed>
     */
    private static function packEvery(array $a, int $first, int $step, Codec $codec): array
    {
        for ($i = $first, $n = \count($a); $i < $n; $i += $step) {
            $a[$i] = $codec->pack($a[$i]);
        }

        return array_values($a);
    }
}
