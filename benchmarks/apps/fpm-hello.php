<?php
// Baseline for benchmarks/http.sh: the same "Hello World" answer as
// examples/hello.php, served by nginx + php-fpm instead of Spindle.
header('Content-Type: text/plain');
echo 'Hello World';
