<?php

declare(strict_types=1);

namespace Spindle\Redis\Protocol;

/** Encodes commands as RESP arrays of bulk strings, the only form a client sends. */
final class RespEncoder
{
    private function __construct()
    {
    }

    /** @param list<string|int|float> $arguments the command name first */
    public static function command(array $arguments): string
    {
        $out = '*' . \count($arguments) . "\r\n";
        foreach ($arguments as $argument) {
            $argument = (string) $argument;
            $out .= '$' . \strlen($argument) . "\r\n" . $argument . "\r\n";
        }

        return $out;
    }
}
