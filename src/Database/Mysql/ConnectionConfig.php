<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

/** Where and how to connect. Times in seconds. */
final class ConnectionConfig
{
    /**
     * @param array<string, mixed>|null $tls
     * @param list<string> $initCommands
     */
    public function __construct(
        public readonly string $host = '127.0.0.1',
        public readonly int $port = 3306,
        public readonly ?string $unixSocket = null,
        public readonly string $user = 'root',
        public readonly string $password = '',
        public readonly ?string $database = null,
        public readonly string $charset = 'utf8mb4',
        public readonly ?string $collation = null,
        public readonly float $connectTimeout = 10.0,
        /** 0: no limit */
        public readonly float $queryTimeout = 0.0,
        public readonly bool $allowLocalInfile = false,
        /** null: no TLS; otherwise stream context ssl options (verify_peer, cafile, …) */
        public readonly ?array $tls = null,
        /** PEM of the server's RSA public key for caching_sha2_password full auth without TLS */
        public readonly ?string $serverPublicKey = null,
        /** connection attributes / init commands run after connecting */
        public readonly array $initCommands = [],
        /** CLIENT_MULTI_STATEMENTS: several statements separated by ";" in one query() */
        public readonly bool $multiStatements = true,
        /** after a query timeout, KILL QUERY the statement from a fresh connection (best effort, in the background) */
        public readonly bool $killQueryOnTimeout = true,
        /** without $allowLocalInfile: LOAD DATA LOCAL INFILE may read files under this directory only */
        public readonly ?string $localInfileDirectory = null,
        /** CLIENT_FOUND_ROWS: UPDATE reports the rows matched rather than the rows changed */
        public readonly bool $foundRows = false,
        /** CLIENT_IGNORE_SPACE: the server allows spaces after function names */
        public readonly bool $ignoreSpace = false,
    ) {
    }

    /** Whether the connection offers LOCAL INFILE to the server at all. */
    public function offersLocalInfile(): bool
    {
        return $this->allowLocalInfile || $this->localInfileDirectory !== null;
    }

    /**
     * Whether LOAD DATA LOCAL INFILE may send this file: any file with $allowLocalInfile (which
     * overrides the directory, as in mysqlnd), else only one whose real path lies under
     * $localInfileDirectory.
     */
    public function mayReadLocalFile(string $name): bool
    {
        if ($this->allowLocalInfile) {
            return true;
        }
        if ($this->localInfileDirectory === null || $name === '') {
            return false;
        }
        $directory = realpath($this->localInfileDirectory);
        $file = realpath($name);

        return $directory !== false && $file !== false && str_starts_with($file, rtrim($directory, '/') . '/');
    }
}
