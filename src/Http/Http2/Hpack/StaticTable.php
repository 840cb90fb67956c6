<?php

declare(strict_types=1);

namespace Spindle\Http\Http2\Hpack;

/** HPACK's static table (RFC 7541 Appendix A): index 1..61. */
final class StaticTable
{
    /** @var list<array{string, string}> Entry i at position i - 1. */
    public const ENTRIES = [
        [':authority', ''], [':method', 'GET'], [':method', 'POST'], [':path', '/'],
        [':path', '/index.html'], [':scheme', 'http'], [':scheme', 'https'], [':status', '200'],
        [':status', '204'], [':status', '206'], [':status', '304'], [':status', '400'],
        [':status', '404'], [':status', '500'], ['accept-charset', ''], ['accept-encoding', 'gzip, deflate'],
        ['accept-language', ''], ['accept-ranges', ''], ['accept', ''], ['access-control-allow-origin', ''],
        ['age', ''], ['allow', ''], ['authorization', ''], ['cache-control', ''],
        ['content-disposition', ''], ['content-encoding', ''], ['content-language', ''], ['content-length', ''],
        ['content-location', ''], ['content-range', ''], ['content-type', ''], ['cookie', ''],
        ['date', ''], ['etag', ''], ['expect', ''], ['expires', ''],
        ['from', ''], ['host', ''], ['if-match', ''], ['if-modified-since', ''],
        ['if-none-match', ''], ['if-range', ''], ['if-unmodified-since', ''], ['last-modified', ''],
        ['link', ''], ['location', ''], ['max-forwards', ''], ['proxy-authenticate', ''],
        ['proxy-authorization', ''], ['range', ''], ['referer', ''], ['refresh', ''],
        ['retry-after', ''], ['server', ''], ['set-cookie', ''], ['strict-transport-security', ''],
        ['transfer-encoding', ''], ['user-agent', ''], ['vary', ''], ['via', ''],
        ['www-authenticate', ''],
    ];

    public const SIZE = 61;

    /** @var array<string, int>|null "name\0value" => lowest index with that pair. */
    private static ?array $pairs = null;
    /** @var array<string, int> name => lowest index with that name. */
    private static array $names = [];

    /** @return array<string, int> */
    public static function pairs(): array
    {
        if (self::$pairs === null) {
            self::index();
        }

        return self::$pairs ?? [];
    }

    /** @return array<string, int> */
    public static function names(): array
    {
        if (self::$pairs === null) {
            self::index();
        }

        return self::$names;
    }

    private static function index(): void
    {
        $pairs = [];
        $names = [];
        foreach (self::ENTRIES as $i => [$name, $value]) {
            $pairs[$name . "\0" . $value] ??= $i + 1;
            $names[$name] ??= $i + 1;
        }
        self::$pairs = $pairs;
        self::$names = $names;
    }
}
