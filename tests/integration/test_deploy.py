#!/usr/bin/python3
"""test_deploy.py SOURCE_DIR TRNSCID — the deployment files in deploy/.

- deploy/kubernetes/*.yaml parse as YAML (python3-yaml) and say what
  docs/operations.md says: a DaemonSet with a hostPath socket directory, an
  aws.amazon.com/neuroncore request, liveness on /healthz and readiness on
  /readyz at the metrics port, Prometheus scrape annotations naming that
  port, and a headless Service selecting the DaemonSet's pods on the gRPC
  and metrics ports;
- the DaemonSet's trnscid arguments and its ConfigMap's trnscid.conf are
  accepted by this build's trnscid (--check-config);
- deploy/prometheus passes `promtool check config` (which checks its rule
  file too) and `promtool check rules`.
"""
import glob
import os
import subprocess
import sys
import tempfile

import yaml

SRC, TRNSCID = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


docs = []
for path in sorted(glob.glob(os.path.join(SRC, "deploy/kubernetes/*.yaml"))):
    with open(path) as f:
        for d in yaml.safe_load_all(f):
            check(isinstance(d, dict) and "kind" in d and "apiVersion" in d,
                  f"{path}: every document has kind and apiVersion")
            docs.append(d)
by_kind = {}
for d in docs:
    by_kind.setdefault(d["kind"], []).append(d)

ds = by_kind["DaemonSet"][0]
pod = ds["spec"]["template"]
spec = pod["spec"]
c = spec["containers"][0]
ports = {p["name"]: p["containerPort"] for p in c["ports"]}
args = c["args"]
check(ds["spec"]["selector"]["matchLabels"].items() <= pod["metadata"]["labels"].items(),
      "DaemonSet selector matches its pod labels")
check(c["resources"]["requests"].get("aws.amazon.com/neuroncore"),
      "requests aws.amazon.com/neuroncore")
check(c["livenessProbe"]["httpGet"]["path"] == "/healthz", "liveness on /healthz")
check(c["readinessProbe"]["httpGet"]["path"] == "/readyz", "readiness on /readyz")
check(c["livenessProbe"]["httpGet"]["port"] == "metrics", "probes on the metrics port")
ann = pod["metadata"]["annotations"]
check(ann.get("prometheus.io/scrape") == "true", "prometheus.io/scrape annotation")
check(int(ann.get("prometheus.io/port", 0)) == ports["metrics"], "scrape port = metrics port")
check(f"--metrics-listen=0.0.0.0:{ports['metrics']}" in args, "--metrics-listen on that port")
check(f"--listen=0.0.0.0:{ports['grpc']}" in args, "gRPC --listen on the grpc port")
sock_mount = [m for m in c["volumeMounts"] if m["mountPath"] == "/run/trnscid"]
check(sock_mount, "socket directory mounted at /run/trnscid")
vols = {v["name"]: v for v in spec["volumes"]}
check(sock_mount and vols[sock_mount[0]["name"]]["hostPath"]["path"] == "/run/trnscid",
      "socket directory is a hostPath")
check("--listen=unix:/run/trnscid/trnscid.sock" in args, "local socket in the hostPath")

svc = by_kind["Service"][0]
check(svc["spec"]["clusterIP"] == "None", "the Service is headless")
check(svc["spec"]["selector"].items() <= pod["metadata"]["labels"].items(),
      "the Service selects the DaemonSet's pods")
check({p["port"] for p in svc["spec"]["ports"]} == {ports["grpc"], ports["metrics"]},
      "the Service exposes the gRPC and metrics ports")

# The daemon accepts the DaemonSet's arguments and the ConfigMap's file.
cm = by_kind["ConfigMap"][0]
with tempfile.TemporaryDirectory() as tmp:
    conf = os.path.join(tmp, "trnscid.conf")
    with open(conf, "w") as f:
        f.write(cm["data"]["trnscid.conf"])
    real = [a if not a.startswith("--config=") else "--config=" + conf for a in args]
    real = [a.replace("unix:/run/trnscid/", f"unix:{tmp}/") for a in real]
    r = subprocess.run([TRNSCID, "--check-config"] + real, capture_output=True, text=True)
    check(r.returncode == 0, f"trnscid --check-config {' '.join(real)}: {r.stdout}{r.stderr}")

prom = os.path.join(SRC, "deploy/prometheus")
for cmd in (["promtool", "check", "config", "prometheus.yml"],
            ["promtool", "check", "rules", "trnscid-alerts.yml"]):
    r = subprocess.run(cmd, cwd=prom, capture_output=True, text=True)
    check(r.returncode == 0, f"{' '.join(cmd)}: {r.stdout}{r.stderr}")

if failures:
    print("deploy/ checks failed:\n  " + "\n  ".join(failures))
    sys.exit(1)
print(f"deploy/ OK: {len(docs)} Kubernetes documents, Prometheus config and rules")
