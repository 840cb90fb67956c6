<?php

// Laravel 8 comes from Debian's php-laravel-framework package (apt-get install
// php-laravel-framework): its one autoloader also loads the Symfony 5.4 components, Carbon,
// Monolog and psr/* packages Laravel needs. Composer autoloads this file, so artisan and
// public/index.php find Laravel through the usual vendor/autoload.php.
require_once '/usr/share/php/Illuminate/autoload.php';
