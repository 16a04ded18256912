#!/bin/sh
# run_fuzz.sh TARGET SEEDS WORK SECONDS — runs one libFuzzer target for
# SECONDS over the committed seeds (read only) and its own work corpus.
# Fails when the target finds a crash, a leak or a timeout; the input that
# did it is left in WORK as crash-*/leak-*/timeout-* to be added to SEEDS
# as a regression case once fixed.
set -eu
target=$1 seeds=$2 work=$3 seconds=$4
mkdir -p "$work"
# -runs bounds a run on a fast machine; -max_total_time on a slow one.
exec "$target" -max_total_time="$seconds" -runs=$((seconds * 500000)) -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$work/" "$work" "$seeds"
