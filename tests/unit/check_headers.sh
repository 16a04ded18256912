#!/bin/sh
# check_headers.sh CC CXX INCLUDE_DIR — every public header in
# INCLUDE_DIR/trnsci compiles on its own, and twice in a row, as C11 and as
# C++17 with -Wall -Wextra -Werror -pedantic: a C++ program can include any
# of them first, as it includes any CUDA header.
set -eu
cc=$1
cxx=$2
inc=$3
tmp=$(mktemp -d /tmp/trnsci-headers-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
status=0
n=0
for h in "$inc"/trnsci/*.h; do
    name=$(basename "$h")
    printf '#include <trnsci/%s>\n#include <trnsci/%s>\nint trnsci_header_check_%s;\n' \
        "$name" "$name" "$n" >"$tmp/t.c"
    cp "$tmp/t.c" "$tmp/t.cpp"
    if ! "$cxx" -std=c++17 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$inc" "$tmp/t.cpp"; then
        echo "FAIL: $name does not compile on its own as C++17"
        status=1
    fi
    if ! "$cc" -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$inc" "$tmp/t.c"; then
        echo "FAIL: $name does not compile on its own as C11"
        status=1
    fi
    n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "FAIL: no headers under $inc/trnsci"; exit 1; }
echo "$n headers checked"
exit $status
