<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\PasswordHasher;

use Spindle\Bridge\HashOffload;
use Spindle\Server\Tasks\TaskClient;
use Symfony\Component\PasswordHasher\Hasher\MigratingPasswordHasher;
use Symfony\Component\PasswordHasher\Hasher\NativePasswordHasher;
use Symfony\Component\PasswordHasher\Hasher\SodiumPasswordHasher;
use Symfony\Component\PasswordHasher\PasswordHasherInterface;

/**
 * One of Symfony's CPU-heavy password hashers (bcrypt and argon2 through NativePasswordHasher or
 * SodiumPasswordHasher, the `auto` and `migrate_from` ones through MigratingPasswordHasher) with
 * its hash() and verify() run in a task worker when the server has task workers (HashOffload):
 * a login then holds up no other request of its worker. The hasher itself is sent along, so its
 * cost, memory and algorithm are the app's; an error it throws there comes back as a
 * Spindle\Server\Tasks\TaskFailed naming it. needsRehash(), a password over Symfony's length
 * limit (refused at once) and an empty hash run here.
 */
final class TaskPasswordHasher implements PasswordHasherInterface
{
    private const OFFLOADED = [NativePasswordHasher::class, SodiumPasswordHasher::class, MigratingPasswordHasher::class];

    private ?bool $portable = null;

    public function __construct(private readonly PasswordHasherInterface $inner)
    {
    }

    /** Whether $hasher is one this class sends to the task workers (an app's own hasher is left alone). */
    public static function handles(PasswordHasherInterface $hasher): bool
    {
        return \in_array($hasher::class, self::OFFLOADED, true);
    }

    public function hash(#[\SensitiveParameter] string $plainPassword): string
    {
        $client = \strlen($plainPassword) > self::MAX_PASSWORD_LENGTH ? null : $this->client();

        return $client === null ? $this->inner->hash($plainPassword) : (string) $client->run([$this->inner, 'hash'], [$plainPassword]);
    }

    public function verify(string $hashedPassword, #[\SensitiveParameter] string $plainPassword): bool
    {
        $client = $hashedPassword === '' || \strlen($plainPassword) > self::MAX_PASSWORD_LENGTH ? null : $this->client();

        return $client === null
            ? $this->inner->verify($hashedPassword, $plainPassword)
            : (bool) $client->run([$this->inner, 'verify'], [$hashedPassword, $plainPassword]);
    }

    public function needsRehash(string $hashedPassword): bool
    {
        return $this->inner->needsRehash($hashedPassword);
    }

    /**
     * The task workers' client when this hash goes there: also never for a hasher that cannot be
     * serialized (a MigratingPasswordHasher around an app's own hasher that holds a closure).
     */
    private function client(): ?TaskClient
    {
        $client = HashOffload::client();
        if ($client === null) {
            return null;
        }
        if ($this->portable === null) {
            try {
                \serialize($this->inner);
                $this->portable = true;
            } catch (\Throwable) {
                $this->portable = false;
            }
        }

        return $this->portable ? $client : null;
    }
}
