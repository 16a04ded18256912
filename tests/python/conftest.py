"""pytest fixtures for the trnsci package: a real trnscid, both transports.

A session-wide trnscid from the build tree ($TRNSCID) listens on a private
Unix socket (local transport) and a free loopback port (gRPC); the
`transport` fixture is parametrised so that every test runs once over each,
pytest grouping the tests by transport so the process switches sessions
only once. libtrnsci comes from $TRNSCI_LIB, the package from the source
tree (PYTHONPATH). At the end the daemon must still be alive and exit 0 on
SIGTERM: no test's bad input may have hurt it.
"""
import os
import signal
import socket
import subprocess
import tempfile
import time

import pytest

import trnsci


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tcp_accepts(port):
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def start_daemon(tmp, extra=()):
    """Starts trnscid on a socket in tmp and a free port; returns (proc, unix, tcp)."""
    port = _free_port()
    unix = "unix:" + os.path.join(tmp, "trnscid.sock")
    tcp = f"127.0.0.1:{port}"
    log = open(os.path.join(tmp, "trnscid.log"), "w")
    proc = subprocess.Popen([os.environ["TRNSCID"], "--listen", unix, "--listen", tcp,
                             "--allow-unauthenticated-tcp", "--cores", "1", *extra],
                            stderr=log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            trnsci.status(unix)
            if _tcp_accepts(port):
                return proc, unix, tcp
        except trnsci.TrnsciError:
            pass
        if proc.poll() is not None:
            raise RuntimeError(f"trnscid exited with {proc.returncode}; see {tmp}/trnscid.log")
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("trnscid did not come up in 30 s")


@pytest.fixture(scope="session")
def daemon():
    tmp = tempfile.mkdtemp(prefix="trnsci-py-")
    proc, unix, tcp = start_daemon(tmp)
    yield {"local": unix, "grpc": tcp, "proc": proc, "dir": tmp}
    trnsci.reset()
    assert proc.poll() is None, "trnscid died during the tests"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0, "trnscid did not exit 0 on SIGTERM"


@pytest.fixture(scope="session", params=["local", "grpc"], autouse=True)
def transport(request, daemon):
    """The transport of this run of the test; the package is connected over it."""
    trnsci.connect(daemon[request.param])
    return request.param


@pytest.fixture
def reconnect(daemon, transport):
    """For tests that connect elsewhere: restores the session afterwards."""
    yield
    trnsci.connect(daemon[transport])


def my_session():
    """This process's session as the daemon reports it."""
    mine = [s for s in trnsci.sessions() if s["pid"] == os.getpid()]
    assert len(mine) == 1, mine
    return mine[0]
