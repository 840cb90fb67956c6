<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

use Spindle\Redis\Protocol\Aggregate;
use Spindle\Redis\Protocol\ErrorReply;
use Spindle\Redis\Protocol\Map;
use Spindle\Redis\Protocol\Status;
use Spindle\Redis\Protocol\Verbatim;

/**
 * @internal How phpredis turns a command's reply into PHP values: `true` for OK, `false` for a
 * nil bulk reply, associative arrays for HGETALL, float scores, …
 */
enum Reply
{
    /** As phpredis's generic handling: status → true, nil → false, nested as-is. */
    case Raw;
    /** OK / 1 → true, nil / 0 → false */
    case Bool;
    /** an integer; nil → false */
    case Int;
    /** a bulk string; nil → false */
    case Str;
    /** a number sent as a bulk string (INCRBYFLOAT, ZSCORE) → float; nil → false */
    case Float;
    /** an array, nil elements → false */
    case List;
    /** a flat field/value array → [field => value] */
    case Assoc;
    /** a flat member/score array → [member => float] */
    case Scores;
    /** a status text → Redis::REDIS_* type constant */
    case Type;
    /** INFO's text → [name => value] */
    case Info;
    /** a status reply's text (PING → "+PONG" keeps phpredis's true) */
    case Status;
    /** SET: OK (or, with GET, any value) → true, nil (NX/XX not met) → false, as phpredis 5 */
    case Set;
    /** ZRANK and friends: int, nil → false */
    case Rank;

    public function apply(mixed $reply): mixed
    {
        if ($reply instanceof ErrorReply) {
            return false;
        }

        return match ($this) {
            self::Raw => self::raw($reply),
            self::Bool, self::Set => $reply instanceof Status ? $reply->isOk() : ($reply === null ? false : (bool) $reply),
            self::Int, self::Rank => \is_int($reply) ? $reply : false,
            self::Str => $reply === null ? false : self::raw($reply),
            self::Float => $reply === null ? false : (\is_string($reply) ? self::float($reply) : (\is_int($reply) ? (float) $reply : $reply)),
            self::List => \is_array($reply) ? array_map(static fn (mixed $item): mixed => $item === null ? false : self::raw($item), $reply) : ($reply === null ? [] : self::raw($reply)),
            self::Assoc => self::pairs($reply, false),
            self::Scores => self::pairs($reply, true),
            self::Type => self::type($reply),
            self::Info => self::info($reply),
            self::Status => $reply instanceof Status ? ($reply->value === 'OK' || $reply->value === 'PONG' ? true : $reply->value) : self::raw($reply),
        };
    }

    /** raw() with OPT_REPLY_LITERAL: a status reply is its text ("OK", "PONG"). */
    public static function literal(mixed $reply): mixed
    {
        return match (true) {
            $reply instanceof Status => $reply->value,
            \is_array($reply) => array_map(self::literal(...), $reply),
            default => self::raw($reply),
        };
    }

    /** phpredis's generic conversion (rawCommand, EVAL): any status → true, nil → false. */
    public static function raw(mixed $reply): mixed
    {
        return match (true) {
            $reply instanceof Status => true,
            $reply === null => false,
            \is_array($reply) => array_map(self::raw(...), $reply),
            $reply instanceof ErrorReply => false,
            $reply instanceof Map => array_map(self::raw(...), $reply->toArray()),
            $reply instanceof Aggregate => array_map(self::raw(...), $reply->items),
            $reply instanceof Verbatim => $reply->text,
            default => $reply,
        };
    }

    public static function float(string $value): float
    {
        return match (strtolower($value)) {
            'inf', '+inf' => INF,
            '-inf' => -INF,
            default => (float) $value,
        };
    }

    /** @return array<int|string, mixed>|false */
    private static function pairs(mixed $reply, bool $scores): array|false
    {
        if ($reply instanceof Map) {
            $reply = array_merge(...array_map(static fn (array $pair): array => $pair, $reply->pairs));
        }
        if (!\is_array($reply)) {
            return false;
        }
        $result = [];
        for ($i = 0, $n = \count($reply) - 1; $i < $n; $i += 2) {
            $key = self::raw($reply[$i]);
            $value = $reply[$i + 1];
            $result[\is_int($key) || \is_string($key) ? $key : (string) json_encode($key)] = $scores && \is_string($value) ? self::float($value) : self::raw($value);
        }

        return $result;
    }

    private static function type(mixed $reply): int
    {
        $name = $reply instanceof Status ? $reply->value : (\is_string($reply) ? $reply : 'none');

        return match ($name) {
            'string' => 1,
            'set' => 2,
            'list' => 3,
            'zset' => 4,
            'hash' => 5,
            'stream' => 6,
            default => 0,
        };
    }

    /** @return array<string, string|int|float>|false */
    private static function info(mixed $reply): array|false
    {
        if ($reply instanceof Verbatim) {
            $reply = $reply->text;
        }
        if (!\is_string($reply)) {
            return false;
        }
        $info = [];
        foreach (preg_split('/\r?\n/', $reply) ?: [] as $line) {
            if ($line === '' || $line[0] === '#' || !str_contains($line, ':')) {
                continue;
            }
            [$name, $value] = explode(':', $line, 2);
            $info[$name] = is_numeric($value) && preg_match('/^-?\d+$/', $value) === 1 && \strlen($value) < 19 ? (int) $value : (is_numeric($value) ? (float) $value : $value);
        }

        return $info;
    }
}
