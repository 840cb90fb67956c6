<?php

declare(strict_types=1);

// 103 Early Hints for code written for headers_send() (Spindle\Bridge\EarlyHints says how).

namespace Symfony\Component\HttpFoundation {
    use Spindle\Bridge\EarlyHints;

    if (!\function_exists(__NAMESPACE__ . '\header')) {
        function header(string $header, bool $replace = true, int $response_code = 0): void
        {
            EarlyHints::header($header, $replace, $response_code);
        }

        function header_remove(?string $name = null): void
        {
            EarlyHints::headerRemove($name);
        }

        function headers_sent(mixed &$filename = null, mixed &$line = null): bool
        {
            return EarlyHints::headersSent($filename, $line);
        }
    }
}

namespace {
    use Spindle\Bridge\EarlyHints;

    if (!\function_exists('headers_send')) {
        /** Sends the fields set with header() as an interim response (FrankenPHP's name; 103 Early Hints). */
        function headers_send(int $status = 103): int
        {
            return EarlyHints::send($status);
        }
    }
}
