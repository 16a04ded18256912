#!/bin/sh
# run_fft.sh BUILD_DIR [bench_fft exec-mode options...]
#
# trnfft complex-float C2C through trnscid (data resident, local transport)
# versus FFTW in this process with the same plan flags, on one core and on
# every core, and the cost of making a 2^20-point plan cold, warm and after a
# daemon restart (bench/fft.c; see docs/benchmarks.md). Extra arguments go to
# the one-core exec run (e.g. --reps 31).
#
# Parts, in this order (PARTS, default "one-core all-cores plan"):
#   one-core   trnscid under `taskset -c $DAEMON_CPU` with `--cores 1`: every
#              daemon thread, its planner included, may run only on
#              DAEMON_CPU (default 1), and its single worker is pinned there.
#              bench_fft runs under `taskset -c $BENCH_CPU` (default 0); its
#              in-process FFTW pins itself to DAEMON_CPU around each
#              repetition, so both sides compute on the same core. The daemon
#              has a --cache-dir so the bench can load its FFTW wisdom and run
#              the very plan the daemon chose (fftw_daemon_plan).
#              Cases 1024x1, 65536x1, 1048576x1 and 1024x1024.
#              DAEMON_PIN=cores instead starts the daemon without taskset and
#              with `--cores $DAEMON_CPU-$DAEMON_CPU` (a one-CPU list): only
#              the worker is pinned to DAEMON_CPU, the daemon's other threads
#              (local-transport loop, planner) may run on any CPU. The label
#              of the JSON says which (one-core-taskset / one-core-cores).
#   all-cores  trnscid `--cores $(nproc)`, no taskset (one pinned worker per
#              CPU; a batch is split over them); bench_fft unpinned, its
#              single-threaded FFTW pinned to DAEMON_CPU. Case 1024x1024.
#   plan       a one-core daemon (placed as above) with an empty --cache-dir:
#              `--plan-phase cold` (first plan; the same process plans again
#              after trnfftDestroy; in-process FFTW_MEASURE planning), then
#              `--plan-phase warm` from a second process, then the daemon is
#              stopped and a new one started on the same cache directory:
#              `--plan-phase restart` (waits for prewarmDone).
# Every part starts its own daemon(s) with a fresh cache directory under a
# temporary directory that is removed at the end.
# Prints JSON lines on stdout (bench/summarize_fft.py makes the tables);
# exits non-zero if anything fails (status 3: a trnsci result disagrees with
# FFTW), including a trnscid not exiting 0 on SIGTERM. Starting, waiting for
# and stopping the daemons: bench/daemon.sh.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_fft "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
PARTS=${PARTS:-one-core all-cores plan}
DAEMON_PIN=${DAEMON_PIN:-taskset}
case "$DAEMON_PIN" in
taskset | cores) ;;
*)
    echo "run_fft.sh: DAEMON_PIN must be taskset or cores" >&2
    exit 2
    ;;
esac
NCPU=$(nproc)
bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"

bench_tmpdir trnsci-fft

# run_part COMMAND...: runs one bench_fft; on failure stops every daemon and
# exits with its status (bench_finish).
run_part() {
    _rp_rc=0
    "$@" || _rp_rc=$?
    if [ "$_rp_rc" -ne 0 ]; then
        bench_finish "$_rp_rc"
    fi
}

# stop NAME: daemon_stop, exiting 1 if the daemon did not exit 0.
stop() {
    daemon_stop "$1" || bench_finish 1
}

for part in $PARTS; do
    case "$part" in
    one-core)
        SOCK="$BENCH_TMP/one.sock"
        mkdir "$BENCH_TMP/cache-one"
        if [ "$DAEMON_PIN" = cores ]; then
            daemon_start trnscid-1core "$DAEMON" --cores "$DAEMON_CPU-$DAEMON_CPU" \
                --cache-dir "$BENCH_TMP/cache-one" --listen "unix:$SOCK" --log-level warn
        else
            daemon_start trnscid-1core taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 \
                --cache-dir "$BENCH_TMP/cache-one" --listen "unix:$SOCK" --log-level warn
        fi
        daemon_wait trnscid-1core "unix:$SOCK"
        run_part taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --inproc-cpu "$DAEMON_CPU" \
            --daemon-pid "$DAEMON_PID" --daemon-cache-dir "$BENCH_TMP/cache-one" \
            --label "one-core-$DAEMON_PIN" "$@"
        stop trnscid-1core
        ;;
    all-cores)
        SOCK="$BENCH_TMP/all.sock"
        mkdir "$BENCH_TMP/cache-all"
        daemon_start trnscid-all "$DAEMON" --cores "$NCPU" --cache-dir "$BENCH_TMP/cache-all" \
            --listen "unix:$SOCK" --log-level warn
        daemon_wait trnscid-all "unix:$SOCK"
        run_part "$BENCH" "unix:$SOCK" --all-cores --cases 1024x1024 --inproc-cpu "$DAEMON_CPU" \
            --daemon-pid "$DAEMON_PID" --daemon-cache-dir "$BENCH_TMP/cache-all" \
            --label all-cores
        stop trnscid-all
        ;;
    plan)
        SOCK="$BENCH_TMP/plan.sock"
        CACHE="$BENCH_TMP/cache-plan"
        mkdir "$CACHE"
        daemon_start trnscid-plan taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 \
            --cache-dir "$CACHE" --listen "unix:$SOCK" --log-level warn
        daemon_wait trnscid-plan "unix:$SOCK"
        run_part taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --mode plan --plan-phase cold \
            --inproc-cpu "$DAEMON_CPU" --label cold
        run_part taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --mode plan --plan-phase warm \
            --inproc-cpu "$DAEMON_CPU" --label warm
        stop trnscid-plan
        daemon_start trnscid-restart taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 \
            --cache-dir "$CACHE" --listen "unix:$SOCK" --log-level warn
        daemon_wait trnscid-restart "unix:$SOCK"
        run_part taskset -c "$BENCH_CPU" "$BENCH" "unix:$SOCK" --mode plan --plan-phase restart \
            --inproc-cpu "$DAEMON_CPU" --label restart
        stop trnscid-restart
        ;;
    *)
        echo "run_fft.sh: PARTS may list one-core, all-cores and plan" >&2
        exit 2
        ;;
    esac
done
bench_finish 0
