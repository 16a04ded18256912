# shellcheck shell=sh
# daemon.sh — sourced (not run) by the bench/run_*.sh scripts: the steps every
# one of them takes around its benchmark program, written once. POSIX sh.
#
# A runner starts a private trnscid on a temporary socket, waits until it
# answers, runs the benchmark against it, then stops it with SIGTERM and
# fails unless it exits 0 within 10 s, printing the daemon's log whenever it
# does not come up or does not stop cleanly. The runner keeps what is its
# own: the placement (taskset, --cores), the daemon's flags and the bench's
# arguments. A runner looks like:
#
#   set -eu
#   . "$(dirname "$0")/daemon.sh"
#   bench_init bench_foo "$@"   # usage check; BUILD, SRC, DAEMON, CLI, BENCH;
#   shift                       #   builds what is missing
#   bench_tmpdir trnsci-foo     # BENCH_TMP, removed (daemons stopped) on exit
#   SOCK="$BENCH_TMP/bench.sock"
#   daemon_start trnscid "$DAEMON" --listen "unix:$SOCK" --log-level warn
#   daemon_wait trnscid "unix:$SOCK"
#   bench_run "$BENCH" "unix:$SOCK" --daemon-pid "$DAEMON_PID" "$@"
#                               # runs it, stops the daemons, exits
#
# Variables it sets: BENCH_NAME (the runner's name, for messages), BENCH_TARGET,
# BUILD, SRC, DAEMON, CLI, BENCH, BENCH_TMP, DAEMON_PID (the daemon started
# last) and BENCH_DAEMONS (NAME:PID of every daemon still running). Its own
# scratch variables start with an underscore.

BENCH_NAME=${0##*/}
BENCH_DAEMONS=""
BENCH_TMP=""
DAEMON_PID=""

# bench_init TARGET [BUILD_DIR ...]: the usage check (a runner's first argument
# is the build directory: exits 2 without one), then BUILD (made absolute,
# created if missing), SRC (the source tree), DAEMON, CLI and BENCH (the
# trnscid, trnsci and bench/TARGET binaries in BUILD). Configures and builds
# TARGET, trnscid and trnsci_cli in BUILD if any of the three is missing.
# The caller then drops BUILD_DIR from its own arguments with `shift`.
bench_init() {
    BENCH_TARGET=$1
    shift
    if [ $# -lt 1 ]; then
        echo "usage: $0 BUILD_DIR [$BENCH_TARGET options...]" >&2
        exit 2
    fi
    mkdir -p "$1"
    BUILD=$(cd "$1" && pwd)
    SRC=$(cd "$(dirname "$0")/.." && pwd)
    DAEMON="$BUILD/trnscid"
    CLI="$BUILD/trnsci"
    BENCH="$BUILD/bench/$BENCH_TARGET"
    if [ ! -x "$BENCH" ] || [ ! -x "$DAEMON" ] || [ ! -x "$CLI" ]; then
        echo "$BENCH_NAME: $BENCH_TARGET/trnscid/trnsci not built in $BUILD; building them" \
            "(-DTRNSCI_BUILD_BENCH=ON)" >&2
        cmake -S "$SRC" -B "$BUILD" -DTRNSCI_BUILD_BENCH=ON >/dev/null
        cmake --build "$BUILD" --target "$BENCH_TARGET" trnscid trnsci_cli -j"$(nproc)" >&2
    fi
}

# bench_require_cpus HINT CPU...: exits 2 unless this process may run on every
# CPU given; HINT names the variables that choose them, for the message.
bench_require_cpus() {
    _rc_hint=$1
    shift
    for _rc_cpu in "$@"; do
        if ! taskset -c "$_rc_cpu" true 2>/dev/null; then
            echo "$BENCH_NAME: CPU $_rc_cpu is not available (set $_rc_hint)" >&2
            exit 2
        fi
    done
}

# bench_tmpdir PREFIX: BENCH_TMP = a new directory ${TMPDIR:-/tmp}/PREFIX.XXXXXX
# for sockets and logs, and the traps that clean up on any exit (an interrupt
# exits 130).
bench_tmpdir() {
    BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    trap bench_cleanup EXIT
    trap 'exit 130' INT TERM
}

# bench_cleanup: the EXIT trap. SIGTERM to every daemon still running (one
# that bench_finish has stopped is no longer listed), then BENCH_TMP goes.
# shellcheck disable=SC2317 # called from the EXIT trap
bench_cleanup() {
    for _cl_d in $BENCH_DAEMONS; do
        _cl_pid=${_cl_d#*:}
        if kill -0 "$_cl_pid" 2>/dev/null; then
            kill -TERM "$_cl_pid" 2>/dev/null || true
            wait "$_cl_pid" 2>/dev/null || true
        fi
    done
    BENCH_DAEMONS=""
    if [ -n "$BENCH_TMP" ]; then
        rm -rf "$BENCH_TMP"
    fi
}

# daemon_start NAME COMMAND...: runs COMMAND (trnscid with its flags, behind
# taskset or not) in the background, its stderr in $BENCH_TMP/NAME.log.
# DAEMON_PID is its pid; NAME (letters, digits, _ and -) names it to the
# functions below. Call bench_tmpdir first.
daemon_start() {
    _ds_name=$1
    shift
    "$@" 2>"$BENCH_TMP/$_ds_name.log" &
    DAEMON_PID=$!
    BENCH_DAEMONS="$BENCH_DAEMONS $_ds_name:$DAEMON_PID"
}

# daemon_pid NAME: prints the pid of the running daemon NAME (status 1 if none).
daemon_pid() {
    for _dp_d in $BENCH_DAEMONS; do
        if [ "${_dp_d%%:*}" = "$1" ]; then
            echo "${_dp_d#*:}"
            return 0
        fi
    done
    return 1
}

# daemon_label NAME: how messages call daemon NAME: "trnscid" for the one
# named trnscid, else "trnscid (NAME)".
daemon_label() {
    if [ "$1" = trnscid ]; then
        echo trnscid
    else
        echo "trnscid ($1)"
    fi
}

# daemon_wait NAME ADDRESS...: waits, at most 10 s per address, until
# `trnsci --addr ADDRESS status` answers on every ADDRESS. If time runs out or
# the daemon exits first: prints its log and exits 1.
daemon_wait() {
    _dw_name=$1
    shift
    _dw_pid=$(daemon_pid "$_dw_name")
    for _dw_addr in "$@"; do
        _dw_i=0
        until "$CLI" --addr "$_dw_addr" status >/dev/null 2>&1; do
            _dw_i=$((_dw_i + 1))
            if [ "$_dw_i" -ge 100 ] || ! kill -0 "$_dw_pid" 2>/dev/null; then
                echo "$BENCH_NAME: $(daemon_label "$_dw_name") did not come up on $_dw_addr;" \
                    "its log:" >&2
                cat "$BENCH_TMP/$_dw_name.log" >&2
                exit 1
            fi
            sleep 0.1
        done
    done
}

# daemon_running PID: true while PID is alive and not yet a zombie.
daemon_running() {
    [ -r "/proc/$1/stat" ] && [ "$(cut -d' ' -f3 "/proc/$1/stat")" != Z ]
}

# daemon_stop NAME: SIGTERM to daemon NAME; waits at most 10 s for it to exit
# (then SIGKILL) and reaps it. Returns 0 if it exited with status 0; else
# prints how it ended and its log, and returns 1.
daemon_stop() {
    _st_name=$1
    _st_pid=$(daemon_pid "$_st_name")
    _st_label=$(daemon_label "$_st_name")
    kill -TERM "$_st_pid" 2>/dev/null || true
    _st_i=0
    while daemon_running "$_st_pid" && [ "$_st_i" -lt 100 ]; do
        sleep 0.1
        _st_i=$((_st_i + 1))
    done
    if daemon_running "$_st_pid"; then
        echo "$BENCH_NAME: $_st_label did not exit within 10 s of SIGTERM; killing it" >&2
        kill -KILL "$_st_pid" 2>/dev/null || true
    fi
    _st_rc=0
    wait "$_st_pid" || _st_rc=$?
    # Reaped: forget it, so that bench_cleanup does not signal a reused pid.
    _st_keep=""
    for _st_d in $BENCH_DAEMONS; do
        if [ "${_st_d%%:*}" != "$_st_name" ]; then
            _st_keep="$_st_keep $_st_d"
        fi
    done
    BENCH_DAEMONS=$_st_keep
    if [ "$_st_rc" -ne 0 ]; then
        echo "$BENCH_NAME: $_st_label exited with status $_st_rc after SIGTERM; its log:" >&2
        cat "$BENCH_TMP/$_st_name.log" >&2
        return 1
    fi
    return 0
}

# bench_finish RC: RC is the benchmark program's exit status. Stops every
# daemon (daemon_stop, in the order they were started) and exits: with RC if
# the benchmark failed (saying so on stderr), else 1 if a daemon did not exit
# 0 on SIGTERM, else 0.
bench_finish() {
    _fi_rc=$1
    for _fi_d in $BENCH_DAEMONS; do
        if ! daemon_stop "${_fi_d%%:*}" && [ "$_fi_rc" -eq 0 ]; then
            _fi_rc=1
        fi
    done
    if [ "$1" -ne 0 ]; then
        echo "$BENCH_NAME: $BENCH_TARGET failed (status $1)" >&2
    fi
    exit "$_fi_rc"
}

# bench_run COMMAND...: runs the benchmark (COMMAND, e.g. "$BENCH" with its
# arguments, behind taskset or not), then bench_finish with its exit status.
bench_run() {
    _br_rc=0
    "$@" || _br_rc=$?
    bench_finish "$_br_rc"
}

# bench_run_placed [BENCH ARGS...]: the common placement of a benchmark that
# compares the daemon with an in-process library, by $MODE:
#   one-core (default)  trnscid under `taskset -c $DAEMON_CPU` with `--cores 1`,
#                       the bench under `taskset -c $BENCH_CPU` with
#                       `--openblas-cpu $DAEMON_CPU` (its in-process side pins
#                       itself to the daemon's CPU);
#   all-cores           trnscid with `--cores $(nproc)`, the bench unpinned,
#                       with $ALL_CORES_ARGS before the caller's arguments.
# Starts the daemon on a socket in BENCH_TMP (bench_tmpdir first), runs the
# bench against it and finishes (bench_run).
bench_run_placed() {
    DAEMON_CPU=${DAEMON_CPU:-1}
    BENCH_CPU=${BENCH_CPU:-0}
    _rp_sock="$BENCH_TMP/bench.sock"
    case "${MODE:-one-core}" in
    one-core)
        bench_require_cpus "DAEMON_CPU / BENCH_CPU" "$DAEMON_CPU" "$BENCH_CPU"
        daemon_start trnscid taskset -c "$DAEMON_CPU" "$DAEMON" --cores 1 \
            --listen "unix:$_rp_sock" --log-level warn
        daemon_wait trnscid "unix:$_rp_sock"
        bench_run taskset -c "$BENCH_CPU" "$BENCH" "unix:$_rp_sock" --openblas-cpu "$DAEMON_CPU" \
            "$@"
        ;;
    all-cores)
        daemon_start trnscid "$DAEMON" --cores "$(nproc)" --listen "unix:$_rp_sock" \
            --log-level warn
        daemon_wait trnscid "unix:$_rp_sock"
        # shellcheck disable=SC2086
        bench_run "$BENCH" "unix:$_rp_sock" ${ALL_CORES_ARGS:-} "$@"
        ;;
    *)
        echo "$BENCH_NAME: MODE must be one-core or all-cores" >&2
        exit 2
        ;;
    esac
}
