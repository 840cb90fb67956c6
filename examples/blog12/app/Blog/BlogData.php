<?php

namespace App\Blog;

use Illuminate\Database\ConnectionInterface;

/**
 * The blog's rows: 1,000 users, 10,000 posts and 33,864 links between posts, the sizes of the
 * blog this example reproduces. The same seed gives the same rows on every run, and the rows
 * go in with multi-row inserts in one transaction per table, so seeding takes seconds.
 */
final class BlogData
{
    public const USERS = 1000;
    public const POSTS = 10000;
    public const LINKS = 33864;

    private const SEED = 20220622;
    private const CHUNK = 500;
    /** bcrypt("password"), computed once: hashing 1,000 passwords would take most of the seeding time. */
    private const PASSWORD = '$2y$10$92IXUNpkjO0rOQ5byMi.Ye4oKoEa3Ro9llC/.og/at2.uheWG/igi';
    private const FIRST_NAMES = ['Aiko', 'Ben', 'Chiara', 'Dmitri', 'Emma', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas',
        'Kenji', 'Lena', 'Mateo', 'Nora', 'Omar', 'Priya', 'Quentin', 'Rosa', 'Sven', 'Tomoko', 'Uma', 'Viktor',
        'Wen', 'Ximena', 'Yusuf', 'Zoe'];
    private const LAST_NAMES = ['Abe', 'Bauer', 'Costa', 'Dubois', 'Eriksen', 'Fujita', 'Garcia', 'Haddad', 'Ito',
        'Jensen', 'Kowalski', 'Lopez', 'Moreau', 'Nakamura', 'Okafor', 'Petrov', 'Rossi', 'Sato', 'Tanaka',
        'Urban', 'Varga', 'Weber', 'Yamada', 'Zimmermann'];
    private const WORDS = ['laravel', 'php', 'fiber', 'worker', 'request', 'response', 'database', 'query', 'index',
        'cache', 'session', 'cookie', 'route', 'view', 'blade', 'model', 'eloquent', 'migration', 'server', 'latency',
        'throughput', 'memory', 'opcache', 'preload', 'jit', 'benchmark', 'profile', 'deploy', 'queue', 'event',
        'loop', 'socket', 'connection', 'pool', 'transaction', 'schema', 'table', 'column', 'row', 'page', 'link',
        'post', 'author', 'comment', 'draft', 'release', 'version', 'feature', 'bug', 'fix', 'test', 'suite',
        'the', 'a', 'of', 'and', 'to', 'in', 'is', 'for', 'on', 'with', 'fast', 'slow', 'simple', 'small'];

    /** Deletes nothing: fills the (empty) users, posts and post_posts tables. */
    public function insert(ConnectionInterface $db): void
    {
        mt_srand(self::SEED);
        $epoch = strtotime('2022-06-22 00:00:00 UTC');

        $db->transaction(function () use ($db, $epoch): void {
            $rows = [];
            for ($id = 1; $id <= self::USERS; $id++) {
                $at = date('Y-m-d H:i:s', $epoch - (self::USERS - $id) * 86400 - mt_rand(0, 86399));
                $rows[] = [
                    'id' => $id,
                    'name' => self::pick(self::FIRST_NAMES) . ' ' . self::pick(self::LAST_NAMES),
                    'email' => 'user' . $id . '@example.com',
                    'password' => self::PASSWORD,
                    'created_at' => $at,
                    'updated_at' => $at,
                ];
            }
            $this->insertChunks($db, 'users', $rows);
        });

        $db->transaction(function () use ($db, $epoch): void {
            $rows = [];
            for ($id = 1; $id <= self::POSTS; $id++) {
                $at = date('Y-m-d H:i:s', $epoch - (self::POSTS - $id) * 3600 - mt_rand(0, 3599));
                $rows[] = [
                    'id' => $id,
                    'user_id' => mt_rand(1, self::USERS),
                    'title' => ucfirst(self::words(mt_rand(3, 8))),
                    'body' => self::body(),
                    'created_at' => $at,
                    'updated_at' => $at,
                ];
                if (count($rows) === self::CHUNK) {
                    $this->insertChunks($db, 'posts', $rows);
                    $rows = [];
                }
            }
            $this->insertChunks($db, 'posts', $rows);
        });

        $db->transaction(function () use ($db, $epoch): void {
            $seen = [];
            $rows = [];
            $at = date('Y-m-d H:i:s', $epoch);
            while (count($seen) < self::LINKS) {
                $from = mt_rand(1, self::POSTS);
                $to = mt_rand(1, self::POSTS);
                if ($from === $to || isset($seen[$from * 100000 + $to])) {
                    continue;
                }
                $seen[$from * 100000 + $to] = true;
                $rows[] = ['post_id' => $from, 'link_post_id' => $to, 'created_at' => $at, 'updated_at' => $at];
            }
            $this->insertChunks($db, 'post_posts', $rows);
        });
    }

    /** @param list<array<string, int|string>> $rows */
    private function insertChunks(ConnectionInterface $db, string $table, array $rows): void
    {
        foreach (array_chunk($rows, self::CHUNK) as $chunk) {
            $db->table($table)->insert($chunk);
        }
    }

    /** @param list<string> $list */
    private static function pick(array $list): string
    {
        return $list[mt_rand(0, count($list) - 1)];
    }

    private static function words(int $count): string
    {
        $words = [];
        for ($i = 0; $i < $count; $i++) {
            $words[] = self::pick(self::WORDS);
        }

        return implode(' ', $words);
    }

    private static function body(): string
    {
        $paragraphs = [];
        for ($p = mt_rand(2, 4); $p > 0; $p--) {
            $sentences = [];
            for ($s = mt_rand(3, 6); $s > 0; $s--) {
                $sentences[] = ucfirst(self::words(mt_rand(6, 14))) . '.';
            }
            $paragraphs[] = implode(' ', $sentences);
        }

        return implode("\n\n", $paragraphs);
    }
}
