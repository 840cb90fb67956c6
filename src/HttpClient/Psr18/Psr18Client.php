<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Psr18;

use Nyholm\Psr7\Factory\Psr17Factory;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseFactoryInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamFactoryInterface;
use Spindle\HttpClient\ConnectException;
use Spindle\HttpClient\HttpClient;
use Spindle\HttpClient\HttpClientError;
use Spindle\HttpClient\HttpClientException;
use Spindle\HttpClient\Options;
use Spindle\HttpClient\Request;
use Spindle\HttpClient\SharedClient;
use Spindle\HttpClient\TimeoutException;
use Spindle\HttpClient\Url;

/**
 * A PSR-18 client on Spindle's HTTP client: sendRequest() suspends the calling fiber. As
 * PSR-18 asks, redirects are not followed and 4xx/5xx are responses, not exceptions; the body is
 * read whole before returning (pass $options with a PSR-17 stream factory to get it in memory or
 * php://temp). Failures are NetworkException (no response) or RequestException (a request this
 * client cannot send).
 */
final class Psr18Client implements ClientInterface
{
    private readonly ResponseFactoryInterface $responses;
    private readonly StreamFactoryInterface $streams;

    public function __construct(
        private readonly ?HttpClient $client = null,
        private readonly Options $options = new Options(decodeContent: false),
        ?ResponseFactoryInterface $responseFactory = null,
        ?StreamFactoryInterface $streamFactory = null,
    ) {
        $factory = new Psr17Factory();
        $this->responses = $responseFactory ?? $factory;
        $this->streams = $streamFactory ?? $factory;
    }

    public function sendRequest(RequestInterface $request): ResponseInterface
    {
        try {
            $url = Url::parse((string) $request->getUri());
        } catch (HttpClientError $e) {
            throw new RequestException($e->getMessage(), $request, $e);
        }
        $headers = [];
        foreach ($request->getHeaders() as $name => $values) {
            foreach ($values as $value) {
                $headers[] = [(string) $name, $value];
            }
        }
        $stream = $request->getBody();
        if ($stream->isSeekable()) {
            $stream->rewind();
        }
        $body = $stream->getSize() === 0 ? null : $stream->getContents();
        $ours = new Request($request->getMethod(), $url, $headers, $body, $request->getProtocolVersion() === '1.0' ? '1.0' : '1.1');
        try {
            $response = ($this->client ?? SharedClient::get())->request($ours, $this->options);
            $contents = $response->body->contents();
        } catch (HttpClientError $e) {
            throw new RequestException($e->getMessage(), $request, $e);
        } catch (ConnectException|TimeoutException|HttpClientException $e) {
            throw new NetworkException($e->getMessage(), $request, $e);
        }
        try {
            $psr = $this->responses->createResponse($response->status, $response->reason)->withProtocolVersion($response->protocolVersion);
            foreach ($response->headers() as $name => $values) {
                $psr = $psr->withAddedHeader($name, $values);
            }

            return $psr->withBody($this->streams->createStream($contents));
        } catch (\InvalidArgumentException $e) {
            // A response PSR-7 cannot hold (a status of 999, say): still the client's exception.
            throw new NetworkException(\sprintf('An error was encountered while creating the response: %s', $e->getMessage()), $request, $e);
        }
    }
}
