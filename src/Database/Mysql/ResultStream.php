<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

use Spindle\Database\Mysql\Protocol\StreamedSet;

/**
 * The result sets of one streamed command, read from the socket only as the caller asks for
 * rows: memory holds the rows of one read chunk at most, whatever the size of the result. The
 * reading fiber is suspended between packets. An error the server sends after some results is
 * thrown where the reader reaches it: by nextRow() within a set, by nextSet() between sets, by
 * drain().
 *
 * A stream over results already read (ofResults()) lets code that streams run on any Connection.
 */
final class ResultStream
{
    /** @var list<StreamedSet> the current set first */
    private array $sets = [];
    /** The next row of the current set to hand out. */
    private int $position = 0;
    private bool $complete = false;
    private ?MysqlException $error = null;

    /**
     * @param (\Closure(): array{list<StreamedSet>, bool, ?MysqlException})|null $pull reads once:
     *        the sets begun, whether the command is complete, and its error if it failed
     */
    public function __construct(private ?\Closure $pull)
    {
        if ($pull === null) {
            $this->complete = true;
        }
    }

    /** @param list<Result> $results */
    public static function ofResults(array $results): self
    {
        $stream = new self(null);
        foreach ($results as $result) {
            $set = new StreamedSet($result->columns);
            $set->rows = $result->rows;
            $set->summary = new Result($result->columns, [], $result->affectedRows, $result->lastInsertId, $result->warnings, $result->statusFlags, $result->info);
            $stream->sets[] = $set;
        }

        return $stream;
    }

    /** A stream over one set already read whole (its rows and its summary). */
    public static function ofSet(StreamedSet $set): self
    {
        $stream = new self(null);
        $stream->sets[] = $set;

        return $stream;
    }

    /** Whether the whole answer has been read: the connection is free again. */
    public function isComplete(): bool
    {
        return $this->complete;
    }

    /**
     * Whether the reader has taken everything: the answer is complete and no row or further
     * set is left. (A complete answer may still be unread: it arrived in one read.)
     */
    public function isRead(): bool
    {
        return $this->complete && $this->error === null
            && ($this->sets === [] || (\count($this->sets) === 1 && $this->atSetEnd()));
    }

    /** Whether the current set has ended and all its rows were taken (further sets may follow). */
    public function atSetEnd(): bool
    {
        $set = $this->sets[0] ?? null;

        return $set !== null && $set->ended() && !isset($set->rows[$this->position]);
    }

    /**
     * The current result set (waiting for its columns), null when there is none.
     *
     * @throws MysqlException the command's error when it comes before any further set
     */
    public function current(): ?StreamedSet
    {
        while ($this->sets === [] && !$this->complete) {
            $this->more();
        }
        if ($this->sets === []) {
            $this->throwError();
        }

        return $this->sets[0] ?? null;
    }

    /**
     * The next row of the current set, null at its end.
     *
     * @return list<int|float|string|null>|null
     *
     * @throws MysqlException
     */
    public function nextRow(): ?array
    {
        $set = $this->current();
        if ($set === null) {
            return null;
        }
        while (true) {
            if (isset($set->rows[$this->position])) {
                return $set->rows[$this->position++];
            }
            $set->rows = [];
            $this->position = 0;
            if ($set->ended()) {
                return null;
            }
            if ($this->complete) {
                // The set broke off: the server sent an error instead of its end.
                $this->throwError();

                return null;
            }
            $this->more();
        }
    }

    /**
     * All the rows of the current set not taken yet, reading to its end.
     *
     * @return list<list<int|float|string|null>>
     *
     * @throws MysqlException the error that broke the set off
     */
    public function restOfSet(): array
    {
        $set = $this->current();
        if ($set === null) {
            return [];
        }
        $rows = [];
        while (true) {
            $chunk = $this->position === 0 ? $set->rows : \array_slice($set->rows, $this->position);
            $set->rows = [];
            $this->position = 0;
            if ($rows === []) {
                $rows = $chunk;
            } elseif ($chunk !== []) {
                array_push($rows, ...$chunk);
            }
            if ($set->ended()) {
                return $rows;
            }
            if ($this->complete) {
                $this->throwError();

                return $rows;
            }
            $this->more();
        }
    }

    /**
     * Skips the rest of the current set and moves to the next one; null when there is none.
     *
     * @throws MysqlException the error in place of the next set
     */
    public function nextSet(): ?StreamedSet
    {
        $set = $this->current();
        if ($set === null) {
            return null;
        }
        while (!$set->ended()) {
            $set->rows = [];
            if ($this->complete) {
                $this->throwError();

                return null;
            }
            $this->more();
        }
        array_shift($this->sets);
        $this->position = 0;

        return $this->current();
    }

    /**
     * Reads and drops the rest of the answer.
     *
     * @throws MysqlException the error the server sent in it, if any
     */
    public function drain(): void
    {
        while (!$this->complete) {
            foreach ($this->sets as $set) {
                $set->rows = [];
            }
            $this->more();
        }
        $this->sets = [];
        $this->position = 0;
        $this->throwError();
    }

    private function more(): void
    {
        if ($this->pull === null) {
            $this->complete = true;

            return;
        }
        [$sets, $complete, $error] = ($this->pull)();
        foreach ($sets as $set) {
            $this->sets[] = $set;
        }
        if ($complete) {
            $this->complete = true;
            $this->error = $error;
            $this->pull = null;
        }
    }

    /** Throws the command's error once. */
    private function throwError(): void
    {
        $error = $this->error;
        $this->error = null;
        if ($error !== null) {
            throw $error;
        }
    }
}
