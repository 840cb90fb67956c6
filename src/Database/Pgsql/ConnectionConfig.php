<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

/** Where and how to connect to PostgreSQL. Times in seconds, 0 for no limit. */
final class ConnectionConfig
{
    /**
     * @param array<string, string> $parameters run-time parameters sent at startup (application_name, search_path, …)
     * @param array<string, mixed>  $tls        extra stream-context ssl options (local_cert, local_pk, …)
     */
    public function __construct(
        /** a host name or address; a path starting with "/" is the directory of a unix socket */
        public readonly string $host = '127.0.0.1',
        public readonly int $port = 5432,
        public readonly string $user = 'postgres',
        public readonly string $password = '',
        public readonly ?string $database = null,
        public readonly SslMode $sslMode = SslMode::Prefer,
        /** the CA bundle for verify-ca and verify-full */
        public readonly ?string $sslRootCert = null,
        public readonly array $tls = [],
        public readonly float $connectTimeout = 10.0,
        public readonly float $queryTimeout = 0.0,
        public readonly array $parameters = [],
        /** after a query timeout, how long to wait for the server to confirm the cancel before dropping the connection */
        public readonly float $cancelGrace = 5.0,
    ) {
    }

    public function withSslMode(SslMode $mode): self
    {
        return new self($this->host, $this->port, $this->user, $this->password, $this->database, $mode, $this->sslRootCert, $this->tls, $this->connectTimeout, $this->queryTimeout, $this->parameters, $this->cancelGrace);
    }

    public function isUnixSocket(): bool
    {
        return str_starts_with($this->host, '/');
    }

    public function socketPath(): string
    {
        return rtrim($this->host, '/') . '/.s.PGSQL.' . $this->port;
    }
}
