#!/bin/sh
# run_gemm_convert.sh BUILD_DIR [bench_gemm_convert options...]
#
# A precision-mode GEMM with its conversion ahead on the copy engine against
# the inline conversion (bench/gemm_convert.c): two daemons on every CPU,
# one with --convert-ahead off, the bench alternating between them.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_gemm_convert "$@"
shift
bench_tmpdir trnsci-gemm-convert
daemon_start ahead "$DAEMON" --cores "$(nproc)" --run-ahead on \
    --listen "unix:$BENCH_TMP/ahead.sock" \
    --log-level warn
daemon_start inline "$DAEMON" --cores "$(nproc)" --convert-ahead off \
    --listen "unix:$BENCH_TMP/inline.sock" --log-level warn
daemon_wait ahead "unix:$BENCH_TMP/ahead.sock"
daemon_wait inline "unix:$BENCH_TMP/inline.sock"
bench_run "$BENCH" "unix:$BENCH_TMP/ahead.sock" --inline "unix:$BENCH_TMP/inline.sock" "$@"
