<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * Decoders for application/x-www-form-urlencoded bodies and Cookie headers, producing the
 * same arrays PHP produces for $_POST and $_COOKIE (names nested by {@see FormNames}).
 */
final class FormBody
{
    private function __construct()
    {
    }

    /**
     * Decodes an urlencoded body like parse_str() with the default "&" separator: empty
     * pairs are skipped, "+" and %XX are decoded in names and values, a pair without "="
     * has the value "". Every non-empty pair counts towards $maxVars; more than that is a
     * 413 rather than PHP's silent truncation.
     *
     * @return array<array-key, mixed>
     *
     * @throws HttpException 413 when the body holds more than $maxVars variables
     */
    public static function parseUrlEncoded(string $body, int $maxVars = 1000): array
    {
        $result = [];
        $count = 0;
        foreach (\explode('&', $body) as $pair) {
            if ($pair === '') {
                continue;
            }
            if (++$count > $maxVars) {
                throw new HttpException(413, \sprintf('Form body has more than %d variables', $maxVars));
            }
            $eq = \strpos($pair, '=');
            if ($eq === false) {
                $name = \urldecode($pair);
                $value = '';
            } else {
                $name = \urldecode(\substr($pair, 0, $eq));
                $value = \urldecode(\substr($pair, $eq + 1));
            }
            FormNames::assign($result, $name, $value);
        }

        return $result;
    }

    /**
     * Decodes a Cookie header the way PHP fills $_COOKIE: pairs are split on ";" and
     * trimmed, names are taken as sent (not decoded) and nested by {@see FormNames}, values
     * are rawurldecode()d ("+" stays "+"), the first occurrence of a name wins, and a pair
     * without "=" has the value "". Pairs with an empty name are skipped.
     *
     * @return array<array-key, mixed>
     */
    public static function parseCookies(string $cookieHeader): array
    {
        $result = [];
        foreach (\explode(';', $cookieHeader) as $pair) {
            $pair = \trim($pair, " \t\n\r\v\f");
            if ($pair === '' || $pair[0] === '=') {
                continue;
            }
            $eq = \strpos($pair, '=');
            if ($eq === false) {
                $name = $pair;
                $value = '';
            } else {
                $name = \substr($pair, 0, $eq);
                $value = \rawurldecode(\substr($pair, $eq + 1));
            }
            FormNames::assign($result, $name, $value, keepExisting: true);
        }

        return $result;
    }
}
