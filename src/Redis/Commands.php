<?php

declare(strict_types=1);

namespace Spindle\Redis;

/**
 * @internal What the client must know about commands to route them: which ones block the
 * connection (and for how long), and which ones need one connection for a whole session.
 */
final class Commands
{
    /** command => index of the timeout argument (seconds; negative counts from the end) */
    private const BLOCKING = [
        'BLPOP' => -1, 'BRPOP' => -1, 'BRPOPLPUSH' => -1, 'BLMOVE' => -1,
        'BZPOPMIN' => -1, 'BZPOPMAX' => -1, 'BLMPOP' => 1, 'BZMPOP' => 1,
    ];
    private const SESSION = ['MULTI', 'EXEC', 'DISCARD', 'WATCH', 'UNWATCH', 'SUBSCRIBE', 'PSUBSCRIBE', 'SSUBSCRIBE',
        'UNSUBSCRIBE', 'PUNSUBSCRIBE', 'SUNSUBSCRIBE', 'MONITOR', 'SELECT', 'QUIT', 'RESET', 'HELLO', 'AUTH'];

    private function __construct()
    {
    }

    /**
     * How long the server may hold this command's reply back: null when it answers at once,
     * 0.0 for no limit, else seconds.
     *
     * @param list<string|int|float> $arguments
     */
    public static function blockingTimeout(array $arguments): ?float
    {
        $name = strtoupper((string) $arguments[0]);
        if (isset(self::BLOCKING[$name])) {
            $index = self::BLOCKING[$name];
            $value = $arguments[$index < 0 ? \count($arguments) + $index : $index] ?? 0;

            return max(0.0, (float) $value);
        }
        if ($name === 'XREAD' || $name === 'XREADGROUP') {
            foreach ($arguments as $i => $argument) {
                if (\is_string($argument) && strtoupper($argument) === 'BLOCK') {
                    return max(0.0, (float) ($arguments[$i + 1] ?? 0) / 1000);
                }
                if (\is_string($argument) && strtoupper($argument) === 'STREAMS') {
                    break;
                }
            }

            return null;
        }
        if ($name === 'WAIT' || $name === 'WAITAOF') {
            return max(0.0, (float) ($arguments[\count($arguments) - 1]) / 1000);
        }

        return null;
    }

    /** Whether the command changes the connection's session, so it cannot run on the shared one. */
    public static function needsSession(string $name): bool
    {
        return \in_array(strtoupper($name), self::SESSION, true);
    }
}
