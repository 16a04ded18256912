#!/bin/sh
# test_install.sh BUILD_DIR — `cmake --install` into a fresh prefix, then
# build the README's first program (taken from README.md itself, so the README
# cannot go stale) the three ways an outside project would (pkg-config shared,
# pkg-config static, CMake find_package), and run each against the installed
# trnscid. The expected product [1 3; 2 4]·[5 7; 6 8] = [23 31; 34 46] is
# exact in binary floating point. Then the README's first Python program, with
# the installed package (found through the prefix's dist-packages, loading the
# installed libtrnsci).
set -eu
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
readme="$here/../../README.md"
prefix=$(mktemp -d /tmp/trnsci-install-XXXXXX)
daemon=""
cleanup() {
    [ -n "$daemon" ] && kill "$daemon" 2>/dev/null || true
    rm -rf "$prefix"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/trnscid bin/trnsci include/trnsci/trnsci.h include/trnsci/trnblas.h include/trnsci/trnrand.h \
         include/trnsci/trn_complex.h include/trnsci/trntensor.h; do
    [ -e "$prefix/$f" ] || fail "$f not installed"
done
libdir=$(dirname "$(find "$prefix" -name libtrnsci.so -print -quit)")
[ -f "$libdir/libtrnsci.a" ] || fail "libtrnsci.a not installed"
[ -f "$libdir/pkgconfig/trnsci.pc" ] || fail "trnsci.pc not installed"
[ -f "$libdir/cmake/trnsci/trnsciConfig.cmake" ] || fail "CMake package not installed"
# Only the public API is exported: functions, and trntensor's compute
# descriptor constants (cuTENSOR's CUTENSOR_COMPUTE_DESC_* are data too).
if nm -D --defined-only "$libdir/libtrnsci.so" | awk '{print $3}' | grep -v '^trn[a-z]*[A-Z]' \
    | grep -v '^TRNTENSOR_COMPUTE_DESC_' | grep -v '^$' | grep -q .; then
    fail "libtrnsci.so exports non-API symbols"
fi

export PKG_CONFIG_PATH="$libdir/pkgconfig"
cd "$prefix"
# The first ```c block after the "## A first program" heading.
awk '/^## A first program/ {s = 1} s && /^```c$/ {c = 1; next} c && /^```$/ {exit} c' \
    "$readme" > example.c
[ -s example.c ] || fail "no C example found in README.md"
cc -std=c11 -Wall -Werror example.c $(pkg-config --cflags --libs trnsci) \
    -Wl,-rpath,"$libdir" -o ex_shared
cc -std=c11 -Wall -Werror example.c $(pkg-config --cflags trnsci) \
    "$libdir/libtrnsci.a" $(pkg-config --libs-only-l --static trnsci | sed 's/-ltrnsci//') \
    -o ex_static
mkdir cmake_project
cat > cmake_project/CMakeLists.txt <<CMK
cmake_minimum_required(VERSION 3.18)
project(uses_trnsci C)
find_package(trnsci REQUIRED)
add_executable(ex_cmake $prefix/example.c)
target_link_libraries(ex_cmake PRIVATE trnsci::trnsci)
CMK
cmake -S cmake_project -B cmake_build -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build cmake_build >/dev/null
cp cmake_build/ex_cmake .

"$prefix/bin/trnscid" --listen "unix:$prefix/trnscid.sock" --cores 1 2>"$prefix/trnscid.log" &
daemon=$!
export TRNSCI_ADDR="unix:$prefix/trnscid.sock"
i=0
until "$prefix/bin/trnsci" status >/dev/null 2>&1; do
    i=$((i + 1))
    [ $i -lt 200 ] || fail "installed trnscid did not come up"
    sleep 0.05
done
for ex in ex_shared ex_static ex_cmake; do
    out=$(./$ex) || fail "$ex exited non-zero"
    [ "$out" = "$(printf '23 31\n34 46')" ] || fail "$ex printed '$out'"
    echo "ok   $ex: $(echo $out)"
done

# The first ```python block after the "## Python" heading.
awk '/^## Python/ {s = 1} s && /^```python$/ {c = 1; next} c && /^```$/ {exit} c' \
    "$readme" > example.py
[ -s example.py ] || fail "no Python example found in README.md"
pkgdir=$(find "$prefix" -path '*dist-packages/trnsci' -type d -print -quit)
[ -n "$pkgdir" ] && [ -f "$pkgdir/_install.py" ] || fail "the trnsci Python package is not installed"
out=$(env -u TRNSCI_LIB PYTHONPATH="$(dirname "$pkgdir")" PYTHONDONTWRITEBYTECODE=1 \
      /usr/bin/python3 example.py) || fail "the Python example exited non-zero"
[ "$out" = "$(printf '[[19.0, 22.0], [43.0, 50.0]]\n(1000,)')" ] || fail "example.py printed '$out'"
echo "ok   example.py: $(echo $out)"

kill -TERM "$daemon"
wait "$daemon" || fail "installed trnscid did not exit 0 on SIGTERM"
daemon=""
echo "4 passed, 0 failed"
