<?php

declare(strict_types=1);

/*
 * Where the MySQL benchmark apps connect: MYSQL_HOST/PORT/USER/PASSWORD/DATABASE from the
 * environment, else from the env file scripts/mariadb writes ($SPINDLE_MYSQL_DIR/env).
 *
 * @return array{host: string, port: int, user: string, password: string, database: string}
 */

$file = (getenv('SPINDLE_MYSQL_DIR') ?: '/tmp/spindle-mariadb') . '/env';
$values = [];
foreach (is_file($file) ? (file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) ?: []) : [] as $line) {
    if (preg_match('/^(?:export\s+)?([A-Z_]+)=(.*)$/', $line, $m) === 1) {
        $values[$m[1]] = $m[2];
    }
}
$get = static function (string $key) use ($values, $file): string {
    $value = getenv($key);
    if ($value !== false && $value !== '') {
        return $value;
    }
    if (!isset($values[$key])) {
        throw new RuntimeException("$key is not set and $file lacks it: run scripts/mariadb first");
    }

    return $values[$key];
};

return [
    'host' => $get('MYSQL_HOST'),
    'port' => (int) $get('MYSQL_PORT'),
    'user' => $get('MYSQL_USER'),
    'password' => $get('MYSQL_PASSWORD'),
    'database' => $get('MYSQL_DATABASE'),
];
