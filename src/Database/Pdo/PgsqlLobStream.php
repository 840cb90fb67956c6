<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\MysqlException;

/**
 * The stream of an open large object (pdo_pgsql's lob stream): reads, writes, seeks and tells go
 * to loread(), lowrite(), lo_lseek64() and lo_tell64() on the PDO's session, and closing it
 * runs lo_close(). A stream wrapper of its own scheme, registered on first use; the stream is
 * opened with its large object in the stream context, so the scheme opens nothing by a name.
 *
 * @internal
 */
final class PgsqlLobStream
{
    public const SCHEME = 'spindle-pgsql-lob';

    /** @var resource|null set by PHP for every wrapper instance */
    public $context;

    private ?Handle $handle = null;
    private int $descriptor = -1;
    public int $oid = 0;

    /** @return resource */
    public static function open(Handle $handle, int $oid, int $descriptor, string $mode)
    {
        if (!\in_array(self::SCHEME, stream_get_wrappers(), true)) {
            stream_wrapper_register(self::SCHEME, self::class);
        }
        $context = stream_context_create([self::SCHEME => ['handle' => $handle, 'oid' => $oid, 'descriptor' => $descriptor]]);
        $stream = fopen(self::SCHEME . '://' . $oid, $mode, false, $context);
        if ($stream === false) {
            throw new \LogicException('The large object stream could not be opened');
        }

        return $stream;
    }

    public function stream_open(string $path, string $mode, int $options, ?string &$openedPath): bool
    {
        $settings = $this->context !== null ? (stream_context_get_options($this->context)[self::SCHEME] ?? []) : [];
        if (!($settings['handle'] ?? null) instanceof Handle) {
            // Only open() makes these streams.
            return false;
        }
        $this->handle = $settings['handle'];
        $this->oid = (int) $settings['oid'];
        $this->descriptor = (int) $settings['descriptor'];

        return true;
    }

    public function stream_read(int $count): string|false
    {
        $data = $this->call('SELECT loread($1::int4, $2::int4)', [$this->descriptor, $count], true);
        return \is_string($data) ? $data : false;
    }

    /** @return int|false false when lowrite() failed (fwrite() returns false, as with pdo_pgsql) */
    public function stream_write(string $data): int|false
    {
        $written = $this->call('SELECT lowrite($1::int4, $2::bytea)', [$this->descriptor, PgsqlLargeObjects::bytes($data)]);

        return \is_int($written) && $written >= 0 ? $written : false;
    }

    /** Never: pdo_pgsql's lob stream does not report an end either (a read of nothing ends a copy). */
    public function stream_eof(): bool
    {
        return false;
    }

    public function stream_seek(int $offset, int $whence): bool
    {
        $position = $this->call('SELECT lo_lseek64($1::int4, $2::int8, $3::int4)', [$this->descriptor, $offset, $whence]);
        return \is_int($position) && $position >= 0;
    }

    public function stream_tell(): int
    {
        $position = $this->call('SELECT lo_tell64($1::int4)', [$this->descriptor]);

        return \is_int($position) ? $position : 0;
    }

    public function stream_flush(): bool
    {
        return true;
    }

    /** @return array<int|string, int> */
    public function stream_stat(): array
    {
        return [];
    }

    public function stream_close(): void
    {
        if ($this->handle !== null && $this->descriptor >= 0) {
            $this->call('SELECT lo_close($1::int4)', [$this->descriptor]);
        }
        $this->handle = null;
    }

    /** The descriptor is gone with its transaction: closing the stream sends nothing. */
    public function detach(): void
    {
        $this->descriptor = -1;
    }

    /**
     * One lo_* call; null when it failed (a stream operation fails without an exception, as
     * pdo_pgsql's lob stream does).
     *
     * @param list<mixed> $params
     */
    private function call(string $sql, array $params, bool $binary = false): mixed
    {
        $handle = $this->handle;
        if ($handle === null || $this->descriptor < 0) {
            return null;
        }
        try {
            return $handle->withPgsqlSession(static fn (PgsqlSession $session): mixed => PgsqlLargeObjects::scalar($session, $sql, $params, $binary));
        } catch (\Throwable) {
            return null;
        }
    }
}
