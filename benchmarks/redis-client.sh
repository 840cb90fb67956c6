#!/usr/bin/env bash
# Runs benchmarks/redis-client.php (Spindle's Redis client against phpredis, side by side) with
# OPcache and the tracing JIT, as bin/spindle runs PHP. Installs redis-server and php8.2-redis
# (and php-predis, for predis's row) with apt-get if they are missing; the script starts its own
# private redis-server.
#
#   bash benchmarks/redis-client.sh
#   OPS=20000 ROUNDS=9 bash benchmarks/redis-client.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_tools deb:redis-server deb:php8.2-redis deb:php-predis
[[ -d vendor ]] || die "vendor/ is missing: run composer install"
php -d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M benchmarks/redis-client.php
