<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Symfony;

use Spindle\HttpClient\HttpClientException;
use Spindle\HttpClient\Response;
use Spindle\HttpClient\TimeoutException;
use Spindle\HttpClient\Transfer;
use Symfony\Component\HttpClient\Exception\ClientException;
use Symfony\Component\HttpClient\Exception\JsonException;
use Symfony\Component\HttpClient\Exception\RedirectionException;
use Symfony\Component\HttpClient\Exception\ServerException;
use Symfony\Component\HttpClient\Exception\TimeoutException as SymfonyTimeoutException;
use Symfony\Component\HttpClient\Exception\TransportException;
use Symfony\Contracts\HttpClient\ResponseInterface;

/**
 * A response of SpindleHttpClient: in flight until first read, then buffered. Errors are
 * Symfony's: TransportException (or TimeoutException) when no response came, and for 3xx/4xx/5xx
 * the Redirection/Client/ServerException that getHeaders(), getContent() and toArray() throw
 * unless told not to, or that the destructor throws when nothing was read.
 */
final class SpindleResponse implements ResponseInterface
{
    private ?Response $response = null;
    private string $content = '';
    private ?\Throwable $error = null;
    private bool $done = false;
    private bool $checked = false;
    /** @var array<string, mixed> */
    private array $info;

    /**
     * @param Transfer<array{Response, string}> $transfer
     * @param array<string, mixed> $options
     */
    public function __construct(private ?Transfer $transfer, string $method, string $url, array $options, float $startTime)
    {
        $this->info = [
            'http_method' => $method,
            'url' => $url,
            'http_code' => 0,
            'response_headers' => [],
            'redirect_count' => 0,
            'redirect_url' => null,
            'start_time' => $startTime,
            'total_time' => 0.0,
            'user_data' => $options['user_data'] ?? null,
            'error' => null,
            'canceled' => false,
        ];
    }

    /** @internal Waits for the exchange; the transport error, if any. */
    public function await(): ?\Throwable
    {
        if ($this->done) {
            return $this->error;
        }
        $this->done = true;
        try {
            [$this->response, $this->content] = $this->transfer?->await() ?? throw new TransportException('Response has been canceled.');
            $response = $this->response;
            $this->info['http_code'] = $response->status;
            $this->info['url'] = (string) $response->url;
            $this->info['redirect_count'] = \count($response->history);
            $lines = [];
            foreach ([...$response->history, $response->head()] as $head) {
                $lines[] = $head->statusLine();
                foreach ($head->fields as [$name, $value]) {
                    $lines[] = $name . ': ' . $value;
                }
            }
            $this->info['response_headers'] = $lines;
            if ($response->status >= 300 && $response->status < 400) {
                $this->info['redirect_url'] = $response->header('location');
            }
        } catch (TimeoutException $e) {
            $this->error = new SymfonyTimeoutException($e->getMessage(), 0, $e);
        } catch (HttpClientException $e) {
            $this->error = new TransportException($e->getMessage(), 0, $e);
        } catch (\Throwable $e) {
            $this->error = $e;
        }
        $this->transfer = null;
        $this->info['total_time'] = \microtime(true) - (float) $this->info['start_time'];
        if ($this->error !== null) {
            $this->info['error'] = $this->error->getMessage();
        }

        return $this->error;
    }

    public function getStatusCode(): int
    {
        $this->throwTransportError();

        return (int) $this->info['http_code'];
    }

    /** @return array<string, list<string>> */
    public function getHeaders(bool $throw = true): array
    {
        $this->throwTransportError();
        if ($throw) {
            $this->checkStatus();
        }
        $headers = [];
        foreach ($this->response?->headers() ?? [] as $name => $values) {
            $headers[\strtolower($name)] = [...$headers[\strtolower($name)] ?? [], ...$values];
        }

        return $headers;
    }

    public function getContent(bool $throw = true): string
    {
        $this->throwTransportError();
        if ($throw) {
            $this->checkStatus();
        }

        return $this->content;
    }

    /** @return array<mixed> */
    public function toArray(bool $throw = true): array
    {
        $content = $this->getContent($throw);
        if ($content === '') {
            throw new JsonException('Response body is empty.');
        }
        try {
            $data = \json_decode($content, true, 512, \JSON_BIGINT_AS_STRING | \JSON_THROW_ON_ERROR);
        } catch (\JsonException $e) {
            throw new JsonException($e->getMessage() . \sprintf(' for "%s".', $this->info['url']), $e->getCode());
        }
        if (!\is_array($data)) {
            throw new JsonException(\sprintf('JSON content was expected to decode to an array, "%s" returned for "%s".', \get_debug_type($data), $this->info['url']));
        }

        return $data;
    }

    public function cancel(): void
    {
        $this->info['canceled'] = true;
        $this->info['error'] = 'Response has been canceled.';
        $this->checked = true;
        if (!$this->done) {
            $this->done = true;
            $this->transfer = null;
            $this->error = new TransportException('Response has been canceled.');
        }
    }

    public function getInfo(?string $type = null): mixed
    {
        return $type === null ? $this->info : ($this->info[$type] ?? null);
    }

    public function __destruct()
    {
        // As Symfony's responses: an error status nobody looked at is thrown when the response goes away.
        if (!$this->checked && $this->transfer === null && $this->done && $this->error === null) {
            $this->checkStatus();
        }
    }

    private function throwTransportError(): void
    {
        $error = $this->await();
        if ($error !== null) {
            $this->checked = true;
            throw $error;
        }
    }

    private function checkStatus(): void
    {
        $this->checked = true;
        $code = (int) $this->info['http_code'];
        if ($code >= 500) {
            throw new ServerException($this);
        }
        if ($code >= 400) {
            throw new ClientException($this);
        }
        if ($code >= 300) {
            throw new RedirectionException($this);
        }
    }
}
