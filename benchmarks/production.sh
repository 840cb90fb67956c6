#!/usr/bin/env bash
# What --access-log and --metrics cost on the hello benchmark: examples/hello.php, 2 workers,
# wrk -t2 -c64, in interleaved rounds of one run, against the same server with both off and
# against a checkout from before they existed (BASELINE_DIR, optional).
#
#   bash benchmarks/production.sh
#   git archive <commit> | tar -x -C /tmp/spindle-base && cp -r vendor /tmp/spindle-base/
#   BASELINE_DIR=/tmp/spindle-base bash benchmarks/production.sh
#
# Each run reports req/s and the workers' CPU time per request (from /proc: it does not depend on
# what else the machine runs as much as req/s does). The table gives the median of the rounds.
#
# Env knobs: DURATION (seconds per wrk run, default 5), ROUNDS (default 3), CONNS (default 64),
# BASELINE_DIR (another checkout, with vendor/; default none).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION="${DURATION:-5}"
ROUNDS="${ROUNDS:-3}"
CONNS="${CONNS:-64}"
BASELINE_DIR="${BASELINE_DIR:-}"

need_tools wrk curl
make_tmp spindle-production-bench
SETTINGS=(-d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M -d zend.assertions=-1)

declare -A PORTS PIDS OPTIONS
VARIANTS=()
[[ -n "$BASELINE_DIR" ]] && { VARIANTS+=(baseline); OPTIONS[baseline]=""; }
VARIANTS+=(off json combined metrics all)
OPTIONS[off]=""
OPTIONS[json]="--access-log=$TMP/json.log --access-log-format=json"
OPTIONS[combined]="--access-log=$TMP/combined.log --access-log-format=combined"
OPTIONS[metrics]="--metrics=127.0.0.1:0"
OPTIONS[all]="--access-log=$TMP/all.log --access-log-format=json --metrics=127.0.0.1:0 --health-path=/healthz --ready-path=/readyz"

for name in "${VARIANTS[@]}"; do
    dir="$ROOT"
    [[ "$name" == baseline ]] && dir="$BASELINE_DIR"
    # shellcheck disable=SC2086  # the options are words
    spawn_spindle "spindle-$name" "Spindle ($name)" "$TMP/$name.out" 20 \
        php "${SETTINGS[@]}" "$dir/bin/spindle" serve "$dir/examples/hello.php" --host=127.0.0.1 --port=0 --workers=2 ${OPTIONS[$name]}
    PORTS[$name]="$SPINDLE_PORT"
    PIDS[$name]="$SPINDLE_PID"
    wait_for_body "Spindle $name" "http://127.0.0.1:$SPINDLE_PORT/" "Hello World" "$SPINDLE_PID"
done

declare -A RPS CPU
for ((round = 1; round <= ROUNDS; round++)); do
    for name in "${VARIANTS[@]}"; do
        url="http://127.0.0.1:${PORTS[$name]}/"
        out="$TMP/$name-$round.txt"
        run_wrk /dev/null -t2 -c"$CONNS" -d1s "$url" || true
        mapfile -t pids < <(ps -o pid= --ppid "${PIDS[$name]}")
        before="$(cpu_ticks "${pids[@]}")"
        run_wrk "$out" -t2 -c"$CONNS" -d"${DURATION}s" "$url" || die "wrk failed on $url"
        ticks=$(( $(cpu_ticks "${pids[@]}") - before ))
        rps="$(wrk_rps "$out")"
        cpu="$(awk -v t="$ticks" -v n="$(wrk_requests "$out")" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t * 1e6 / hz / n }')"
        RPS[$name]+="$rps "
        CPU[$name]+="$cpu "
        log "round $round: $name: $rps req/s, $cpu µs worker CPU per request, errors: $(wrk_errors "$out")"
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
REF_RPS="$(median <<<"${RPS[off]}")"
REF_CPU="$(median <<<"${CPU[off]}")"
REPORT="$(
    echo "# --access-log and --metrics on the hello benchmark"
    echo
    echo "- date: $(date -Iseconds), nproc $(nproc), $(cpu_model)"
    echo "- examples/hello.php, --workers=2, wrk -t2 -c$CONNS -d${DURATION}s, $ROUNDS interleaved rounds, medians"
    echo
    echo "| variant | options | req/s | vs off | worker CPU µs/request | vs off |"
    echo "| --- | --- | ---: | ---: | ---: | ---: |"
    for name in "${VARIANTS[@]}"; do
        r="$(median <<<"${RPS[$name]}")"
        c="$(median <<<"${CPU[$name]}")"
        printf '| %s | `%s` | %s | %s | %s | %s |\n' "$name" "${OPTIONS[$name]//$TMP\//}" "$r" "$(ratio "$r" "$REF_RPS" 3)" "$c" "$(ratio "$c" "$REF_CPU" 3)"
    done
    echo
    echo "Every round: $(for name in "${VARIANTS[@]}"; do printf '%s %s req/s (%s µs); ' "$name" "${RPS[$name]}" "${CPU[$name]}"; done)"
)"
publish_report "$ROOT/benchmarks/results/production-$(date +%Y-%m-%d-%H%M%S).md"
