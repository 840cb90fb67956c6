<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * Spindle's lean request: the parsed head plus its body. Header names are lower-case;
 * every header maps to the list of its values in the order received.
 *
 * A body up to --body-buffer-size is held in memory ($body); a larger one was written to a
 * temporary file as it arrived (bodyFile(), removed when the request ends) and $body is ''.
 * bodyContents() and openBody() read either.
 */
final class Request
{
    /** See bodyFile(); set by withBodyFile() only. */
    private ?string $bodyFile = null;

    /**
     * @param array<string, list<string>> $headers
     * @param array<string, mixed> $parsedBody form fields (urlencoded or multipart), nested as PHP does
     * @param array<string, mixed> $uploadedFiles UploadedFile leaves, nested like the field names
     */
    public function __construct(
        public readonly string $method,
        public readonly string $target,
        public readonly string $path,
        public readonly string $query,
        public readonly string $protocolVersion,
        public readonly array $headers,
        public readonly string $body = '',
        public readonly array $parsedBody = [],
        public readonly array $uploadedFiles = [],
        public readonly string $remoteAddress = '',
        public readonly int $remotePort = 0,
        public readonly string $localAddress = '',
        public readonly int $localPort = 0,
        /** The body as it arrives, for a handler that streams bodies (StreamsRequestBody); null: $body and bodyFile() hold it whole. */
        public readonly ?RequestBody $bodyStream = null,
        /** It came over TLS (HTTPS; the bridges set HTTPS=on and REQUEST_SCHEME=https). */
        public readonly bool $secure = false,
    ) {
    }

    /**
     * This request with its body in the temporary file $path (and $body ''). (Not a constructor
     * argument: a readonly property would cost a slow write on every request, and the argument
     * itself a few instructions.)
     */
    public function withBodyFile(string $path): self
    {
        $request = clone $this;
        $request->bodyFile = $path;

        return $request;
    }

    /**
     * This request with the header $name (lower-case) set to the one value $value, as if the
     * client had sent it so.
     */
    public function withHeader(string $name, string $value): self
    {
        $headers = $this->headers;
        $headers[$name] = [$value];

        return $this->copy($this->protocolVersion, $headers);
    }

    /**
     * This request without the headers $names (lower-case), as if the client had not sent them:
     * what a long-lived connection keeps of its handshake need not hold what only the handshake
     * read.
     */
    public function withoutHeaders(string ...$names): self
    {
        return $this->copy($this->protocolVersion, \array_diff_key($this->headers, \array_flip($names)));
    }

    /** The same request as received over another protocol version ("2.0" for an HTTP/2 stream). */
    public function withProtocolVersion(string $version): self
    {
        return $this->copy($version, $this->headers);
    }

    /**
     * This request with another protocol version or other headers, and everything else the same
     * (its body file included).
     *
     * @param array<string, list<string>> $headers
     */
    private function copy(string $protocolVersion, array $headers): self
    {
        $request = new self(
            $this->method,
            $this->target,
            $this->path,
            $this->query,
            $protocolVersion,
            $headers,
            $this->body,
            $this->parsedBody,
            $this->uploadedFiles,
            $this->remoteAddress,
            $this->remotePort,
            $this->localAddress,
            $this->localPort,
            $this->bodyStream,
            $this->secure,
        );
        $request->bodyFile = $this->bodyFile;

        return $request;
    }

    /** The temporary file holding the body when it was too large for memory, else null. */
    public function bodyFile(): ?string
    {
        return $this->bodyFile;
    }

    /** The whole body as a string (read from its file when it has one). */
    public function bodyContents(): string
    {
        if ($this->bodyStream !== null) {
            return $this->bodyStream->readAll();
        }
        if ($this->bodyFile === null) {
            return $this->body;
        }
        $contents = @\file_get_contents($this->bodyFile);
        if ($contents === false) {
            throw new \RuntimeException(\sprintf('Cannot read the request body from %s', $this->bodyFile));
        }

        return $contents;
    }

    /**
     * The body as a readable stream at its start: its file, or php://temp holding $body.
     *
     * @return resource
     */
    public function openBody(): mixed
    {
        if ($this->bodyFile !== null) {
            $handle = @\fopen($this->bodyFile, 'rb');
            if ($handle === false) {
                throw new \RuntimeException(\sprintf('Cannot open the request body file %s', $this->bodyFile));
            }

            return $handle;
        }
        $handle = \fopen('php://temp', 'w+b');
        \assert($handle !== false);
        \fwrite($handle, $this->body);
        \rewind($handle);

        return $handle;
    }

    public function header(string $name): ?string
    {
        $values = $this->headers[\strtolower($name)] ?? null;

        return $values === null ? null : \implode(', ', $values);
    }
}
