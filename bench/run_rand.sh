#!/bin/sh
# run_rand.sh BUILD_DIR [bench_rand options...]
#
# trnrand uniform and normal floats (64 MiB of output per call, data
# resident) through a one-core trnscid and through an all-core trnscid,
# against a single-threaded in-process Random123 loop, in one run
# (bench/rand.c; see docs/benchmarks.md).
#
# Placement (2-vCPU machine):
#   trnscid (1core)   under `taskset -c $DAEMON_CPU` with `--cores 1`: every
#                     daemon thread may run only on DAEMON_CPU (default 1), and
#                     its single worker is pinned there (`--cores 1` is a
#                     count: the first CPU the process may use).
#   trnscid (all)     `--cores $(nproc)`, no taskset: one pinned worker per CPU;
#                     each op is sharded over all of them.
#   bench_rand        under `taskset -c $BENCH_CPU` (default 0): the
#                     coordinator and its two client processes (one session
#                     per daemon) run there; the in-process loop pins itself
#                     to DAEMON_CPU (sched_setaffinity) around each repetition,
#                     so it and the one-core daemon's worker use the same core.
# Both daemons run for the whole benchmark; the repetitions of the three
# sides are interleaved.
# Prints the bench's JSON on stdout; exits non-zero if anything fails
# (status 3: the daemon's output is not bitwise the in-process loop's),
# including a trnscid not exiting 0 on SIGTERM. Starting, waiting for and
# stopping the daemons: bench/daemon.sh.
set -eu
# shellcheck source=daemon.sh
. "$(dirname "$0")/daemon.sh"

bench_init bench_rand "$@"
shift
DAEMON_CPU=${DAEMON_CPU:-1}
BENCH_CPU=${BENCH_CPU:-0}
NCPU=$(nproc)
bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"

bench_tmpdir trnsci-rand
SOCK1="$BENCH_TMP/one.sock"
SOCKALL="$BENCH_TMP/all.sock"
daemon_start trnscid-1core taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 --listen "unix:$SOCK1" \
    --log-level warn
PID1=$DAEMON_PID
daemon_start trnscid-all "$DAEMON" --cores "$NCPU" --listen "unix:$SOCKALL" --log-level warn
PIDALL=$DAEMON_PID
daemon_wait trnscid-1core "unix:$SOCK1"
daemon_wait trnscid-all "unix:$SOCKALL"

bench_run taskset -c "$BENCH_CPU" "$BENCH" --addr-1 "unix:$SOCK1" --addr-all "unix:$SOCKALL" \
    --pid-1 "$PID1" --pid-all "$PIDALL" --inproc-cpu "$DAEMON_CPU" "$@"
