<?php

namespace Database\Seeders;

use App\Blog\BlogData;
use Illuminate\Database\Seeder;

class DatabaseSeeder extends Seeder
{
    /** Seed the blog: 1,000 users, 10,000 posts, 33,864 links (the same rows on every run). */
    public function run(): void
    {
        (new BlogData())->insert($this->container->make('db')->connection());
    }
}
