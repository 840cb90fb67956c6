<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/**
 * @internal phpredis's stream methods (XADD, XRANGE, XREAD, …): their option arguments and the
 * nested associative arrays they return.
 *
 * @phpstan-import-type Built from Builders
 */
final class StreamBuilders
{
    private function __construct()
    {
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built|null
     */
    public static function build(string $method, string $p, array $a): ?array
    {
        return match ($method) {
            'xadd' => self::xadd($p, $a),
            'xrange', 'xrevrange' => self::xrange(strtoupper($method), $p, $a),
            'xread' => self::xread($p, $a, null),
            'xreadgroup' => self::xread($p, \array_slice($a, 2), [Args::value($a[0] ?? ''), Args::value($a[1] ?? '')]),
            'xgroup' => self::xgroup($p, $a),
            'xtrim' => [['XTRIM', $p . Args::value($a[0] ?? ''), 'MAXLEN', ...(!empty($a[2]) ? ['~', Args::value($a[1] ?? 0)] : [Args::value($a[1] ?? 0)])], Reply::Int],
            'xpending' => self::xpending($p, $a),
            'xinfo' => [['XINFO', Args::value($a[0] ?? ''), ...Args::keys($p, \array_slice($a, 1, 1)), ...(isset($a[2])
                ? [Args::value($a[2]), ...((int) ($a[3] ?? 0) > 0 ? ['COUNT', KeyspaceBuilders::int($a[3])] : [])]
                : [])], self::info(...)],
            'xclaim' => self::xclaim($p, $a),
            default => KeyspaceBuilders::build($method, $p, $a),
        };
    }

    /**
     * A stream's entries as phpredis returns them: [id => [field => value]].
     *
     * @return array<string, array<string, mixed>>|false
     */
    public static function entries(mixed $reply): array|false
    {
        if (!\is_array($reply)) {
            return false;
        }
        $entries = [];
        foreach ($reply as $entry) {
            if (\is_array($entry) && isset($entry[0])) {
                $fields = \is_array($entry[1] ?? null) ? Reply::Assoc->apply($entry[1]) : [];
                $entries[(string) $entry[0]] = \is_array($fields) ? $fields : [];
            }
        }

        return $entries;
    }

    /**
     * XINFO's reply as phpredis reads it: field/value arrays as maps (nested too), a list of
     * them (GROUPS, CONSUMERS) as a list of maps, stream entries as [id => [field => value]].
     */
    public static function info(mixed $reply, ?string $field = null): mixed
    {
        if (!\is_array($reply)) {
            return $reply === null ? null : Reply::raw($reply);
        }
        if ($field === 'first-entry' || $field === 'last-entry') {
            return self::entries([$reply]);
        }
        if ($field === 'entries') {
            return array_map(static fn (mixed $entry): mixed => self::entries([$entry]), $reply);
        }
        if ($reply !== [] && array_filter($reply, \is_array(...)) === $reply) {
            return array_map(static fn (mixed $item): mixed => self::info($item), $reply);
        }
        $map = [];
        for ($i = 0, $n = \count($reply) - 1; $i < $n; $i += 2) {
            $key = Reply::raw($reply[$i]);
            $key = \is_int($key) || \is_string($key) ? $key : Args::value($key);
            $map[$key] = self::info($reply[$i + 1], (string) $key);
        }

        return $map;
    }

    /**
     * xClaim($key, $group, $consumer, $minIdle, array $ids, array $options): options IDLE, TIME,
     * RETRYCOUNT (with values), FORCE, JUSTID; the claimed entries, or their ids with JUSTID.
     *
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function xclaim(string $p, array $a): array
    {
        $command = ['XCLAIM', $p . Args::value($a[0] ?? ''), Args::value($a[1] ?? ''), Args::value($a[2] ?? ''), KeyspaceBuilders::int($a[3] ?? 0), ...Args::values((array) ($a[4] ?? []))];
        $justId = false;
        foreach (\is_array($a[5] ?? null) ? $a[5] : [] as $option => $value) {
            if (\is_string($option)) {
                $name = strtoupper($option);
                if (\in_array($name, ['IDLE', 'TIME', 'RETRYCOUNT'], true)) {
                    array_push($command, $name, KeyspaceBuilders::int($value));
                }
                continue;
            }
            $flag = strtoupper(Args::value($value));
            if ($flag === 'FORCE' || $flag === 'JUSTID') {
                $command[] = $flag;
                $justId = $justId || $flag === 'JUSTID';
            }
        }

        return [$command, $justId ? Reply::List : self::entries(...)];
    }

    /**
     * xAdd($key, $id, array $fields, $maxLen = 0, $approximate = false, $noMkStream = false)
     *
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function xadd(string $p, array $a): array
    {
        $command = ['XADD', $p . Args::value($a[0] ?? '')];
        if (!empty($a[5])) {
            $command[] = 'NOMKSTREAM';
        }
        if ((int) ($a[3] ?? 0) > 0) {
            array_push($command, 'MAXLEN', ...(!empty($a[4]) ? ['~', (string) (int) $a[3]] : [(string) (int) $a[3]]));
        }
        $command[] = Args::value($a[1] ?? '*');

        return [[...$command, ...Builders::pairs('', (array) ($a[2] ?? []))], Reply::Str];
    }

    /**
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function xrange(string $name, string $p, array $a): array
    {
        $command = [$name, $p . Args::value($a[0] ?? ''), Args::value($a[1] ?? '-'), Args::value($a[2] ?? '+')];
        if ((int) ($a[3] ?? -1) >= 0) {
            array_push($command, 'COUNT', (string) (int) $a[3]);
        }

        return [$command, self::entries(...)];
    }

    /**
     * xRead(array $streams, $count = -1, $block = -1); xReadGroup($group, $consumer, array $streams, $count, $block)
     *
     * @param list<mixed> $a
     * @param array{string, string}|null $group
     *
     * @return Built
     */
    private static function xread(string $p, array $a, ?array $group): array
    {
        if ($group !== null && ((isset($a[1]) && (int) $a[1] < 0) || (isset($a[2]) && (int) $a[2] < 0))) {
            trigger_error('Redis::xreadgroup(): Negative values for COUNT or BLOCK are illegal.', \E_USER_WARNING);

            return [[], static fn (): bool => false];
        }
        $command = $group === null ? ['XREAD'] : ['XREADGROUP', 'GROUP', $group[0], $group[1]];
        if ((int) ($a[1] ?? -1) >= 0 && !($group === null && (int) ($a[1] ?? -1) === 0)) {
            array_push($command, 'COUNT', (string) (int) $a[1]);
        }
        if (isset($a[2]) && (int) $a[2] >= 0) {
            array_push($command, 'BLOCK', (string) (int) $a[2]);
        }
        $streams = (array) ($a[0] ?? []);
        $command[] = 'STREAMS';
        foreach (array_keys($streams) as $stream) {
            $command[] = $p . $stream;
        }
        foreach ($streams as $id) {
            $command[] = Args::value($id);
        }

        return [$command, static function (mixed $reply): mixed {
            if (!\is_array($reply)) {
                return $reply === null ? [] : Reply::raw($reply);
            }
            $out = [];
            foreach ($reply as $stream) {
                if (\is_array($stream) && isset($stream[0])) {
                    $out[(string) $stream[0]] = self::entries($stream[1] ?? []);
                }
            }

            return $out;
        }];
    }

    /**
     * xGroup('CREATE', $key, $group, $id, $mkStream) and the other subcommands.
     *
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function xgroup(string $p, array $a): array
    {
        $sub = strtoupper(Args::value($a[0] ?? ''));
        $command = ['XGROUP', $sub];
        if ($sub === 'HELP') {
            return [$command, Reply::Raw];
        }
        $command[] = $p . Args::value($a[1] ?? '');
        if ($sub === 'CREATE') {
            array_push($command, Args::value($a[2] ?? ''), Args::value($a[3] ?? '$'));
            if (!empty($a[4])) {
                $command[] = 'MKSTREAM';
            }

            return [$command, Reply::Bool];
        }
        array_push($command, ...Args::values(\array_slice($a, 2)));

        return [$command, $sub === 'SETID' ? Reply::Bool : Reply::Int];
    }

    /**
     * xPending($key, $group, $start = null, $end = null, $count = -1, $consumer = null)
     *
     * @param list<mixed> $a
     *
     * @return Built
     */
    private static function xpending(string $p, array $a): array
    {
        $command = ['XPENDING', $p . Args::value($a[0] ?? ''), Args::value($a[1] ?? '')];
        if (isset($a[2], $a[3])) {
            array_push($command, Args::value($a[2]), Args::value($a[3]), (string) (int) ($a[4] ?? -1));
            if (isset($a[5])) {
                $command[] = Args::value($a[5]);
            }
        }

        return [$command, Reply::Raw];
    }
}
