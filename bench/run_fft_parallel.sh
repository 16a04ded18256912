#!/bin/sh
# run_fft_parallel.sh BUILD_DIR [bench_fft_parallel options...]
#
# One large FFT on every core (bench/fft_parallel.c; docs/numerics.md,
# "Parallel single transforms"): a 1-core trnscid (`--cores 1`) and a
# 2-core one (`--cores 2`), both started here and idle but for the bench's
# requests, against FFTW in the bench process on 1 and on 2 threads. The
# daemons pin their own workers (one per core, CPU i for core i); FFTW's
# threads are not pinned. Prints JSON. PLAN_EFFORT (estimate or measure,
# default measure) is both daemons' --plan-effort and the in-process
# planner's. Needs 2 CPUs; a 512^3 case needs about 6 GiB free.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_fft_parallel "$@"
shift
EFFORT=${PLAN_EFFORT:-measure}
bench_tmpdir trnsci-fft-parallel
ONE="$BENCH_TMP/one.sock"
TWO="$BENCH_TMP/two.sock"
daemon_start trnscid-1core "$DAEMON" --cores 1 --plan-effort "$EFFORT" --listen "unix:$ONE" \
    --log-level warn
daemon_wait trnscid-1core "unix:$ONE"
daemon_start trnscid-2cores "$DAEMON" --cores 2 --plan-effort "$EFFORT" --listen "unix:$TWO" \
    --log-level warn
daemon_wait trnscid-2cores "unix:$TWO"
bench_run "$BENCH" "unix:$ONE" "unix:$TWO" --effort "$EFFORT" "$@"
