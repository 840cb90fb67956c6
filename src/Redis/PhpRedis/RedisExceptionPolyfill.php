<?php

declare(strict_types=1);

// phpredis's exception class, for the PhpRedisCompat facade where the redis extension is not loaded.
if (!class_exists('RedisException', false)) {
    class RedisException extends \RuntimeException
    {
    }
}
