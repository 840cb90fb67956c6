<?php

declare(strict_types=1);

/*
 * php-fpm script for benchmarks/mysql-http.sh: the routes of mysql-users-routes.php through
 * native PDO (pdo_mysql), as a plain PHP application does it. MYSQL_PERSISTENT=1 (a FastCGI
 * parameter) keeps one connection per php-fpm child (PDO::ATTR_PERSISTENT); otherwise every
 * request connects, as a framework app without persistent connections does.
 */

$routes = require __DIR__ . '/mysql-users-routes.php';
$pdo = new PDO(
    sprintf('mysql:host=%s;port=%d;dbname=%s;charset=utf8mb4', $_SERVER['MYSQL_HOST'], (int) $_SERVER['MYSQL_PORT'], $_SERVER['MYSQL_DATABASE']),
    $_SERVER['MYSQL_USER'],
    $_SERVER['MYSQL_PASSWORD'],
    [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, PDO::ATTR_PERSISTENT => ($_SERVER['MYSQL_PERSISTENT'] ?? '0') === '1'],
);
$path = parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);
[$status, $body] = $routes($pdo, is_string($path) ? $path : '/', $_GET);
http_response_code($status);
header('Content-Type: application/json');
echo $body;
