<?php

declare(strict_types=1);

namespace Spindle\Bridge\Doctrine;

use Doctrine\DBAL\Driver\PDO\Exception;
use Spindle\Database\Pdo;

/**
 * What the MySQL and PostgreSQL drivers make alike of DBAL's connection parameters, as DBAL's
 * pdo_mysql and pdo_pgsql drivers do: the PDO attributes, the DSN, and Spindle's PDO itself.
 */
final class PdoParameters
{
    /**
     * The PDO attributes (driverOptions, with ATTR_PERSISTENT when persistent is set), once user
     * and password are checked to be strings or null.
     *
     * @param array<string, mixed> $params
     *
     * @return array<int|string, mixed>
     *
     * @throws InvalidConfiguration
     */
    public static function attributes(#[\SensitiveParameter] array $params): array
    {
        /** @var array<int|string, mixed> $options */
        $options = $params['driverOptions'] ?? [];
        if (!empty($params['persistent'])) {
            $options[\PDO::ATTR_PERSISTENT] = true;
        }
        foreach (['user', 'password'] as $key) {
            if (isset($params[$key]) && !\is_string($params[$key])) {
                throw InvalidConfiguration::notAStringOrNull($key, $params[$key]);
            }
        }

        return $options;
    }

    /**
     * Spindle's PDO on $dsn, as user and password of $params; PDO's errors as DBAL's.
     *
     * @param array<string, mixed>     $params     checked by attributes()
     * @param array<int|string, mixed> $attributes
     */
    public static function open(string $dsn, #[\SensitiveParameter] array $params, array $attributes): Pdo
    {
        $user = $params['user'] ?? '';
        $password = $params['password'] ?? '';
        \assert(\is_string($user) && \is_string($password));
        try {
            return new Pdo($dsn, $user, $password, $attributes);
        } catch (\PDOException $exception) {
            throw Exception::new($exception);
        }
    }

    /**
     * "$prefix" and `key=value;` for each of $keys that $params sets: a null leaves it out, and
     * so does an empty string for the keys of $emptyIsUnset.
     *
     * @param array<string, mixed> $params
     * @param list<string>         $keys
     * @param list<string>         $emptyIsUnset
     *
     * @throws InvalidConfiguration for a value that is not a scalar
     */
    public static function dsn(string $prefix, array $params, array $keys, array $emptyIsUnset): string
    {
        $dsn = $prefix;
        foreach ($keys as $key) {
            $value = $params[$key] ?? null;
            if ($value === null || ($value === '' && \in_array($key, $emptyIsUnset, true))) {
                continue;
            }
            if (!\is_scalar($value)) {
                throw InvalidConfiguration::notAScalar($key, $value);
            }
            $dsn .= $key . '=' . $value . ';';
        }

        return $dsn;
    }
}
