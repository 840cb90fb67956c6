<?php

declare(strict_types=1);

/*
 * The comparison app for benchmarks/mysql-concurrency.sh: the same SELECT SLEEP(n) through the
 * native pdo_mysql PDO, one connection per worker. The query blocks the whole worker process, so
 * one worker serves one request at a time. Settings as for mysql-sleep.php.
 */

$settings = require __DIR__ . '/mysql-settings.php';
$dsn = sprintf('mysql:host=%s;port=%d;dbname=%s;charset=utf8mb4', $settings['host'], $settings['port'], $settings['database']);
$sleep = (float) (getenv('SLEEP_SECONDS') ?: 1);
$pdo = null;

return static function () use (&$pdo, $dsn, $settings, $sleep): string {
    $pdo ??= new \PDO($dsn, $settings['user'], $settings['password'], [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);

    return 'slept ' . $pdo->query(sprintf('SELECT SLEEP(%F)', $sleep))->fetchColumn();
};
