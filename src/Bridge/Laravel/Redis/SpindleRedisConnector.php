<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Redis;

use Illuminate\Contracts\Redis\Connector;
use Illuminate\Redis\Connections\Connection;
use Illuminate\Redis\Connections\PhpRedisConnection;
use Spindle\Redis\PhpRedisCompat;

/**
 * Laravel's Redis connector for the `spindle` client: Laravel's own PhpRedisConnection (so every
 * helper — pipeline, transaction, funnel, throttle, scan, eval — behaves as with phpredis) over
 * Spindle's phpredis-compatible facade, whose commands suspend only the calling request's fiber.
 *
 * When it stands in for `phpredis` or `predis` under Spindle, a connection configured with
 * `'spindle' => false` is handed to $fallback, Laravel's own connector.
 */
final class SpindleRedisConnector implements Connector
{
    /** Laravel's connection settings passed to setOption() as its phpredis connector passes them */
    private const OPTIONS = [
        'serializer' => PhpRedisCompat::OPT_SERIALIZER,
        'compression' => PhpRedisCompat::OPT_COMPRESSION,
        'compression_level' => PhpRedisCompat::OPT_COMPRESSION_LEVEL,
        'max_retries' => PhpRedisCompat::OPT_MAX_RETRIES,
        'backoff_algorithm' => PhpRedisCompat::OPT_BACKOFF_ALGORITHM,
        'backoff_base' => PhpRedisCompat::OPT_BACKOFF_BASE,
        'backoff_cap' => PhpRedisCompat::OPT_BACKOFF_CAP,
    ];

    public function __construct(private readonly ClientRegistry $clients, private readonly ?Connector $fallback = null)
    {
    }

    /**
     * @param array<string, mixed> $config
     * @param array<string, mixed> $options
     *
     * @return Connection
     */
    public function connect(array $config, array $options)
    {
        if ($this->fallback !== null && ($config['spindle'] ?? true) === false) {
            return $this->fallback->connect($config, $options);
        }
        $settings = array_merge($options, $config, (array) ($config['options'] ?? []));
        unset($settings['options'], $settings['parameters']);
        if (!isset($settings['read_timeout']) && isset($settings['read_write_timeout'])) {
            // predis's name for it; -1 means no limit there.
            $settings['read_timeout'] = max(0.0, (float) $settings['read_write_timeout']);
        }
        $connector = fn (): PhpRedisCompat => $this->client($settings);

        // PhpRedisConnection documents a \Redis client; it calls only phpredis's methods, which the facade has.
        return new PhpRedisConnection($connector(), $connector, $config); // @phpstan-ignore argument.type
    }

    /**
     * Redis Cluster is not spoken by Spindle's client: clusters keep Laravel's own connector
     * (phpredis or predis), and the `spindle` client refuses them.
     *
     * @param array<int|string, mixed> $config
     * @param array<string, mixed> $clusterOptions
     * @param array<string, mixed> $options
     *
     * @return Connection
     */
    public function connectToCluster(array $config, array $clusterOptions, array $options)
    {
        if ($this->fallback !== null) {
            return $this->fallback->connectToCluster($config, $clusterOptions, $options);
        }

        throw new \LogicException('Spindle\'s Redis client does not support Redis Cluster; configure the cluster with the phpredis or predis client');
    }

    /** @param array<string, mixed> $settings */
    private function client(array $settings): PhpRedisCompat
    {
        $client = new PhpRedisCompat($this->clients->get($settings));
        $prefix = $settings['prefix'] ?? '';
        if (\is_string($prefix) && $prefix !== '') {
            $client->setOption(PhpRedisCompat::OPT_PREFIX, $prefix);
        }
        if (isset($settings['scan'])) {
            $client->setOption(PhpRedisCompat::OPT_SCAN, $settings['scan']);
        }
        // As Laravel's phpredis connector: the serializer and compression (the facade writes and
        // reads the same bytes as phpredis), and the retry options of newer Laravel versions.
        foreach (self::OPTIONS as $name => $option) {
            if (\array_key_exists($name, $settings)) {
                $value = $settings[$name];
                if ($name === 'backoff_algorithm' && \is_string($value) && \defined(PhpRedisCompat::class . '::BACKOFF_ALGORITHM_' . strtoupper($value))) {
                    $value = \constant(PhpRedisCompat::class . '::BACKOFF_ALGORITHM_' . strtoupper($value));
                }
                $client->setOption($option, $value);
            }
        }

        return $client;
    }
}
