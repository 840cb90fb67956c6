<?php

declare(strict_types=1);

namespace Spindle\Redis;

use Spindle\Redis\PhpRedis\Args;
use Spindle\Redis\PhpRedis\Builders;
use Spindle\Redis\PhpRedis\Codec;
use Spindle\Redis\PhpRedis\CommandTable;
use Spindle\Redis\PhpRedis\ErrorPolicy;
use Spindle\Redis\PhpRedis\Options;
use Spindle\Redis\PhpRedis\Reply;
use Spindle\Redis\PhpRedis\Scanner;
use Spindle\Redis\PhpRedis\Session;
use Spindle\Redis\PhpRedis\Values;
use Spindle\Redis\Protocol\ErrorReply;

/**
 * phpredis's `\Redis` API over Spindle's fiber-aware client: the same method names, arguments,
 * return conventions (true for OK, false for nil, associative arrays for HGETALL and
 * WITHSCORES with float scores), error handling (false plus getLastError(), \RedisException for
 * the kinds phpredis throws) and OPT_PREFIX key prefixing, so code written for phpredis —
 * Laravel's PhpRedisConnection among it — runs unchanged while each call suspends only its fiber.
 *
 * Several facades may share one RedisClient (and so one pipelined connection); MULTI, WATCH and
 * SUBSCRIBE take a dedicated connection while they last. Deliberate differences are listed in
 * docs/redis.md.
 *
 * Over 600 lines: its public methods are phpredis's `\Redis` API, one for one, and an API is one
 * class; the commands themselves are tables and builders in PhpRedis/ (CommandTable, Builders,
 * KeyspaceBuilders, StreamBuilders, Reply, Scanner, Session), the options and the serializer and
 * compression in Options, Codec and Values, so what is left here is the API's surface.
 *
 * @method mixed get(string $key)
 * @method mixed set(string $key, mixed $value, mixed $options = null)
 * @method mixed del(mixed ...$keys)
 */
final class PhpRedisCompat
{
    public const REDIS_NOT_FOUND = 0;
    public const REDIS_STRING = 1;
    public const REDIS_SET = 2;
    public const REDIS_LIST = 3;
    public const REDIS_ZSET = 4;
    public const REDIS_HASH = 5;
    public const REDIS_STREAM = 6;
    public const ATOMIC = 0;
    public const MULTI = 1;
    public const PIPELINE = 2;
    public const OPT_SERIALIZER = Options::OPT_SERIALIZER;
    public const OPT_PREFIX = Options::OPT_PREFIX;
    public const OPT_READ_TIMEOUT = Options::OPT_READ_TIMEOUT;
    public const OPT_SCAN = Options::OPT_SCAN;
    public const OPT_TCP_KEEPALIVE = Options::OPT_TCP_KEEPALIVE;
    public const OPT_COMPRESSION = Options::OPT_COMPRESSION;
    public const OPT_REPLY_LITERAL = Options::OPT_REPLY_LITERAL;
    public const OPT_COMPRESSION_LEVEL = Options::OPT_COMPRESSION_LEVEL;
    public const OPT_NULL_MULTIBULK_AS_NULL = Options::OPT_NULL_MULTIBULK_AS_NULL;
    public const OPT_MAX_RETRIES = Options::OPT_MAX_RETRIES;
    public const OPT_BACKOFF_ALGORITHM = Options::OPT_BACKOFF_ALGORITHM;
    public const OPT_BACKOFF_BASE = Options::OPT_BACKOFF_BASE;
    public const OPT_BACKOFF_CAP = Options::OPT_BACKOFF_CAP;
    public const SERIALIZER_NONE = Codec::SERIALIZER_NONE;
    public const SERIALIZER_PHP = Codec::SERIALIZER_PHP;
    public const SERIALIZER_IGBINARY = Codec::SERIALIZER_IGBINARY;
    public const SERIALIZER_JSON = Codec::SERIALIZER_JSON;
    // SERIALIZER_MSGPACK (3) is accepted when PHP's msgpack extension is loaded, but not declared:
    // a class constant cannot depend on that, and code (phpredis's tests among it) checks
    // defined() to find what it may use.
    public const COMPRESSION_NONE = Codec::COMPRESSION_NONE;
    public const COMPRESSION_LZF = Codec::COMPRESSION_LZF;
    public const COMPRESSION_ZSTD = Codec::COMPRESSION_ZSTD;
    public const COMPRESSION_ZSTD_MIN = 1;
    public const COMPRESSION_ZSTD_DEFAULT = 3;
    public const COMPRESSION_ZSTD_MAX = 22;
    public const COMPRESSION_LZ4 = Codec::COMPRESSION_LZ4;
    public const SCAN_NORETRY = Options::SCAN_NORETRY;
    public const SCAN_RETRY = Options::SCAN_RETRY;
    public const SCAN_PREFIX = Options::SCAN_PREFIX;
    public const SCAN_NOPREFIX = Options::SCAN_NOPREFIX;
    public const AFTER = 'after';
    public const BEFORE = 'before';
    public const BACKOFF_ALGORITHM_DEFAULT = 0;
    public const BACKOFF_ALGORITHM_DECORRELATED_JITTER = 1;
    public const BACKOFF_ALGORITHM_FULL_JITTER = 2;
    public const BACKOFF_ALGORITHM_EQUAL_JITTER = 3;
    public const BACKOFF_ALGORITHM_EXPONENTIAL = 4;
    public const BACKOFF_ALGORITHM_UNIFORM = 5;
    public const BACKOFF_ALGORITHM_CONSTANT = 6;

    private ?RedisClient $client;
    /** whether this facade made its client (and so closes it), rather than sharing one it was given */
    private bool $ownsClient;
    private readonly Session $session;
    private readonly Options $options;
    private ?string $lastError = null;
    private ?Subscription $subscription = null;
    /** what auth() was last given, as phpredis's getAuth() returns it */
    private mixed $auth = null;

    public function __construct(RedisClient|RedisConfig|string|null $client = null)
    {
        $this->client = match (true) {
            $client instanceof RedisClient => $client,
            $client instanceof RedisConfig => new RedisClient($client),
            \is_string($client) => RedisClient::fromUrl($client),
            default => null,
        };
        $this->ownsClient = !$client instanceof RedisClient;
        $this->session = new Session();
        $this->options = new Options($this->client?->config->readTimeout ?? 0.0);
    }

    /**
     * phpredis's connect(): host (or a unix socket path), port, connect timeout, …, read timeout, context.
     *
     * @param array<string, mixed>|null $context
     */
    public function connect(string $host, int $port = 6379, float $timeout = 0.0, mixed $reserved = null, int $retryInterval = 0, float $readTimeout = 0.0, ?array $context = null): bool
    {
        $options = ['host' => $host, 'port' => $port, 'timeout' => $timeout > 0 ? $timeout : 5.0, 'read_timeout' => $readTimeout > 0 ? $readTimeout : 60.0];
        if (isset($context['auth'])) {
            $options['password'] = $context['auth'];
        }
        if (isset($context['stream']) && \is_array($context['stream'])) {
            $options['ssl'] = $context['stream'];
        }
        $this->closeOwnClient();
        $this->client = new RedisClient(RedisConfig::fromArray($options));
        $this->ownsClient = true;
        $this->options->readTimeout = $this->client->config->readTimeout;
        $this->run(['PING'], Reply::Status);

        return true;
    }

    /** @param array<string, mixed>|null $context */
    public function pconnect(string $host, int $port = 6379, float $timeout = 0.0, mixed $persistentId = null, int $retryInterval = 0, float $readTimeout = 0.0, ?array $context = null): bool
    {
        return $this->connect($host, $port, $timeout, null, $retryInterval, $readTimeout, $context);
    }

    /** @param string|array<int|string, string|null> $credentials a password, or [user, password] */
    public function auth(mixed $credentials): bool
    {
        $options = $this->client()->config->toArray();
        if (\is_array($credentials)) {
            $values = array_values($credentials);
            [$options['username'], $options['password']] = \count($values) > 1 ? [$values[0], $values[1]] : [null, $values[0] ?? null];
        } else {
            $options['password'] = (string) $credentials;
        }
        $this->auth = $credentials;

        return $this->reconfigure(RedisConfig::fromArray($options), true);
    }

    /** @return string|array<int|string, string|null>|null the credentials auth() was last given */
    public function getAuth(): mixed
    {
        return $this->auth;
    }

    /** false for a database the server refuses (the connection stays on the one it was on) */
    public function select(int $database): bool
    {
        if ($database < 0) {
            return false;
        }

        return $this->reconfigure($this->client()->config->withDatabase($database), false);
    }

    public function close(): bool
    {
        $this->session->release();
        $this->subscription?->close();
        $this->closeOwnClient();

        return true;
    }

    public function isConnected(): bool
    {
        return $this->client !== null;
    }

    public function getHost(): string|false
    {
        return $this->client === null ? false : ($this->client->config->unixSocket ?? $this->client->config->host);
    }

    public function getPort(): int|false
    {
        return $this->client?->config->port ?? false;
    }

    public function getDbNum(): int|false
    {
        return $this->client?->config->database ?? false;
    }

    public function getReadTimeout(): float
    {
        return $this->options->readTimeout;
    }

    public function setOption(int $option, mixed $value): bool
    {
        return $this->options->set($option, $value);
    }

    public function getOption(int $option): mixed
    {
        return $this->options->get($option);
    }

    public function getLastError(): ?string
    {
        return $this->lastError;
    }

    public function clearLastError(): bool
    {
        $this->lastError = null;

        return true;
    }

    public function _prefix(string $key): string
    {
        return $this->options->prefix . $key;
    }

    public function _serialize(mixed $value): string
    {
        return $this->options->codec->serialize($value);
    }

    public function _unserialize(string $value): mixed
    {
        return $this->options->codec->unserialize($value, true);
    }

    public function _compress(string $value): string
    {
        return $this->options->codec->compress($value);
    }

    public function _uncompress(string $value): string
    {
        if ($value === '' || $this->options->codec->compression === Codec::COMPRESSION_NONE) {
            return $value;
        }

        return $this->options->codec->uncompress($value) ?? throw ErrorPolicy::exception('Invalid compressed data or uncompression error');
    }

    public function _pack(mixed $value): string
    {
        return $this->options->codec->pack($value);
    }

    public function _unpack(string $value): mixed
    {
        return $this->options->codec->unpack($value);
    }

    /** MULTI (default) or PIPELINE mode: later calls return $this and queue; exec() runs them. */
    public function multi(int $mode = self::MULTI): self
    {
        if ($mode !== self::MULTI || !$this->session->nest(true)) {
            $this->session->begin($mode);
        }

        return $this;
    }

    public function pipeline(): self
    {
        return $this->multi(self::PIPELINE);
    }

    public function getMode(): int
    {
        return $this->session->mode();
    }

    /** @return list<mixed>|false|null|self null outside MULTI or PIPELINE mode, as phpredis; $this ending a MULTI inside a pipeline */
    public function exec(): array|false|null|self
    {
        if ($this->session->nest(false)) {
            return $this;
        }
        try {
            $done = $this->session->exec($this->client());
        } catch (RedisException $e) {
            throw ErrorPolicy::convert($e);
        }
        if ($done === null) {
            return null;
        }
        [$queue, $replies] = $done;
        if (!\is_array($replies)) {
            if ($replies instanceof ErrorReply) {
                $this->lastError = $replies->message;
            }

            return false;
        }

        return $this->session->results($queue, $replies, fn (mixed $raw, Reply|\Closure $reply): mixed => $this->convert($raw, $reply, false));
    }

    public function discard(): bool
    {
        return $this->session->discard();
    }

    public function watch(mixed ...$keys): bool
    {
        try {
            $reply = $this->session->watch($this->client(), Args::keys($this->options->prefix, Args::spread($keys)));
        } catch (RedisException $e) {
            throw ErrorPolicy::convert($e);
        }

        return $this->convert($reply, Reply::Bool, true) === true;
    }

    public function unwatch(): bool
    {
        $this->session->unwatch();

        return true;
    }

    /**
     * @param-out int $iterator
     *
     * @return array<int|string, mixed>|false
     */
    public function scan(mixed &$iterator, ?string $pattern = null, ?int $count = 0, ?string $type = null): array|false
    {
        if ($pattern !== null && $this->options->scanPrefix) {
            $pattern = $this->options->prefix . $pattern;
        }

        return Scanner::scan(['SCAN'], $iterator, $pattern, $count ?? 0, $type, Reply::List, $this->options->scanRetry === self::SCAN_RETRY, $this->runRaw(...));
    }

    /**
     * @param-out int $iterator
     *
     * @return array<int|string, mixed>|false
     */
    public function hScan(string $key, mixed &$iterator, ?string $pattern = null, int $count = 0): array|false
    {
        return $this->unpackScan(Scanner::scan(['HSCAN', $this->options->prefix . $key], $iterator, $pattern, $count, null, Reply::Assoc, $this->options->scanRetry === self::SCAN_RETRY, $this->runRaw(...)), 'assoc');
    }

    /**
     * @param-out int $iterator
     *
     * @return array<int|string, mixed>|false
     */
    public function sScan(string $key, mixed &$iterator, ?string $pattern = null, int $count = 0): array|false
    {
        return $this->unpackScan(Scanner::scan(['SSCAN', $this->options->prefix . $key], $iterator, $pattern, $count, null, Reply::List, $this->options->scanRetry === self::SCAN_RETRY, $this->runRaw(...)), 'list');
    }

    /**
     * @param-out int $iterator
     *
     * @return array<int|string, mixed>|false
     */
    public function zScan(string $key, mixed &$iterator, ?string $pattern = null, int $count = 0): array|false
    {
        return $this->unpackScan(Scanner::scan(['ZSCAN', $this->options->prefix . $key], $iterator, $pattern, $count, null, Reply::Scores, $this->options->scanRetry === self::SCAN_RETRY, $this->runRaw(...)), 'scores');
    }

    /**
     * Blocks (suspending only this fiber) and calls $callback($redis, $channel, $message) per
     * message, until the callback calls unsubscribe() (then it returns null, as phpredis), throws,
     * or — a Spindle extension — returns false.
     *
     * @param list<string>|string $channels
     */
    public function subscribe(array|string $channels, callable $callback): mixed
    {
        return $this->listen($this->client()->subscribe(...Args::keys($this->options->prefix, (array) $channels)), $callback, false);
    }

    /** @param list<string>|string $patterns */
    public function psubscribe(array|string $patterns, callable $callback): mixed
    {
        return $this->listen($this->client()->psubscribe(...Args::keys($this->options->prefix, (array) $patterns)), $callback, true);
    }

    /**
     * Inside a subscribe() callback: ends the subscription.
     *
     * @param list<string> $channels
     */
    public function unsubscribe(array $channels = []): bool
    {
        $this->subscription?->close();

        return true;
    }

    /** @param list<string> $patterns */
    public function punsubscribe(array $patterns = []): bool
    {
        return $this->unsubscribe($patterns);
    }

    /** @param list<mixed> $arguments */
    public function __call(string $method, array $arguments): mixed
    {
        $name = strtolower($method);
        $arguments = array_values($arguments);
        $plain = $this->options->plain;
        if (!$plain) {
            $arguments = $this->options->packArguments($name, $arguments);
        }
        $entry = CommandTable::COMMANDS[$name] ?? null;
        if ($entry !== null) {
            $built = [$this->arguments($entry[0], $entry[1], $arguments), $entry[2]];
        } else {
            $built = Builders::build($name, $this->options->prefix, $arguments);
            if ($built === null) {
                throw new \Error(sprintf('Call to undefined method %s::%s()', self::class, $method));
            }
            if ($built[0] === []) {
                // invalid arguments phpredis answers without a round trip
                return $this->convert(null, $built[1], false);
            }
        }
        if (!$plain) {
            $built = $this->options->replies($name, $built);
        }
        if ($this->session->mode() !== self::ATOMIC) {
            $this->session->queue($built);

            return $this;
        }

        return $this->run(...$built);
    }

    /**
     * Runs one command now and converts its reply.
     *
     * @param list<string> $command
     * @param Reply|\Closure(mixed): mixed $reply
     */
    private function run(array $command, Reply|\Closure $reply): mixed
    {
        try {
            $held = $this->session->held();
            $raw = $held !== null
                ? $held->request($command, $this->blockingTimeout($command))
                : $this->client()->request($command);
        } catch (RedisException $e) {
            throw ErrorPolicy::convert($e);
        }

        return $this->convert($raw, $reply, true);
    }

    /** @param Reply|\Closure(mixed): mixed $reply */
    private function convert(mixed $raw, Reply|\Closure $reply, bool $throw): mixed
    {
        if ($raw instanceof ErrorReply) {
            $this->lastError = $raw->message;
            if ($throw && ErrorPolicy::throws($raw)) {
                throw ErrorPolicy::exception($raw->message);
            }

            return false;
        }

        return $reply instanceof Reply ? $reply->apply($raw) : $reply($raw);
    }

    /**
     * @param list<mixed> $a
     *
     * @return list<string>
     */
    private function arguments(string $command, string $shape, array $a): array
    {
        $p = $this->options->prefix;

        return match ($shape) {
            '' => [$command, ...Args::values($a)],
            'k' => [$command, ...($a === [] ? [] : [$p . Args::value($a[0])]), ...Args::values(\array_slice($a, 1))],
            'K' => [$command, ...Args::keys($p, Args::spread($a))],
            'kk' => [$command, ...Args::keys($p, \array_slice($a, 0, 2)), ...Args::values(\array_slice($a, 2))],
            'kv' => [$command, $p . Args::value($a[0] ?? ''), ...Args::values(Args::spread(\array_slice($a, 1)))],
            'kK' => \count($a) === 1 && \is_array($a[0])
                ? [$command, ...Args::keys($p, array_values($a[0]))]
                : [$command, $p . Args::value($a[0] ?? ''), ...Args::keys($p, Args::spread(\array_slice($a, 1)))],
            'opK' => [$command, Args::value($a[0] ?? ''), ...Args::keys($p, Args::spread(\array_slice($a, 1)))],
            'Kt' => [$command, ...Args::keys($p, Args::spread(\array_slice($a, 0, -1))), Args::value($a[\count($a) - 1] ?? 0)],
            default => throw new RedisError('Unknown argument shape ' . $shape),
        };
    }

    /** @param list<string> $command */
    private function blockingTimeout(array $command): ?float
    {
        $blocking = Commands::blockingTimeout($command);

        return $blocking === null ? null : ($blocking > 0 ? $blocking + $this->options->readTimeout : 0.0);
    }

    /**
     * @param array<int|string, mixed>|false $items
     *
     * @return array<int|string, mixed>|false
     */
    private function unpackScan(array|false $items, string $shape): array|false
    {
        if ($items === false || !$this->options->codec->active()) {
            return $items;
        }
        $items = Values::unpack($items, $shape, $this->options->codec);

        return \is_array($items) ? $items : false;
    }

    /** @param list<string> $command */
    private function runRaw(array $command): mixed
    {
        return $this->run($command, Reply::Raw);
    }

    private function listen(Subscription $subscription, callable $callback, bool $patterns): mixed
    {
        $this->subscription = $subscription;
        try {
            foreach ($subscription as $message) {
                $result = $patterns
                    ? $callback($this, $message->pattern, $message->channel, $message->payload)
                    : $callback($this, $message->channel, $message->payload);
                if ($result === false) {
                    break;
                }
            }
        } catch (RedisException $e) {
            throw ErrorPolicy::convert($e);
        } finally {
            $subscription->close();
            $this->subscription = null;
        }

        return null;
    }

    /**
     * Switches to a client with $config once the server accepted it (a PING through its session
     * setup); refused, the facade keeps its client and throws (AUTH, as phpredis) or returns false.
     */
    private function reconfigure(RedisConfig $config, bool $throw): bool
    {
        $client = new RedisClient($config);
        try {
            $client->execute('PING');
        } catch (ServerException $e) {
            if ($e->reply->kind() === 'NOPERM') {
                // authenticated, as a user who may not PING
                $this->session->release(false);
                $this->closeOwnClient();
                $this->client = $client;
                $this->ownsClient = true;

                return true;
            }
            $client->close();
            $this->lastError = $e->reply->message;
            if ($throw) {
                throw ErrorPolicy::exception($e->reply->message, $e);
            }

            return false;
        } catch (RedisException $e) {
            $client->close();
            throw ErrorPolicy::convert($e);
        }
        $this->session->release(false);
        $this->closeOwnClient();
        $this->client = $client;
        $this->ownsClient = true;

        return true;
    }

    private function closeOwnClient(): void
    {
        if ($this->ownsClient) {
            $this->client?->close();
        }
    }

    private function client(): RedisClient
    {
        return $this->client ?? throw ErrorPolicy::exception('Redis server went away: not connected (call connect() first)');
    }
}
