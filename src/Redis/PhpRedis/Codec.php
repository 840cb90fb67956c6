<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/**
 * @internal phpredis's OPT_SERIALIZER and OPT_COMPRESSION: how a value is written (serialized,
 * then compressed) and read back (uncompressed, then unserialized; a stored string that is not
 * in the format comes back as it is, so counters and values written without the option still
 * read). The bytes are phpredis's: PHP's serialize(), json_encode(), igbinary_serialize() and
 * msgpack_pack() when those extensions are loaded; LZF, LZ4 and ZSTD in PHP (Lzf, Lz4, Zstd; the
 * compression level is recorded, Spindle's compressors have one level).
 */
final class Codec
{
    public const SERIALIZER_NONE = 0;
    public const SERIALIZER_PHP = 1;
    public const SERIALIZER_IGBINARY = 2;
    public const SERIALIZER_MSGPACK = 3;
    public const SERIALIZER_JSON = 4;
    public const COMPRESSION_NONE = 0;
    public const COMPRESSION_LZF = 1;
    public const COMPRESSION_ZSTD = 2;
    public const COMPRESSION_LZ4 = 3;

    public int $serializer = self::SERIALIZER_NONE;
    public int $compression = self::COMPRESSION_NONE;
    public int $level = 0;

    /** Whether values are transformed at all (neither option set: the fast path). */
    public function active(): bool
    {
        return $this->serializer !== self::SERIALIZER_NONE || $this->compression !== self::COMPRESSION_NONE;
    }

    /** Why $serializer cannot be used here, or null when it can. */
    public static function serializerUnavailable(int $serializer): ?string
    {
        return match ($serializer) {
            self::SERIALIZER_NONE, self::SERIALIZER_PHP, self::SERIALIZER_JSON => null,
            self::SERIALIZER_IGBINARY => \function_exists('igbinary_serialize') ? null : 'SERIALIZER_IGBINARY needs PHP\'s igbinary extension, which is not loaded',
            self::SERIALIZER_MSGPACK => \function_exists('msgpack_pack') ? null : 'SERIALIZER_MSGPACK needs PHP\'s msgpack extension, which is not loaded',
            default => "Unknown serializer $serializer",
        };
    }

    /** Why $compression cannot be used here, or null when it can. */
    public static function compressionUnavailable(int $compression): ?string
    {
        return match ($compression) {
            self::COMPRESSION_NONE, self::COMPRESSION_LZF, self::COMPRESSION_LZ4, self::COMPRESSION_ZSTD => null,
            default => "Unknown compression $compression",
        };
    }

    public function pack(mixed $value): string
    {
        return $this->compress($this->serialize($value));
    }

    public function unpack(string $value): mixed
    {
        $uncompressed = $this->uncompress($value);

        return $this->unserialize($uncompressed ?? $value, false);
    }

    public function serialize(mixed $value): string
    {
        return match ($this->serializer) {
            self::SERIALIZER_PHP => serialize($value),
            self::SERIALIZER_JSON => self::json($value),
            self::SERIALIZER_IGBINARY => (string) igbinary_serialize($value),
            self::SERIALIZER_MSGPACK => (string) msgpack_pack($value),
            default => Args::value($value),
        };
    }

    /**
     * phpredis passes 1 as the encoder's flags (meant as "objects as arrays"): JSON_HEX_TAG. What
     * JSON cannot hold (invalid UTF-8, NAN) is written as phpredis writes it: "0" for a float, ""
     * for the rest (phpredis keeps what its encoder wrote before the error, "" for a string).
     */
    private static function json(mixed $value): string
    {
        $json = json_encode($value, \JSON_HEX_TAG);

        return $json !== false ? $json : (\is_float($value) ? '0' : '');
    }

    /**
     * The value $data holds; when it is not in the serializer's format, $data itself, or with
     * $strict a \RedisException (as phpredis's _unserialize()).
     */
    public function unserialize(string $data, bool $strict): mixed
    {
        $ok = true;
        switch ($this->serializer) {
            case self::SERIALIZER_PHP:
                $value = $data === 'b:0;' ? false : @unserialize($data);
                $ok = $value !== false || $data === 'b:0;';
                break;
            case self::SERIALIZER_JSON:
                $value = json_decode($data, true);
                $ok = json_last_error() === \JSON_ERROR_NONE;
                break;
            case self::SERIALIZER_IGBINARY:
                // igbinary's header: format version 1 or 2, big-endian.
                $ok = \strlen($data) > 4 && (str_starts_with($data, "\0\0\0\1") || str_starts_with($data, "\0\0\0\2"));
                $value = $ok ? @igbinary_unserialize($data) : null;
                $ok = $ok && ($value !== null || $data === "\0\0\0\2\0");
                break;
            case self::SERIALIZER_MSGPACK:
                $value = @msgpack_unpack($data);
                break;
            default:
                return $data;
        }
        if ($ok) {
            return $value;
        }
        if ($strict) {
            throw ErrorPolicy::exception('Invalid serialized data, or unserialization error');
        }

        return $data;
    }

    public function compress(string $data): string
    {
        if ($data === '') {
            return $data;
        }

        return match ($this->compression) {
            self::COMPRESSION_LZF => Lzf::compress($data),
            self::COMPRESSION_ZSTD => Zstd::compress($data),
            self::COMPRESSION_LZ4 => Lz4::compress($data),
            default => $data,
        };
    }

    /** The uncompressed bytes, or null when $data is not compressed the configured way. */
    public function uncompress(string $data): ?string
    {
        if ($data === '') {
            return null;
        }

        return match ($this->compression) {
            self::COMPRESSION_LZF => Lzf::decompress($data),
            self::COMPRESSION_ZSTD => Zstd::decompress($data),
            self::COMPRESSION_LZ4 => Lz4::decompress($data),
            default => null,
        };
    }
}
