#!/bin/sh
# Installs the Debian 12 packages trnsci builds, runs and tests with.
# Idempotent: when every package is already installed it does nothing
# (no apt-get update, no network), so `make run` / `make test` stay fast.
set -eu

PACKAGES="
build-essential cmake pkg-config
libgrpc-dev protobuf-c-compiler libprotobuf-c-dev
libuv1-dev libjemalloc-dev libcmocka-dev
libopenblas-dev liblapacke-dev libfftw3-dev librandom123-dev
libmicrohttpd-dev libsystemd-dev libinih-dev
systemd prometheus python3-yaml
python3 python3-grpcio python3-grpc-tools python3-protobuf
python3-numpy python3-scipy python3-pytest python3-matplotlib
clang libclang-rt-14-dev openssl
"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

if [ -z "$missing" ]; then
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi

echo "setup-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
