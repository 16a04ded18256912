#!/usr/bin/python3
"""test_prometheus.py TRNSCID — a real Prometheus server (Debian's prometheus)
scrapes a running trnscid's --metrics-listen endpoint; the test asks
Prometheus's HTTP API that the target is up and that trnscid series are
stored. Also checks /healthz and /readyz answer 200 and that the exposition
parses as Prometheus text (promtool check metrics).

Bounded: each wait has a deadline (the whole test takes a few seconds; it
gives up after 60 s). Ports are chosen free; storage is a temp directory.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

TRNSCID = sys.argv[1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, timeout=2):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, r.read().decode()


def wait_for(what, fn, deadline):
    last = None
    while time.monotonic() < deadline:
        try:
            v = fn()
            if v:
                return v
        except Exception as e:  # not up yet
            last = e
        time.sleep(0.2)
    raise SystemExit(f"timed out waiting for {what} (last error: {last})")


def main():
    tmp = tempfile.mkdtemp(prefix="trnsci-prom-")
    procs = []
    try:
        mport, pport = free_port(), free_port()
        sock = os.path.join(tmp, "trnscid.sock")
        dlog = open(os.path.join(tmp, "trnscid.log"), "w")
        d = subprocess.Popen([TRNSCID, "--listen", "unix:" + sock, "--cores", "1",
                              "--metrics-listen", f"127.0.0.1:{mport}"], stderr=dlog)
        procs.append(d)
        deadline = time.monotonic() + 60
        base = f"http://127.0.0.1:{mport}"
        wait_for("trnscid's /healthz", lambda: get(base + "/healthz")[0] == 200, deadline)
        wait_for("trnscid's /readyz", lambda: get(base + "/readyz")[0] == 200, deadline)
        status, page = get(base + "/metrics")
        assert status == 200 and "trnscid_cores 1" in page, page[:400]
        # The exposition format, as Prometheus's own tool reads it.
        chk = subprocess.run(["promtool", "check", "metrics"], input=page, text=True,
                             capture_output=True)
        # promtool's lint may only warn (exit 0 or lint messages); a parse
        # error exits 1 with "error".
        if chk.returncode != 0 and "error" in (chk.stderr + chk.stdout).lower():
            raise SystemExit("promtool check metrics: " + chk.stdout + chk.stderr)
        # An unknown path is a 404, not a hang.
        try:
            get(base + "/nope")
            raise SystemExit("/nope answered 200")
        except urllib.error.HTTPError as e:
            assert e.code == 404

        conf = os.path.join(tmp, "prometheus.yml")
        with open(conf, "w") as f:
            f.write(f"""global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: trnscid
    static_configs:
      - targets: ['127.0.0.1:{mport}']
""")
        plog = open(os.path.join(tmp, "prometheus.log"), "w")
        p = subprocess.Popen(["prometheus", f"--config.file={conf}",
                              f"--storage.tsdb.path={tmp}/data",
                              f"--web.listen-address=127.0.0.1:{pport}"],
                             stdout=plog, stderr=subprocess.STDOUT)
        procs.append(p)
        api = f"http://127.0.0.1:{pport}/api/v1"

        def target_up():
            t = json.loads(get(api + "/targets")[1])["data"]["activeTargets"]
            return t and t[0]["health"] == "up" and t[0]["labels"]["job"] == "trnscid"

        wait_for("Prometheus to scrape trnscid as up", target_up, deadline)

        def series():
            r = json.loads(get(api + "/query?query=trnscid_cores")[1])["data"]["result"]
            return r and r[0]["value"][1] == "1" and r[0]["metric"]["job"] == "trnscid"

        wait_for("trnscid_cores stored in Prometheus", series, deadline)
        up = json.loads(get(api + '/query?query=up{job="trnscid"}')[1])["data"]["result"]
        assert up and up[0]["value"][1] == "1", up
        print("prometheus scraped trnscid: up, trnscid_cores stored")
    finally:
        for pr in reversed(procs):
            pr.send_signal(signal.SIGTERM)
            try:
                pr.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pr.kill()
                pr.wait()
        if procs and procs[0].returncode != 0:
            print(open(os.path.join(tmp, "trnscid.log")).read(), file=sys.stderr)
            shutil.rmtree(tmp, ignore_errors=True)
            raise SystemExit(f"trnscid exited with {procs[0].returncode}")
        shutil.rmtree(tmp, ignore_errors=True)


main()
