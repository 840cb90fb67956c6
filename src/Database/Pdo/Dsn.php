<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/**
 * The part of a "mysql:" DSN after the colon: "host=…;port=…;dbname=…;charset=…;unix_socket=…"
 * (also user= and password=, used when the constructor gets none). Keys are case-sensitive,
 * unknown keys are ignored, a later key wins, ";;" stands for a literal ";" and blanks after a
 * ";" are skipped: PDO's own rules.
 */
final class Dsn
{
    public const KEYS = ['charset', 'dbname', 'host', 'port', 'unix_socket', 'user', 'password'];

    /** @param array<string, string> $values */
    private function __construct(private readonly array $values)
    {
    }

    public static function parse(string $dataSource): self
    {
        $values = [];
        $length = \strlen($dataSource);
        $keyStart = 0;
        $i = 0;
        while ($i < $length) {
            if ($dataSource[$i] === "\0") {
                break;
            }
            if ($dataSource[$i] !== '=') {
                ++$i;
                continue;
            }
            $valueStart = ++$i;
            $value = '';
            while ($i < $length && $dataSource[$i] !== "\0") {
                if ($dataSource[$i] === ';') {
                    if ($i + 1 < $length && $dataSource[$i + 1] === ';') {
                        $value .= ';';
                        $i += 2;
                        continue;
                    }
                    break;
                }
                $value .= $dataSource[$i];
                ++$i;
            }
            $key = substr($dataSource, $keyStart, $valueStart - $keyStart - 1);
            if (\in_array($key, self::KEYS, true)) {
                $values[$key] = $value;
            }
            ++$i; // the ";" (or NUL) that ended the value
            while ($i < $length && ctype_space($dataSource[$i])) {
                ++$i;
            }
            $keyStart = $i;
        }

        return new self($values);
    }

    public function get(string $key): ?string
    {
        return $this->values[$key] ?? null;
    }

    public function host(): string
    {
        return $this->values['host'] ?? 'localhost';
    }

    /** The port as atoi() reads it; 0 (or none) means 3306. */
    public function port(): int
    {
        $port = (int) ($this->values['port'] ?? '3306');

        return $port > 0 ? $port : 3306;
    }
}
