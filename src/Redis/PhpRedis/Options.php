<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/**
 * @internal The phpredis facade's setOption()/getOption() state, with phpredis's answers: true
 * for an accepted value, false for one it refuses (an unknown serializer, compression, SCAN or
 * backoff mode), false from getOption() for an unknown option.
 */
final class Options
{
    public const OPT_SERIALIZER = 1;
    public const OPT_PREFIX = 2;
    public const OPT_READ_TIMEOUT = 3;
    public const OPT_SCAN = 4;
    public const OPT_TCP_KEEPALIVE = 6;
    public const OPT_COMPRESSION = 7;
    public const OPT_REPLY_LITERAL = 8;
    public const OPT_COMPRESSION_LEVEL = 9;
    public const OPT_NULL_MULTIBULK_AS_NULL = 10;
    public const OPT_MAX_RETRIES = 11;
    public const OPT_BACKOFF_ALGORITHM = 12;
    public const OPT_BACKOFF_BASE = 13;
    public const OPT_BACKOFF_CAP = 14;
    public const SCAN_NORETRY = 0;
    public const SCAN_RETRY = 1;
    public const SCAN_PREFIX = 2;
    public const SCAN_NOPREFIX = 3;

    public readonly Codec $codec;
    /** no serializer, compression, OPT_REPLY_LITERAL or OPT_NULL_MULTIBULK_AS_NULL: replies read as they are */
    public bool $plain = true;
    public string $prefix = '';
    public float $readTimeout;
    public int $scanRetry = self::SCAN_NORETRY;
    public bool $scanPrefix = false;
    public bool $replyLiteral = false;
    public bool $nullMultibulkAsNull = false;
    /** recorded and reported: Spindle's client reconnects on the next command by itself */
    private int $tcpKeepalive = 0;
    private int $maxRetries = 10;
    private int $backoffAlgorithm = 0;
    private int $backoffBase = 0;
    private int $backoffCap = 0;

    public function __construct(float $readTimeout)
    {
        $this->codec = new Codec();
        $this->readTimeout = $readTimeout;
    }

    public function set(int $option, mixed $value): bool
    {
        $set = $this->apply($option, $value);
        $this->plain = !$this->codec->active() && !$this->replyLiteral && !$this->nullMultibulkAsNull;

        return $set;
    }

    /**
     * The method's arguments with its values serialized and compressed.
     *
     * @param list<mixed> $arguments
     *
     * @return list<mixed>
     */
    public function packArguments(string $method, array $arguments): array
    {
        return $this->codec->active() ? Values::pack($method, $arguments, $this->codec) : $arguments;
    }

    /**
     * The method's reply reading with its values read back and the reply options applied.
     *
     * @param array{list<string>, Reply|\Closure(mixed): mixed} $built
     *
     * @return array{list<string>, Reply|\Closure(mixed): mixed}
     */
    public function replies(string $method, array $built): array
    {
        if ($this->codec->active()) {
            $built = Values::unpackReply($method, $built, $this->codec);
        }

        return $this->replyLiteral || $this->nullMultibulkAsNull ? $this->literalReplies($method, $built) : $built;
    }

    private function apply(int $option, mixed $value): bool
    {
        switch ($option) {
            case self::OPT_PREFIX:
                $this->prefix = Args::value($value);

                return true;
            case self::OPT_READ_TIMEOUT:
                $this->readTimeout = (float) $value;

                return true;
            case self::OPT_SCAN:
                $value = (int) $value;
                if ($value === self::SCAN_PREFIX || $value === self::SCAN_NOPREFIX) {
                    $this->scanPrefix = $value === self::SCAN_PREFIX;
                } elseif ($value === self::SCAN_RETRY || $value === self::SCAN_NORETRY) {
                    $this->scanRetry = $value;
                } else {
                    return false;
                }

                return true;
            case self::OPT_SERIALIZER:
                $value = (int) $value;
                if (!\in_array($value, [Codec::SERIALIZER_NONE, Codec::SERIALIZER_PHP, Codec::SERIALIZER_IGBINARY, Codec::SERIALIZER_MSGPACK, Codec::SERIALIZER_JSON], true)) {
                    return false;
                }
                $missing = Codec::serializerUnavailable($value);
                if ($missing !== null) {
                    throw ErrorPolicy::exception($missing);
                }
                $this->codec->serializer = $value;

                return true;
            case self::OPT_COMPRESSION:
                $value = (int) $value;
                if (!\in_array($value, [Codec::COMPRESSION_NONE, Codec::COMPRESSION_LZF, Codec::COMPRESSION_ZSTD, Codec::COMPRESSION_LZ4], true)) {
                    return false;
                }
                $missing = Codec::compressionUnavailable($value);
                if ($missing !== null) {
                    throw ErrorPolicy::exception($missing);
                }
                $this->codec->compression = $value;

                return true;
            case self::OPT_COMPRESSION_LEVEL:
                $this->codec->level = (int) $value;

                return true;
            case self::OPT_REPLY_LITERAL:
                $this->replyLiteral = (bool) $value;

                return true;
            case self::OPT_NULL_MULTIBULK_AS_NULL:
                $this->nullMultibulkAsNull = (bool) $value;

                return true;
            case self::OPT_TCP_KEEPALIVE:
                $this->tcpKeepalive = (int) $value;

                return true;
            case self::OPT_MAX_RETRIES:
                $this->maxRetries = (int) $value;

                return true;
            case self::OPT_BACKOFF_ALGORITHM:
                $value = (int) $value;
                if ($value < 0 || $value > 6) {
                    return false;
                }
                $this->backoffAlgorithm = $value;

                return true;
            case self::OPT_BACKOFF_BASE:
                $this->backoffBase = (int) $value;

                return true;
            case self::OPT_BACKOFF_CAP:
                $this->backoffCap = (int) $value;

                return true;
            default:
                return false;
        }
    }

    /**
     * OPT_REPLY_LITERAL (status replies of raw commands as their text) and
     * OPT_NULL_MULTIBULK_AS_NULL (a nil array as null, not []) applied to a method's reply. A
     * RESP2 nil array reads as null like a nil bulk string, so the latter applies where a reply
     * can only be an array: blocking pops (timed out) and GEOPOS's positions.
     *
     * @param array{list<string>, Reply|\Closure(mixed): mixed} $built
     *
     * @return array{list<string>, Reply|\Closure(mixed): mixed}
     */
    public function literalReplies(string $method, array $built): array
    {
        if ($this->replyLiteral && $built[1] === Reply::Raw) {
            $built[1] = static fn (mixed $raw): mixed => Reply::literal($raw);
        }
        if ($this->nullMultibulkAsNull) {
            $reply = $built[1];
            if (\in_array($method, ['blpop', 'brpop', 'bzpopmin', 'bzpopmax'], true)) {
                $built[1] = static fn (mixed $raw): mixed => $raw === null ? null : ($reply instanceof Reply ? $reply->apply($raw) : $reply($raw));
            } elseif ($method === 'geopos') {
                $built[1] = static fn (mixed $raw): mixed => \is_array($raw) ? array_map(static fn (mixed $p): mixed => $p === null ? null : Reply::raw($p), $raw) : Reply::raw($raw);
            }
        }

        return $built;
    }

    public function get(int $option): mixed
    {
        return match ($option) {
            self::OPT_PREFIX => $this->prefix === '' ? null : $this->prefix,
            self::OPT_READ_TIMEOUT => $this->readTimeout,
            self::OPT_SCAN => $this->scanRetry,
            self::OPT_SERIALIZER => $this->codec->serializer,
            self::OPT_COMPRESSION => $this->codec->compression,
            self::OPT_COMPRESSION_LEVEL => $this->codec->level,
            self::OPT_REPLY_LITERAL => (int) $this->replyLiteral,
            self::OPT_NULL_MULTIBULK_AS_NULL => (int) $this->nullMultibulkAsNull,
            self::OPT_TCP_KEEPALIVE => $this->tcpKeepalive,
            self::OPT_MAX_RETRIES => $this->maxRetries,
            self::OPT_BACKOFF_ALGORITHM => $this->backoffAlgorithm,
            self::OPT_BACKOFF_BASE => $this->backoffBase,
            self::OPT_BACKOFF_CAP => $this->backoffCap,
            default => false,
        };
    }
}
