#!/usr/bin/python3
"""Independent reference for test_sparse_ilu.c (trnsparse's csric02 and
csrilu02), with Debian's numpy (run it under /usr/bin/python3): IC0 and
ILU0 written out here on the pattern, in float64.

    sparse_ilu_ref.py ic0|ilu0 DIR
        DIR/meta.txt: "m"; DIR/indptr, DIR/indices (int64, 0-based, columns
        increasing in each row), DIR/data (float64). Writes DIR/factor
        (float64, the data array after the factorisation: IC0 leaves the
        entries above the diagonal as they were; ILU0 holds L below the
        diagonal and U on and above it).

Exit status 0, or 1 with a message.
"""
import math
import os
import sys

import numpy as np


def load(d):
    with open(os.path.join(d, "meta.txt")) as f:
        m = int(f.read().split()[0])
    ptr = np.fromfile(os.path.join(d, "indptr"), dtype=np.int64)
    idx = np.fromfile(os.path.join(d, "indices"), dtype=np.int64)
    val = np.fromfile(os.path.join(d, "data"), dtype=np.float64)
    return m, ptr, idx, val


def ilu0(m, ptr, idx, val):
    a = val.copy()
    where = [dict((int(idx[p]), p) for p in range(ptr[i], ptr[i + 1])) for i in range(m)]
    for i in range(m):
        for k in sorted(c for c in where[i] if c < i):
            if k not in where[k]:
                continue
            a[where[i][k]] /= a[where[k][k]]
            for j, q in where[k].items():
                if j > k and j in where[i]:
                    a[where[i][j]] -= a[where[i][k]] * a[q]
    return a


def ic0(m, ptr, idx, val):
    a = val.copy()
    where = [dict((int(idx[p]), p) for p in range(ptr[i], ptr[i + 1])) for i in range(m)]
    for i in range(m):
        for k in sorted(c for c in where[i] if c < i):
            s = a[where[i][k]]
            for j, q in where[k].items():
                if j < k and j in where[i]:
                    s -= a[where[i][j]] * a[q]
            a[where[i][k]] = s / a[where[k][k]] if k in where[k] else s
        if i in where[i]:
            s = a[where[i][i]] - sum(a[where[i][k]] ** 2 for k in where[i] if k < i)
            a[where[i][i]] = math.sqrt(s) if s >= 0 else float("nan")
    return a


def main(argv):
    if len(argv) == 3 and argv[1] in ("ic0", "ilu0"):
        m, ptr, idx, val = load(argv[2])
        f = ic0(m, ptr, idx, val) if argv[1] == "ic0" else ilu0(m, ptr, idx, val)
        f.tofile(os.path.join(argv[2], "factor"))
        return 0
    sys.stderr.write(__doc__)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
