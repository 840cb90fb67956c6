<?php

declare(strict_types=1);

/*
 * The two routes of benchmarks/mysql-http.sh, shared by the Spindle app (mysql-users.php) and
 * the php-fpm script (mysql-users-fpm.php) so that both run exactly the same queries:
 *
 *   /user?id=N   one point select by primary key, the row as JSON (404 when there is none)
 *   /batch       100 point selects (ids spread over the table) through one prepared statement,
 *                answered with the count and the total length of the names as JSON
 *
 * Returns a closure (PDO, path, query params) => [status, JSON body]. Table: mysqlhttp_users,
 * created and seeded by the benchmark script.
 *
 * @return Closure(PDO, string, array<string, mixed>): array{int, string}
 */

return static function (PDO $pdo, string $path, array $query): array {
    if ($path === '/user') {
        $statement = $pdo->prepare('SELECT id, name, email, score, created_at FROM mysqlhttp_users WHERE id = ?');
        $statement->execute([(int) ($query['id'] ?? 0)]);
        $row = $statement->fetch(PDO::FETCH_ASSOC);

        return $row === false ? [404, '{"error":"no such user"}'] : [200, (string) json_encode($row)];
    }
    if ($path === '/batch') {
        $start = (int) ($query['start'] ?? 0);
        $statement = $pdo->prepare('SELECT id, name, email, score, created_at FROM mysqlhttp_users WHERE id = ?');
        $count = 0;
        $length = 0;
        for ($i = 0; $i < 100; ++$i) {
            $statement->execute([($start + $i * 37) % 1000 + 1]);
            $row = $statement->fetch(PDO::FETCH_ASSOC);
            if ($row !== false) {
                ++$count;
                $length += strlen((string) $row['name']);
            }
        }

        return [200, (string) json_encode(['count' => $count, 'names' => $length])];
    }

    return [404, '{"error":"not found"}'];
};
