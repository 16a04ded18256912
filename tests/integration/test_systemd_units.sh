#!/bin/sh
# test_systemd_units.sh BUILD_DIR SOURCE_DIR — the systemd units pass
# `systemd-analyze verify` with no warning at all (unknown keys and bad values
# are only warnings there, so any output fails the test), the sysusers file
# parses (systemd-sysusers --dry-run on an empty root), the tmpfiles file
# applies (systemd-tmpfiles --create under an empty root), and the socket unit
# listens where trnscid listens by default.
#
# Works without systemd running (containers, CI): verify loads the unit files
# given on the command line and checks ExecStart= binaries exist, which is why
# the service is instantiated with this build's trnscid.
set -eu
build=$1
src=$2
tmp=$(mktemp -d /tmp/trnsci-units-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

sed "s|@TRNSCID_BINDIR@|$build|" "$src/systemd/trnscid.service.in" >"$tmp/trnscid.service"
cp "$src/systemd/trnscid.socket" "$tmp/trnscid.socket"
if ! (cd "$tmp" && systemd-analyze verify ./trnscid.service ./trnscid.socket) >"$tmp/out" 2>&1 ||
    [ -s "$tmp/out" ]; then
    echo "systemd-analyze verify complained:" >&2
    cat "$tmp/out" >&2
    exit 1
fi

mkdir -p "$tmp/root/etc"
if ! systemd-sysusers --root="$tmp/root" --dry-run "$src/systemd/trnscid.sysusers" \
    >"$tmp/out" 2>&1 || ! grep -q "Creating user 'trnscid'" "$tmp/out"; then
    echo "systemd-sysusers rejected trnscid.sysusers:" >&2
    cat "$tmp/out" >&2
    exit 1
fi

# The tmpfiles line writes "advise" into shmem_enabled (a stand-in file under
# an empty root: the real one is not touched).
thp="$tmp/root/sys/kernel/mm/transparent_hugepage"
mkdir -p "$thp"
printf 'never\n' >"$thp/shmem_enabled"
if ! systemd-tmpfiles --root="$tmp/root" --create "$src/systemd/trnscid.tmpfiles" \
    >"$tmp/out" 2>&1 || ! grep -q '^advise' "$thp/shmem_enabled"; then
    echo "systemd-tmpfiles did not apply trnscid.tmpfiles:" >&2
    cat "$tmp/out" >&2
    exit 1
fi

# The socket unit's path is the daemon's default local address (XDG_RUNTIME_DIR
# is unset for system services).
path=$(sed -n 's/^ListenStream=//p' "$src/systemd/trnscid.socket")
if ! env -u XDG_RUNTIME_DIR "$build/trnscid" --help | grep -q "unix:$path"; then
    echo "trnscid.socket listens on $path, not trnscid's default" >&2
    exit 1
fi
# The service's user is the one sysusers creates, and the socket's group.
grep -q '^User=trnscid$' "$src/systemd/trnscid.service.in"
grep -q '^SocketGroup=trnscid$' "$src/systemd/trnscid.socket"
echo "systemd units OK"
