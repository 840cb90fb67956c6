<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/**
 * @internal phpredis's SCAN, HSCAN, SSCAN and ZSCAN iteration: a by-reference iterator (null to
 * start, 0 once finished, then the method returns false) and, with SCAN_RETRY, no empty batches
 * before the end.
 */
final class Scanner
{
    private function __construct()
    {
    }

    /**
     * @param list<string> $command the command and its key, without the cursor
     * @param \Closure(list<string>): mixed $run runs a command, its reply as phpredis's raw form
     * @param-out int $iterator
     *
     * @return array<int|string, mixed>|false
     */
    public static function scan(array $command, mixed &$iterator, ?string $pattern, int $count, ?string $type, Reply $reply, bool $retry, \Closure $run): array|false
    {
        if ($iterator === 0 || $iterator === '0') {
            $iterator = 0;

            return false;
        }
        $cursor = $iterator === null ? '0' : Args::value($iterator);
        do {
            $arguments = [...$command, $cursor];
            if ($pattern !== null && $pattern !== '') {
                array_push($arguments, 'MATCH', $pattern);
            }
            if ($count > 0) {
                array_push($arguments, 'COUNT', (string) $count);
            }
            if ($type !== null) {
                array_push($arguments, 'TYPE', $type);
            }
            $raw = $run($arguments);
            if (!\is_array($raw) || \count($raw) !== 2) {
                $iterator = 0;

                return false;
            }
            $cursor = (string) $raw[0];
            $items = $reply->apply($raw[1]);
        } while ($retry && $items === [] && $cursor !== '0');
        $iterator = (int) $cursor;

        return \is_array($items) ? $items : false;
    }
}
