<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\PasswordHasher;

use Symfony\Component\PasswordHasher\Hasher\PasswordHasherFactoryInterface;
use Symfony\Component\PasswordHasher\PasswordHasherInterface;

/**
 * Decorates SecurityBundle's `security.password_hasher_factory` (PasswordHashersPass): the hashers
 * it gives out for bcrypt, argon2 and `auto` come wrapped in a TaskPasswordHasher, so logins
 * (CheckCredentialsListener), UserPasswordHasher and every other user of the factory hash in the
 * task workers under `spindle serve`. Anywhere else (bin/console, no task workers,
 * SPINDLE_HASH_OFFLOAD=0) the wrapper runs the hasher where it is called.
 */
final class TaskPasswordHasherFactory implements PasswordHasherFactoryInterface
{
    /** @var \WeakMap<PasswordHasherInterface, TaskPasswordHasher> */
    private \WeakMap $wrapped;

    public function __construct(private readonly PasswordHasherFactoryInterface $inner)
    {
        $this->wrapped = new \WeakMap();
    }

    /** @param mixed $user a user class's name, a PasswordAuthenticatedUserInterface or a PasswordHasherAwareInterface */
    public function getPasswordHasher($user): PasswordHasherInterface
    {
        $hasher = $this->inner->getPasswordHasher($user);
        if (!TaskPasswordHasher::handles($hasher)) {
            return $hasher;
        }

        return $this->wrapped[$hasher] ??= new TaskPasswordHasher($hasher);
    }
}
