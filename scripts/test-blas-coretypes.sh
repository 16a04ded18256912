#!/bin/sh
# Runs trnblas's integration tests once per OpenBLAS kernel set this CPU can
# run, forced with OPENBLAS_CORETYPE (the daemon keeps a kernel set the
# environment names): the daemon's start-up self-test must make every one
# of them give right answers, whatever its broken routines.
#
# usage: test-blas-coretypes.sh BUILD_DIR CORETYPE...
# A kernel set the CPU lacks the instructions for is skipped (trnscid
# --check-config --blas-coretype says so).
set -eu
build=$1
shift
for core in "$@"; do
    if ! "$build/trnscid" --check-config --blas-coretype "$core" >/dev/null 2>&1; then
        echo "test-blas-coretypes: $core: this CPU cannot run those kernels; skipped"
        continue
    fi
    echo "test-blas-coretypes: OPENBLAS_CORETYPE=$core"
    OPENBLAS_CORETYPE=$core ctest --test-dir "$build" --output-on-failure \
        -R '^integration_(gemm|gemm_ex|blas1|blas2|blas3|selftest)$'
done
