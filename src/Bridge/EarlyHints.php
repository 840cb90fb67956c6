<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Spindle\Http\RunningRequest;

/**
 * 103 Early Hints for code written for FrankenPHP's `headers_send()`: Symfony's
 * `Response::sendHeaders(103)` (what `AbstractController::sendEarlyHints()` calls) sets its fields
 * with `header()` and then calls `headers_send(103)` where that function exists. Under Spindle
 * the CLI SAPI keeps no header list, so src/Bridge/early-hints.php defines `headers_send()` (when
 * no other does) and, in Symfony HttpFoundation's namespace, the `header()`, `header_remove()` and
 * `headers_sent()` its Response calls: inside a request Spindle serves they record the fields on
 * the request (its Loop\Context), and `headers_send()` sends them as an interim response
 * (RunningRequest::sendInformational()); anywhere else (php-fpm, the CLI) they are PHP's own.
 *
 * Set-Cookie is not repeated in an interim response.
 */
final class EarlyHints
{
    private const FIELDS = 'spindle.interim_fields';

    public static function header(string $line, bool $replace = true, int $code = 0): void
    {
        $run = RunningRequest::current();
        if ($run === null) {
            \header($line, $replace, $code);

            return;
        }
        $colon = \strpos($line, ':');
        if ($colon === false) {
            // A status line ("HTTP/1.1 103 Early Hints"): the status is headers_send()'s.
            return;
        }
        $name = \trim(\substr($line, 0, $colon));
        $value = \trim(\substr($line, $colon + 1));
        $fields = $run->context->get(self::FIELDS, []);
        \assert(\is_array($fields));
        $key = \strtolower($name);
        if ($replace || !isset($fields[$key])) {
            $fields[$key] = [$name, [$value]];
        } else {
            $fields[$key][1][] = $value;
        }
        $run->context->set(self::FIELDS, $fields);
    }

    public static function headerRemove(?string $name): void
    {
        $run = RunningRequest::current();
        if ($run === null) {
            $name === null ? \header_remove() : \header_remove($name);

            return;
        }
        $fields = $run->context->get(self::FIELDS, []);
        \assert(\is_array($fields));
        if ($name === null) {
            $fields = [];
        } else {
            unset($fields[\strtolower($name)]);
        }
        $run->context->set(self::FIELDS, $fields);
    }

    public static function headersSent(mixed &$file = null, mixed &$line = null): bool
    {
        if (RunningRequest::current() === null) {
            return \headers_sent($file, $line);
        }

        // A request Spindle serves sends its head when it returns its response.
        return false;
    }

    /** Sends what header() recorded as an interim response with $status; returns $status, or 0 when none went. */
    public static function send(int $status): int
    {
        $run = RunningRequest::current();
        if ($run === null || $status < 100 || $status > 199 || $status === 101) {
            return 0;
        }
        $headers = [];
        $fields = $run->context->get(self::FIELDS, []);
        \assert(\is_array($fields));
        foreach ($fields as $key => [$name, $values]) {
            if ($key !== 'set-cookie' && $key !== 'content-length') {
                $headers[(string) $name] = $values;
            }
        }

        return $run->sendInformational($status, $headers) ? $status : 0;
    }
}
