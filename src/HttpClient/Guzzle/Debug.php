<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Guzzle;

use Psr\Http\Message\RequestInterface;
use Spindle\HttpClient\Request;
use Spindle\HttpClient\Response;

/**
 * @internal Guzzle's `debug` option: the exchange written as curl's verbose output is (what
 * CurlHandler writes there): `> ` before each line of the request head, `< ` before each line of
 * the response head, `* ` before what happened.
 */
final class Debug
{
    /** @param resource $stream */
    private function __construct(private $stream)
    {
    }

    /** @param bool|resource $option true: STDOUT, as Guzzle's Utils::debugResource() */
    public static function to(mixed $option): self
    {
        if (\is_resource($option)) {
            return new self($option);
        }

        $stream = \defined('STDOUT') ? \STDOUT : \fopen('php://output', 'w');

        return new self($stream === false ? \fopen('php://memory', 'w') ?: \STDERR : $stream);
    }

    public function request(RequestInterface $request, Request $sent): void
    {
        $uri = $request->getUri();
        $target = $request->getRequestTarget();
        $text = \sprintf("* Connecting to %s port %d\n", $uri->getHost(), $uri->getPort() ?? ($uri->getScheme() === 'https' ? 443 : 80));
        $text .= \sprintf("> %s %s HTTP/%s\r\n", $sent->method, $target, $sent->protocolVersion);
        foreach ($sent->headers as [$name, $value]) {
            $text .= "> $name: $value\r\n";
        }
        $this->write($text . ">\r\n");
    }

    public function response(Response $response): void
    {
        $text = \sprintf("< HTTP/%s %d %s\r\n", $response->protocolVersion, $response->status, $response->reason);
        foreach ($response->fields as [$name, $value]) {
            $text .= "< $name: $value\r\n";
        }
        $this->write($text . "<\r\n");
    }

    public function error(\Throwable $error): void
    {
        $this->write('* ' . $error->getMessage() . "\n");
    }

    private function write(string $text): void
    {
        @\fwrite($this->stream, $text);
    }
}
