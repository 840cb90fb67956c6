<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Clients;

use Psr\Log\LoggerAwareInterface;
use Psr\Log\LoggerInterface;
use Spindle\Bridge\WorkerEnvironment;
use Spindle\HttpClient\Symfony\SpindleHttpClient;
use Symfony\Component\HttpClient\HttpClient;
use Symfony\Contracts\HttpClient\HttpClientInterface;

/**
 * The factory ClientsPass gives the app's `http_client` transport: in a worker of `spindle
 * serve` (unless SPINDLE_HTTP_DRIVER=native) Spindle's SpindleHttpClient with the app's default
 * options, whose waits suspend only the request's fiber (one connection pool per worker);
 * elsewhere what HttpClient::create() gives, with the app's logger.
 */
final class HttpClients
{
    public const VARIABLE = 'SPINDLE_HTTP_DRIVER';

    private function __construct()
    {
    }

    /** @param array<string, mixed> $defaultOptions */
    public static function create(?LoggerInterface $logger = null, array $defaultOptions = [], int $maxHostConnections = 6, int $maxPendingPushes = 50): HttpClientInterface
    {
        if (WorkerEnvironment::useSpindle(self::VARIABLE)) {
            return new SpindleHttpClient($defaultOptions);
        }
        $client = HttpClient::create($defaultOptions, $maxHostConnections, $maxPendingPushes);
        if ($logger !== null && $client instanceof LoggerAwareInterface) {
            $client->setLogger($logger);
        }

        return $client;
    }
}
