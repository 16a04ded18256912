#!/usr/bin/python3
"""run_selftest.py BUILD_DIR [--reps N] — how long the self-test of the outside
routines takes (docs/benchmarks.md).

Measures, REPS times each, medians reported:
  - `trnscid --self-test` with its default workers (one per CPU) and with
    `--cores 1` (one worker): the run's own time, as it reports it ("checked
    in X s"), and the command's wall time (process start, exec of the children,
    exit);
  - a daemon started on a private socket until `trnsci status` answers (time
    to ready), and the self-test's share of it (from the daemon's log).
Every run is recorded with the OpenBLAS kernel set the self-test ran and how
many routines it replaced. Prints one JSON object.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

SUMMARY = re.compile(r"(\d+) routines checked in ([0-9.]+) s with (\d+) processes: (\d+) passed, "
                     r"(\d+) replaced, (\d+) refused; .*kernel set (\S+)")


def parse(text):
    m = SUMMARY.search(text)
    if not m:
        raise RuntimeError("no self-test summary in:\n" + text)
    return {"routines": int(m.group(1)), "seconds": float(m.group(2)),
            "processes": int(m.group(3)), "replaced": int(m.group(5)),
            "refused": int(m.group(6)), "blas_core": m.group(7)}


def stats(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def self_test_command(daemon, extra, reps):
    runs = []
    for _ in range(reps):
        t0 = time.monotonic()
        p = subprocess.run([daemon, "--self-test"] + extra, capture_output=True, text=True,
                           check=False)
        wall = time.monotonic() - t0
        if p.returncode not in (0, 1):
            raise RuntimeError("trnscid --self-test exited %d:\n%s" % (p.returncode, p.stderr))
        r = parse(p.stdout)
        r["wall"] = wall
        runs.append(r)
    return {"args": extra, "processes": runs[0]["processes"], "blas_core": runs[0]["blas_core"],
            "replaced": runs[0]["replaced"], "refused": runs[0]["refused"],
            "self_test_s": stats([r["seconds"] for r in runs]),
            "command_wall_s": stats([r["wall"] for r in runs])}


def time_to_ready(daemon, cli, reps):
    ready, share = [], []
    for _ in range(reps):
        with tempfile.TemporaryDirectory(prefix="trnsci-selftest-") as tmp:
            sock = "unix:" + os.path.join(tmp, "d.sock")
            log = open(os.path.join(tmp, "log"), "w+")
            t0 = time.monotonic()
            d = subprocess.Popen([daemon, "--listen", sock, "--log-level", "info"], stderr=log)
            try:
                while True:
                    if subprocess.run([cli, "--addr", sock, "status"], capture_output=True,
                                      check=False).returncode == 0:
                        break
                    if d.poll() is not None or time.monotonic() - t0 > 30:
                        raise RuntimeError("the daemon did not come up")
                    time.sleep(0.01)
                ready.append(time.monotonic() - t0)
            finally:
                d.terminate()
                d.wait()
            log.seek(0)
            share.append(parse(log.read())["seconds"])
    return {"ready_s": stats(ready), "self_test_s": stats(share)}


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: run_selftest.py BUILD_DIR [--reps N]")
    build = os.path.abspath(sys.argv[1])
    reps = 5
    if "--reps" in sys.argv:
        reps = int(sys.argv[sys.argv.index("--reps") + 1])
    daemon, cli = os.path.join(build, "trnscid"), os.path.join(build, "trnsci")
    out = {
        "benchmark": "selftest",
        "cpu_model": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                           if l.startswith("model name")), "?"),
        "cpus": os.cpu_count(),
        "loadavg_before": os.getloadavg()[0],
        "openblas_coretype_env": os.environ.get("OPENBLAS_CORETYPE"),
        "reps": reps,
        "self_test": [self_test_command(daemon, [], reps),
                      self_test_command(daemon, ["--cores", "1"], reps)],
        "daemon_start": time_to_ready(daemon, cli, reps),
        "loadavg_after": os.getloadavg()[0],
    }
    json.dump(out, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
