<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Session;

/**
 * The formats of PHP's session.serialize_handler that Spindle's session storage reads and
 * writes, byte for byte as PHP's session module does, so that session data stays shared with
 * PHP-FPM (or any PHP) serving the same app.
 */
enum SerializeHandler: string
{
    /** `key|serialized-value` per entry, PHP's default. */
    case Php = 'php';
    /** serialize() of the whole array. */
    case PhpSerialize = 'php_serialize';
    /** igbinary_serialize() of the whole array (the igbinary extension). */
    case Igbinary = 'igbinary';

    /** The handler named by session.serialize_handler; a name Spindle cannot write is an error. */
    public static function named(string $name): self
    {
        $handler = self::tryFrom($name);
        if ($handler === null || ($handler === self::Igbinary && !\function_exists('igbinary_serialize'))) {
            throw new \LogicException(\sprintf('session.serialize_handler "%s" is not supported by Spindle\'s session storage (php, php_serialize, igbinary)', $name));
        }

        return $handler;
    }
}
