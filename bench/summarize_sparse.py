#!/usr/bin/env python3
"""Summarise bench_sparse outputs (one JSON object per run_sparse.sh run).

usage: summarize_sparse.py RUN1.json RUN2.json ...

Prints the Markdown tables kept in docs/benchmarks.md: for the CSR cases
(n, density, N), per daemon core count, the median over runs of each run's
median ms of trnsci (SpMV/SpMM through the daemon), scipy's A @ B and
scipy's kernel, the trnsci and scipy GFLOP/s, the ratio (scipy's faster
median / trnsci's) and the ratio per daemon core; then, for the BSR cases,
trnsci's and the dense GEMM's ms and GFLOP/s and their rate ratio.
"""
from summary_util import cli, med


def main(runs):
    csr, bsr = {}, {}
    for run in runs:
        cores = run["daemon_cores"]
        for r in run["results"]:
            if r["format"] == "csr":
                csr.setdefault((cores, r["n"], r["density"], r["N"]), []).append(r)
            else:
                bsr.setdefault((r["n"], r["block_density"], r["N"]), []).append(r)
    if csr:
        print("| cores | n | density | nnz | N | trnsci ms | scipy A@B ms | scipy kernel ms "
              "| trnsci GFLOP/s | scipy GFLOP/s | ratio | per core |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for key in sorted(csr):
            rs = csr[key]
            cores, n, dens, nv = key
            print(f"| {cores} | {n:.0e} | {dens * 100:g} % | {rs[0]['nnz']:.0e} | {nv} "
                  f"| {med([r['trnsci']['median_ms'] for r in rs]):.3f} "
                  f"| {med([r['scipy']['median_ms'] for r in rs]):.3f} "
                  f"| {med([r['scipy_kernel']['median_ms'] for r in rs]):.3f} "
                  f"| {med([r['trnsci_gflops'] for r in rs]):.2f} "
                  f"| {med([r['scipy_gflops'] for r in rs]):.2f} "
                  f"| {med([r['ratio'] for r in rs]):.2f} "
                  f"| {med([r['per_core'] for r in rs]):.2f} |")
    if bsr:
        print()
        print("| n | block density | blocks | N | trnsci ms | dense GEMM ms | dense shape "
              "| trnsci GFLOP/s | GEMM GFLOP/s | rate ratio |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for key in sorted(bsr):
            rs = bsr[key]
            n, bd, nv = key
            shape = "x".join(str(x) for x in rs[0]["dense_shape"])
            print(f"| {n} | {bd:g} | {rs[0]['blocks']} | {nv} "
                  f"| {med([r['trnsci']['median_ms'] for r in rs]):.2f} "
                  f"| {med([r['dense_gemm']['median_ms'] for r in rs]):.2f} | {shape} "
                  f"| {med([r['trnsci_gflops'] for r in rs]):.1f} "
                  f"| {med([r['gemm_gflops'] for r in rs]):.1f} "
                  f"| {med([r['rate_ratio'] for r in rs]):.3f} |")
    return 0


if __name__ == "__main__":
    cli(main, __doc__)
