<?php

declare(strict_types=1);

namespace Spindle\Redis\Protocol;

/**
 * Sans-I/O RESP2/RESP3 reply parser: bytes go in through push(), which returns the replies they
 * completed, in order. It never touches a socket and keeps no state outside the object.
 *
 * Values: bulk strings are PHP strings, simple strings {@see Status}, integers int, doubles float,
 * booleans bool, nulls (RESP2's `$-1`/`*-1` and RESP3's `_`) null, arrays lists, errors (`-`, `!`)
 * {@see ErrorReply} values, maps {@see Map}, sets and push messages {@see Aggregate}, verbatim
 * strings {@see Verbatim}, big numbers {@see BigNumber}. Attributes (`|`) are read and dropped.
 *
 * Anything that is not RESP, a bulk string announced longer than $maxBulkLength, a line longer
 * than $maxLineLength or nesting deeper than $maxDepth raises ProtocolException before anything is
 * allocated for it; after that the parser refuses more input (the stream cannot be resynchronised).
 */
final class RespParser
{
    public const DEFAULT_MAX_BULK_LENGTH = 256 << 20;
    private const COMPACT_AFTER = 65536;

    private string $buffer = '';
    private int $offset = 0;
    /** @var array<int, string> type bytes of the open aggregates, outermost first */
    private array $types = [];
    /** @var array<int, int> elements each open aggregate still waits for */
    private array $due = [];
    /** @var array<int, list<mixed>> elements each open aggregate has so far */
    private array $items = [];
    private int $depth = 0;
    private ?string $failure = null;

    public function __construct(
        private readonly int $maxBulkLength = self::DEFAULT_MAX_BULK_LENGTH,
        private readonly int $maxLineLength = 1 << 20,
        private readonly int $maxDepth = 256,
    ) {
    }

    /**
     * @return list<mixed> the replies these bytes completed
     *
     * @throws ProtocolException
     */
    public function push(string $bytes): array
    {
        if ($this->failure !== null) {
            throw new ProtocolException('The Redis reply stream is unusable after an earlier protocol error: ' . $this->failure);
        }
        if ($this->buffer === '') {
            $this->buffer = $bytes;
        } else {
            $this->buffer .= $bytes;
        }
        try {
            $replies = $this->parse();
        } catch (ProtocolException $e) {
            $this->failure = $e->getMessage();
            $this->buffer = '';
            $this->offset = 0;
            $this->types = $this->due = $this->items = [];
            $this->depth = 0;
            throw $e;
        }
        if ($this->offset === \strlen($this->buffer)) {
            $this->buffer = '';
            $this->offset = 0;
        } elseif ($this->offset > self::COMPACT_AFTER) {
            $this->buffer = substr($this->buffer, $this->offset);
            $this->offset = 0;
        }

        return $replies;
    }

    /** Whether a reply is partly received (bytes buffered or an aggregate open). */
    public function isPartial(): bool
    {
        return $this->offset < \strlen($this->buffer) || $this->depth > 0;
    }

    /** @return list<mixed> */
    private function parse(): array
    {
        $replies = [];
        $buffer = $this->buffer;
        $length = \strlen($buffer);
        while ($this->offset < $length) {
            $start = $this->offset;
            $end = strpos($buffer, "\r\n", $start);
            if ($end === false) {
                if ($length - $start > $this->maxLineLength) {
                    throw new ProtocolException(sprintf('Redis reply line longer than %d bytes without CRLF', $this->maxLineLength));
                }
                break;
            }
            $type = $buffer[$start];
            $line = substr($buffer, $start + 1, $end - $start - 1);
            $next = $end + 2;
            switch ($type) {
                case '$':
                case '!':
                case '=':
                    $size = self::integer($line, 'bulk length');
                    if ($size === -1 && $type === '$') {
                        $value = null;
                        break;
                    }
                    if ($size < 0) {
                        throw new ProtocolException(sprintf('Invalid Redis bulk length %d', $size));
                    }
                    if ($size > $this->maxBulkLength) {
                        throw new ProtocolException(sprintf('Redis announced a %d-byte bulk reply, over the limit of %d bytes (max_bulk_length)', $size, $this->maxBulkLength));
                    }
                    if ($length < $next + $size + 2) {
                        break 2;
                    }
                    if ($buffer[$next + $size] !== "\r" || $buffer[$next + $size + 1] !== "\n") {
                        throw new ProtocolException('Redis bulk reply not terminated by CRLF');
                    }
                    $data = substr($buffer, $next, $size);
                    $next += $size + 2;
                    if ($type === '$') {
                        $value = $data;
                    } elseif ($type === '!') {
                        $value = new ErrorReply($data);
                    } else {
                        if ($size < 4 || $data[3] !== ':') {
                            throw new ProtocolException('Malformed Redis verbatim string');
                        }
                        $value = new Verbatim(substr($data, 0, 3), substr($data, 4));
                    }
                    break;
                case '+':
                    $value = new Status($line);
                    break;
                case '-':
                    $value = new ErrorReply($line);
                    break;
                case ':':
                    $value = self::integer($line, 'integer');
                    break;
                case ',':
                    $value = self::double($line);
                    break;
                case '#':
                    $value = match ($line) {
                        't' => true,
                        'f' => false,
                        default => throw new ProtocolException('Malformed Redis boolean ' . self::show($line)),
                    };
                    break;
                case '_':
                    if ($line !== '') {
                        throw new ProtocolException('Malformed Redis null ' . self::show($line));
                    }
                    $value = null;
                    break;
                case '(':
                    if (preg_match('/^-?\d+$/D', $line) !== 1) {
                        throw new ProtocolException('Malformed Redis big number ' . self::show($line));
                    }
                    $value = new BigNumber($line);
                    break;
                case '*':
                case '%':
                case '~':
                case '>':
                case '|':
                    $count = self::integer($line, 'aggregate length');
                    if ($count === -1 && ($type === '*' || $type === '%')) {
                        $value = null;
                        break;
                    }
                    if ($count < 0 || $count > 0x7fffffff) {
                        throw new ProtocolException(sprintf('Invalid Redis aggregate length %d', $count));
                    }
                    if ($type === '%' || $type === '|') {
                        $count *= 2;
                    }
                    if ($count > 0) {
                        if ($this->depth >= $this->maxDepth) {
                            throw new ProtocolException(sprintf('Redis reply nested deeper than %d levels', $this->maxDepth));
                        }
                        $this->types[] = $type;
                        $this->due[] = $count;
                        $this->items[] = [];
                        ++$this->depth;
                        $this->offset = $next;
                        continue 2;
                    }
                    $value = self::aggregate($type, []);
                    if ($type === '|') {
                        $this->offset = $next;
                        continue 2;
                    }
                    break;
                default:
                    throw new ProtocolException('Invalid Redis reply type byte ' . self::show($type));
            }
            $this->offset = $next;
            // Hand the value to the innermost open aggregate, closing those it completes.
            while (true) {
                if ($this->depth === 0) {
                    $replies[] = $value;
                    break;
                }
                $top = $this->depth - 1;
                $this->items[$top][] = $value;
                if (--$this->due[$top] > 0) {
                    break;
                }
                $aggregateType = (string) array_pop($this->types);
                array_pop($this->due);
                $items = (array) array_pop($this->items);
                --$this->depth;
                if ($aggregateType === '|') {
                    break;
                }
                $value = self::aggregate($aggregateType, array_values($items));
            }
        }

        return $replies;
    }

    /** @param list<mixed> $items */
    private static function aggregate(string $type, array $items): mixed
    {
        if ($type === '*') {
            return $items;
        }
        if ($type === '%' || $type === '|') {
            $pairs = [];
            for ($i = 0, $n = \count($items); $i < $n; $i += 2) {
                $pairs[] = [$items[$i], $items[$i + 1]];
            }

            return new Map($pairs);
        }

        return new Aggregate($type === '~' ? AggregateKind::Set : AggregateKind::Push, $items);
    }

    private static function integer(string $line, string $what): int
    {
        $value = (int) $line;
        if ((string) $value !== $line) {
            throw new ProtocolException(sprintf('Malformed Redis %s %s', $what, self::show($line)));
        }

        return $value;
    }

    private static function double(string $line): float
    {
        $lower = strtolower($line);
        if ($lower === 'inf' || $lower === '+inf') {
            return INF;
        }
        if ($lower === '-inf') {
            return -INF;
        }
        if ($lower === 'nan' || $lower === '-nan') {
            return NAN;
        }
        if (!is_numeric($line) || trim($line) !== $line) {
            throw new ProtocolException('Malformed Redis double ' . self::show($line));
        }

        return (float) $line;
    }

    private static function show(string $bytes): string
    {
        return '"' . addcslashes(substr($bytes, 0, 40), "\0..\37\177..\377\"\\") . (\strlen($bytes) > 40 ? '…' : '') . '"';
    }
}
