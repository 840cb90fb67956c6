<?php

namespace App\Http\Controllers;

use App\Models\User;
use Illuminate\Database\ConnectionInterface;
use Illuminate\Http\Request;
use Illuminate\Http\JsonResponse;
use Illuminate\Http\Response;
use Illuminate\Support\Facades\Cache;
use Illuminate\Support\Facades\DB;
use Illuminate\Support\Facades\Redis;

class ApiController extends Controller
{
    public const BATCH_QUERIES = 100;

    public function hello(): Response
    {
        return response('Hello World', 200, ['Content-Type' => 'text/plain']);
    }

    /** One user by id: one query. */
    public function user(int $id): JsonResponse
    {
        return response()->json(User::findOrFail($id));
    }

    /** 100 queries, one user each, and a summary of what they found. */
    public function batch(): JsonResponse
    {
        $users = User::count() ?: 1;
        $found = 0;
        $checksum = 0;
        for ($i = 0; $i < self::BATCH_QUERIES - 1; $i++) {
            $user = User::find(($i * 37) % $users + 1);
            if ($user !== null) {
                $found++;
                $checksum += strlen($user->name);
            }
        }

        return response()->json([
            'queries' => self::BATCH_QUERIES,
            'users_found' => $found,
            'users_total' => $users,
            'name_length_sum' => $checksum,
        ]);
    }

    /**
     * Waits one second in the database: SELECT SLEEP(1) on MySQL, SELECT pg_sleep(1) on PostgreSQL.
     * With ?tasks=N (2 to 10), N such queries at once, each on a connection of its own, in tasks
     * of Spindle\concurrently(): they wait together, so the request takes about a second.
     */
    public function sleep(Request $request): JsonResponse
    {
        $connection = DB::connection();
        $driver = $connection->getDriverName();
        if ($driver !== 'mysql' && $driver !== 'pgsql') {
            return response()->json([
                'error' => sprintf(
                    '/sleep runs SELECT SLEEP(1), which needs MySQL (or pg_sleep(1) on PostgreSQL); this blog uses %s. Set DB_CONNECTION=mysql (or pgsql) and DB_HOST, DB_PORT, DB_DATABASE, DB_USERNAME, DB_PASSWORD.',
                    $driver
                ),
            ], 503);
        }
        $query = $driver === 'pgsql' ? 'SELECT pg_sleep(1) AS slept' : 'SELECT SLEEP(1) AS slept';
        $tasks = max(1, min(10, (int) $request->query('tasks', 1)));
        $started = microtime(true);
        if ($tasks === 1) {
            $connection->select($query);
        } else {
            \Spindle\concurrently(...array_fill(0, $tasks, fn () => $this->onConnectionOfItsOwn(
                fn (ConnectionInterface $db) => $db->select($query)
            )));
        }

        return response()->json(['slept' => round(microtime(true) - $started, 3), 'tasks' => $tasks]);
    }

    /**
     * The blog's numbers, from four queries run at once by Spindle\concurrently(), each on a
     * connection of its own (a connection runs one query at a time). On MySQL and PostgreSQL under
     * Spindle their waits overlap; SQLite answers each at once, and outside Spindle the tasks run
     * one after another.
     */
    public function stats(): JsonResponse
    {
        $started = microtime(true);
        $stats = \Spindle\concurrently(
            users: fn () => $this->onConnectionOfItsOwn(fn (ConnectionInterface $db) => $db->table('users')->count()),
            posts: fn () => $this->onConnectionOfItsOwn(fn (ConnectionInterface $db) => $db->table('posts')->count()),
            links: fn () => $this->onConnectionOfItsOwn(fn (ConnectionInterface $db) => $db->table('post_posts')->count()),
            most_linked: fn () => $this->onConnectionOfItsOwn(fn (ConnectionInterface $db) => (array) $db->table('post_posts')
                ->select('link_post_id as post_id', $db->raw('COUNT(*) as links'))
                ->groupBy('link_post_id')
                ->orderByDesc('links')
                ->orderBy('link_post_id')
                ->first()),
        );

        return response()->json($stats + ['seconds' => round(microtime(true) - $started, 3)]);
    }

    /**
     * Waits one second inside Redis: BLPOP on a list nobody pushes to. Under Spindle the
     * phpredis connection runs on Spindle's Redis client, so the other requests go on meanwhile.
     */
    public function redisWait(): JsonResponse
    {
        $started = microtime(true);
        $popped = Redis::connection()->blpop('blog:nothing:' . bin2hex(random_bytes(4)), 1);

        return response()->json(['popped' => $popped, 'waited' => round(microtime(true) - $started, 3)]);
    }

    /** The number of users, cached in Redis for a minute (Cache::remember on the redis store). */
    public function redisCache(): JsonResponse
    {
        $users = Cache::store('redis')->remember('blog:user-count', 60, fn () => User::count());

        return response()->json(['users' => $users]);
    }

    /** Runs $work on a new connection to the blog's database (its configuration, its own PDO), then closes it. */
    private function onConnectionOfItsOwn(\Closure $work): mixed
    {
        $name = config('database.default');
        $connection = app('db.factory')->make(config("database.connections.{$name}"), $name);
        try {
            return $work($connection);
        } finally {
            $connection->disconnect();
        }
    }
}
