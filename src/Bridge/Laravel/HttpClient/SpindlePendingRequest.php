<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\HttpClient;

use GuzzleHttp\HandlerStack;
use Illuminate\Http\Client\PendingRequest;
use Spindle\HttpClient\Guzzle\SpindleHandler;

/**
 * A pending request whose Guzzle stack ends in Spindle's handler: the default stack, and the
 * one `Http::pool()` builds around Guzzle's default handler. A handler the app sets itself is
 * kept.
 */
final class SpindlePendingRequest extends PendingRequest
{
    /** @return HandlerStack */
    public function buildHandlerStack()
    {
        return $this->pushHandlers(HandlerStack::create(new SpindleHandler()));
    }

    /**
     * @param callable $handler
     *
     * @return $this
     */
    public function setHandler($handler)
    {
        return parent::setHandler(self::isGuzzleDefault($handler) ? new SpindleHandler() : $handler);
    }

    private static function isGuzzleDefault(mixed $handler): bool
    {
        if ($handler instanceof \GuzzleHttp\Handler\CurlHandler || $handler instanceof \GuzzleHttp\Handler\CurlMultiHandler || $handler instanceof \GuzzleHttp\Handler\StreamHandler) {
            return true;
        }
        if ($handler instanceof \Closure) {
            $scope = (new \ReflectionFunction($handler))->getClosureScopeClass();

            return $scope !== null && $scope->getName() === \GuzzleHttp\Handler\Proxy::class;
        }

        return false;
    }
}
