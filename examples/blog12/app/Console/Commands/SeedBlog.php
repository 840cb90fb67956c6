<?php

namespace App\Console\Commands;

use App\Blog\BlogData;
use Illuminate\Console\Command;
use Illuminate\Support\Facades\DB;
use Illuminate\Support\Facades\Schema;

/**
 * Creates the blog's tables and fills them with the same 1,000 users, 10,000 posts and 33,864
 * links on every run. On SQLite it creates the database file first. It drops only the blog's own
 * tables (never the whole database), so a MySQL database shared with other tables is safe with
 * a DB_PREFIX.
 */
class SeedBlog extends Command
{
    /** @var string */
    protected $signature = 'blog:seed {--if-needed : Do nothing when the database already holds the whole blog}';

    /** @var string */
    protected $description = 'Create and fill the blog database (1,000 users, 10,000 posts, 33,864 links)';

    private const TABLES = ['post_posts', 'posts', 'password_resets', 'users', 'migrations'];

    public function handle(): int
    {
        // An SQLite connection opens its file as soon as it is made: create the file first.
        $name = config('database.default');
        $config = config("database.connections.{$name}");
        if (($config['driver'] ?? null) === 'sqlite') {
            $file = $config['database'];
            if ($file !== ':memory:' && !is_file($file)) {
                if (!is_dir(dirname($file))) {
                    mkdir(dirname($file), 0777, true);
                }
                touch($file);
                $this->line("Created {$file}");
            }
        }
        $connection = DB::connection();

        if ($this->option('if-needed') && $this->isSeeded()) {
            $this->info('The blog database is already seeded.');

            return self::SUCCESS;
        }

        $started = microtime(true);
        $schema = Schema::connection($connection->getName());
        $schema->disableForeignKeyConstraints();
        foreach (self::TABLES as $table) {
            $schema->dropIfExists($table);
        }
        $schema->enableForeignKeyConstraints();
        $this->call('migrate', ['--force' => true]);

        (new BlogData())->insert($connection);

        $this->info(sprintf(
            'Seeded %s users, %s posts and %s links on %s in %.1f s.',
            number_format($connection->table('users')->count()),
            number_format($connection->table('posts')->count()),
            number_format($connection->table('post_posts')->count()),
            $connection->getDriverName(),
            microtime(true) - $started
        ));

        return self::SUCCESS;
    }

    private function isSeeded(): bool
    {
        $db = DB::connection();
        $schema = Schema::connection($db->getName());
        foreach (['users' => BlogData::USERS, 'posts' => BlogData::POSTS, 'post_posts' => BlogData::LINKS] as $table => $rows) {
            if (!$schema->hasTable($table) || $db->table($table)->count() !== $rows) {
                return false;
            }
        }

        return true;
    }
}
