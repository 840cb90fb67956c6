#!/usr/bin/env bash
# Runs benchmarks/mysql-query.php twice: with OPcache and the tracing JIT (as bin/spindle runs
# PHP) and without them. Starts the private MariaDB with scripts/mariadb if it is not running and
# installs php8.2-mysql (native pdo_mysql, the comparison) with apt-get if it is missing.
#
#   bash benchmarks/mysql-query.sh
#   ITERATIONS=2 ROUNDS=5 bash benchmarks/mysql-query.sh     # knobs are passed to mysql-query.php
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_tools pdo_mysql
scripts/mariadb >/dev/null

echo "## With OPcache and the tracing JIT (as bin/spindle runs)"
echo
php -d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M benchmarks/mysql-query.php
echo
echo "## Without JIT (OPcache off)"
echo
php -d opcache.enable_cli=0 benchmarks/mysql-query.php
