<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * One request on its connection, as the connection hands it to the RequestDispatcher: the
 * request, and the ways to answer it. Calls that come after the connection closed (a client that
 * left, a request cut by its timeout) do nothing.
 *
 * respond() once, or fail(), or abort(); then finish(), always, exactly once.
 */
final class Exchange
{
    /**
     * @param list<string> $tempFiles the temporary files of its uploads and body, removed by finish()
     * @param bool $keepAlive whether the client asked to keep the connection (from the version and
     *                        the Connection header)
     */
    public function __construct(
        public readonly Request $request,
        private readonly Connection $connection,
        public readonly array $tempFiles,
        public readonly bool $keepAlive,
    ) {
    }

    /**
     * Writes $response (head, then body: a string at once, a file or a stream piece by piece,
     * suspending the calling fiber while the client is behind). A response that cannot be sent
     * (an invalid header, a file that cannot be read, a stream that fails) is logged and answered
     * with a 500 when its head has not gone out yet, or cuts the connection.
     */
    public function respond(Response $response): void
    {
        $this->connection->respond($this, $response);
    }

    /** Whether the head of the response went out (or began to): from then on only abort() is left. */
    public function responseBegun(): bool
    {
        return $this->connection->responseBegun($this);
    }

    /**
     * Answers with $error's status and message, then closes the connection once it is written:
     * requests pipelined behind this one are dropped.
     */
    public function fail(HttpException $error): void
    {
        $this->connection->failCurrent($this, $error);
    }

    /** Cuts the connection: the only signal left once a response has begun. */
    public function abort(): void
    {
        $this->connection->abortCurrent($this);
    }

    /** The request is done: its temporary files go, and the connection takes the next request. */
    public function finish(): void
    {
        $this->connection->finish($this);
    }
}
