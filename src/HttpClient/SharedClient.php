<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/**
 * The process's shared client (one connection pool per worker), kept in PHP's default stream
 * context rather than in a static property: the Guzzle handler, the PSR-18 client and the URL
 * stream wrapper all reach the same pool without global state of Spindle's own.
 */
final class SharedClient
{
    private function __construct()
    {
    }

    public static function get(): HttpClient
    {
        $default = \stream_context_get_default();
        $client = \stream_context_get_options($default)['spindle']['http_client'] ?? null;
        if ($client instanceof HttpClient) {
            return $client;
        }
        $client = new HttpClient();
        \stream_context_set_option($default, 'spindle', 'http_client', $client);

        return $client;
    }
}
