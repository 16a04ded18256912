#!/usr/bin/env python3
# test_cuda2trn.py — tools/cuda2trn on a small CUDA-style program and a table
# of names (tests/unit/cuda2trn/).
#
#  - sample.cu uses every CUDA header that has a trnsci counterpart and the
#    libraries' names (runtime, cuBLAS with _v2 names, cuFFT, cuRAND,
#    cuSOLVER, cuSPARSE, cuTENSOR, cuComplex, library_types): translated, it
#    compiles against the trnsci headers with -std=c11 -Wall -Wextra -Werror,
#    keeps the words that must not change (barracuda, my_cudaFree, …) and has
#    no CUDA library name left;
#  - names.txt: each line's left side translates to its right side (every
#    identifier rule, the exceptions, and names that stay);
#  - #include lines: both delimiters, spaces after '#', every mapped header,
#    and a warning (naming file and line) for CUDA headers without a
#    counterpart, which stay as they are;
#  - the modes: standard input to standard output, files to standard output,
#    -i in place, a usage error, a missing file.
#
# Usage: test_cuda2trn.py --tool tools/cuda2trn --data DIR --include DIR --cc CC
import argparse
import os
import re
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run(tool, args, stdin=None):
    return subprocess.run([sys.executable, tool] + args, input=stdin, capture_output=True,
                          text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--cc", required=True)
    a = ap.parse_args()
    sample = os.path.join(a.data, "sample.cu")

    with tempfile.TemporaryDirectory(prefix="cuda2trn-") as tmp:
        # The program: translate, compile, look for leftovers.
        r = run(a.tool, [sample])
        check(r.returncode == 0 and r.stderr == "", "sample.cu: exit %d, stderr %r" %
              (r.returncode, r.stderr))
        out = r.stdout
        ported = os.path.join(tmp, "ported.c")
        with open(ported, "w") as f:
            f.write(out)
        cc = subprocess.run([a.cc, "-fsyntax-only", "-std=c11", "-Wall", "-Wextra", "-Werror",
                             "-I", a.include, ported], capture_output=True, text=True)
        check(cc.returncode == 0, "the ported program does not compile:\n" + cc.stderr)
        left = re.findall(r"(?<![A-Za-z0-9_])(cuda[A-Z]\w*|CUDA_\w+|CUDART_\w+|"
                          r"cu(blas|fft|rand|solver|sparse|tensor)[A-Z]\w*|"
                          r"CU(BLAS|FFT|RAND|SOLVER|SPARSE|TENSOR)_\w+|"
                          r"(make_)?cu(Complex|FloatComplex|DoubleComplex)\w*)", out)
        check(not left, "CUDA names left: %s" % sorted({m[0] for m in left}))
        for word in ("barracuda", "my_cudaFree", "cudatoolkit_dir", "CUDAfy_count"):
            check(re.search(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % word, out) is not None,
                  "%s was renamed" % word)
        check('#  include "trnsci/trnsci.h"' in out, "a quoted include with spaces after '#'")
        for h in ("trnsci.h", "library_types.h", "trn_complex.h", "trnblas.h", "trnfft.h",
                  "trnfftXt.h", "trnrand.h", "trnsolver.h", "trnsparse.h", "trntensor.h"):
            check("#include <trnsci/%s>" % h in out, "no #include <trnsci/%s>" % h)
        # The same through standard input.
        with open(sample) as f:
            r2 = run(a.tool, [], stdin=f.read())
        check(r2.returncode == 0 and r2.stdout == out, "standard input gives another result")

        # The table of names.
        with open(os.path.join(a.data, "names.txt")) as f:
            cases = [ln.rstrip("\n") for ln in f if ln.strip() and not ln.startswith("#")]
        for case in cases:
            src, want = case.split(" => ")
            got = run(a.tool, [], stdin=src + "\n").stdout.rstrip("\n")
            check(got == want, "%r gives %r, want %r" % (src, got, want))

        # Headers without a counterpart: left, with a warning naming file and line.
        other = os.path.join(tmp, "other.cu")
        with open(other, "w") as f:
            f.write("#include <stdio.h>\n#include <cuda.h>\n#include \"curand_kernel.h\"\n"
                    "# include <cuda_fp8.h>\nint x = cudaSuccess;\n")
        r = run(a.tool, [other])
        check(r.returncode == 0, "other.cu: exit %d" % r.returncode)
        check(r.stdout == "#include <stdio.h>\n#include <cuda.h>\n#include \"curand_kernel.h\"\n"
              "# include <cuda_fp8.h>\nint x = trnsciSuccess;\n", "other.cu: %r" % r.stdout)
        for line, h in ((2, "cuda.h"), (3, "curand_kernel.h"), (4, "cuda_fp8.h")):
            check("%s:%d: warning: <%s> has no trnsci counterpart" % (other, line, h) in r.stderr,
                  "no warning for %s: %r" % (h, r.stderr))

        # A header name is never renamed: not a CUDA header's without a
        # counterpart (cusolverRf.h stays), nor the program's own header
        # ("cublas_utils.h" beside the source: no warning either); what
        # follows the include is.
        with open(os.path.join(tmp, "cublas_utils.h"), "w") as f:
            f.write("#define CUBLAS_CHECK(x) x\n")
        own = os.path.join(tmp, "own.cu")
        with open(own, "w") as f:
            f.write("#include <cusolverRf.h> // cusolverRfCreate\n#include \"cublas_utils.h\"\n"
                    "#include \"cusparse_utils.h\"\n")
        r = run(a.tool, [own])
        check(r.stdout == "#include <cusolverRf.h> // trnsolverRfCreate\n"
              "#include \"cublas_utils.h\"\n#include \"cusparse_utils.h\"\n",
              "own.cu: %r" % r.stdout)
        check("own.cu:1: warning: <cusolverRf.h>" in r.stderr, "no warning for cusolverRf.h")
        check("cublas_utils.h" not in r.stderr, "a warning for the program's own header: %r" %
              r.stderr)
        check("own.cu:3: warning: <cusparse_utils.h>" in r.stderr,
              "no warning for a CUDA-named header that is not beside the source")

        # In place: the file is rewritten; a second run changes nothing.
        inplace = os.path.join(tmp, "inplace.c")
        with open(sample) as f, open(inplace, "w") as g:
            g.write(f.read())
        r = run(a.tool, ["-i", inplace, other])
        check(r.returncode == 0 and r.stdout == "", "-i: exit %d, stdout %r" %
              (r.returncode, r.stdout))
        with open(inplace) as f:
            check(f.read() == out, "-i does not write what standard output shows")
        r = run(a.tool, ["-i", inplace])
        with open(inplace) as f:
            check(r.returncode == 0 and f.read() == out, "a second -i changes the file")

        # Errors.
        r = run(a.tool, ["-x"])
        check(r.returncode == 2 and "usage" in r.stderr, "-x: exit %d" % r.returncode)
        r = run(a.tool, ["-i"])
        check(r.returncode == 2 and "usage" in r.stderr, "-i alone: exit %d" % r.returncode)
        r = run(a.tool, [os.path.join(tmp, "missing.cu")])
        check(r.returncode == 2 and "missing.cu" in r.stderr, "missing file: exit %d" %
              r.returncode)

    print("%d names checked, %d failures" % (len(cases), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
