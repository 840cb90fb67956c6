<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Hashing;

use Illuminate\Contracts\Hashing\Hasher;
use Spindle\Bridge\HashOffload;
use Spindle\Server\Tasks\TaskClient;

/**
 * Laravel's bcrypt and argon hashers, with their CPU-heavy make() and check() run in a task
 * worker when the server has task workers (SPINDLE_TASK_WORKERS): a login then holds up no other
 * request of its worker. The hasher itself (its rounds, memory, limits, algorithm checks) is sent
 * along, so hashes and errors are what Laravel's own hasher gives; an error it throws there comes
 * back as a Spindle\Server\Tasks\TaskFailed (a RuntimeException) naming it. Without task workers,
 * and for info() and needsRehash(), the hasher runs here.
 *
 * Opt out with SPINDLE_HASH_OFFLOAD=0 (SpindleServiceProvider then leaves the hashers alone).
 */
final class TaskHasher implements Hasher
{
    public function __construct(private readonly Hasher $inner)
    {
    }

    public static function enabled(): bool
    {
        return HashOffload::enabled();
    }

    /**
     * @param string $hashedValue
     *
     * @return array<mixed>
     */
    public function info($hashedValue): array
    {
        return $this->inner->info($hashedValue);
    }

    /**
     * @param string $value
     * @param array<string, mixed> $options
     */
    public function make($value, array $options = []): string
    {
        $client = self::client();
        $hash = $client === null ? $this->inner->make($value, $options) : $client->run([$this->inner, 'make'], [$value, $options]);

        return (string) $hash;
    }

    /**
     * @param string $value
     * @param string|null $hashedValue
     * @param array<string, mixed> $options
     */
    public function check($value, $hashedValue, array $options = []): bool
    {
        $client = self::client();
        if ($client === null || $hashedValue === null || $hashedValue === '') {
            return $this->inner->check($value, (string) $hashedValue, $options);
        }

        return (bool) $client->run([$this->inner, 'check'], [$value, $hashedValue, $options]);
    }

    /**
     * @param string $hashedValue
     * @param array<string, mixed> $options
     */
    public function needsRehash($hashedValue, array $options = []): bool
    {
        return $this->inner->needsRehash($hashedValue, $options);
    }

    /**
     * Anything else Laravel's hasher offers (verifyConfiguration(), setRounds(), …).
     *
     * @param array<mixed> $arguments
     */
    public function __call(string $method, array $arguments): mixed
    {
        return $this->inner->{$method}(...$arguments);
    }

    private static function client(): ?TaskClient
    {
        return HashOffload::client();
    }
}
