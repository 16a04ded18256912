"""trnsci.Stream, trnsci.Event and trnsci.graph (context managers).

References: SciPy's sparse products. A product queued on a stream, or
replayed by a graph, is the same routine on the same data as a direct
call, so the results must be bitwise equal to the direct call's (the
routines are deterministic: docs/numerics.md); the direct call itself is
checked against SciPy here and in test_sparse.py. Times are never asserted.
"""
import numpy as np
import pytest
import scipy.sparse as sps

import trnsci
from trnsci import sparse


def near(y, S, x):
    """|y - S x| <= 8 k u |S| |x| (k = 48 columns: Higham, Thm 3.5)."""
    bound = 8 * 48 * np.finfo(np.float64).eps / 2 * (abs(S) @ np.abs(x))
    return np.all(np.abs(y - S @ x) <= bound)


@pytest.fixture
def mat():
    S = sps.random(64, 48, density=0.1, format="csr", random_state=3)
    return S, sparse.csr_matrix(S)


def test_stream_queues_and_synchronises_at_exit(mat):
    S, A = mat
    x = np.linspace(-1, 1, 48)
    direct = (A @ x).get()
    assert near(direct, S, x)
    with trnsci.Stream() as s:
        ys = [A @ x for _ in range(4)]
        e = s.record()
    assert e.query() and s.query()
    for y in ys:
        assert np.array_equal(y.get(), direct)
    s.synchronize()
    s.close()


def test_streams_nest_and_events_order_them(mat):
    S, A = mat
    x = np.ones(48)
    s1, s2 = trnsci.Stream(), trnsci.Stream(non_blocking=True)
    with s1:
        y = A @ x
        done = trnsci.Event().record()
        with s2:
            s2.wait_event(done)
            z = A @ x
        e2 = s2.record()
    e2.synchronize()
    assert np.array_equal(y.get(), z.get())
    assert np.array_equal(y.get(), (A @ x).get())
    t0, t1 = trnsci.Event(), trnsci.Event()
    t0.record()
    A @ x
    t1.record()
    t1.synchronize()
    assert np.isfinite(t0.elapsed_time(t1))
    with pytest.raises(trnsci.TrnsciError):
        trnsci.Event(timing=False).record().elapsed_time(t1)


def test_deferred_error_surfaces_at_exit(mat):
    S, A = mat
    bad = sparse.csr_matrix(([1.0, 2.0], [0, 7], [0, 1, 2]), shape=(2, 3))
    with pytest.raises(trnsci.TrnsciError) as e:
        with trnsci.Stream():
            bad @ np.ones(3)  # queued: the daemon refuses it when it runs
    assert "csrColInd" in e.value.message
    assert near((A @ np.ones(48)).get(), S, np.ones(48))


def test_graph_capture_and_launch(mat):
    S, A = mat
    x = trnsci.asarray(np.arange(48.0))
    direct = (A @ x).get()
    with trnsci.graph() as g:
        y = A @ x
        z = A @ np.ones((48, 3))  # operands uploaded at capture are kept by the graph
    assert g.num_nodes == 2
    g.launch()
    assert np.array_equal(y.get(), direct)
    assert np.array_equal(z.get(), (A @ np.ones((48, 3))).get())
    x.set(np.arange(48.0) * 2)  # new input, same buffer: launch again
    g.launch()
    assert np.array_equal(y.get(), (A @ x).get())
    with trnsci.Stream() as s:
        g.launch()
        g.launch(s)
    g.close()


def test_graph_refuses_what_cannot_be_captured(mat):
    S, A = mat
    from trnsci.sparse import linalg as spla
    with pytest.raises(RuntimeError, match="cannot be captured"):
        with trnsci.graph():
            A @ A.T
    with pytest.raises(RuntimeError, match="cannot be captured"):
        with trnsci.graph():
            spla.cg(sps.eye(4), np.ones(4))
    g = trnsci.graph()
    with pytest.raises(trnsci.TrnsciError, match="not instantiated"):
        g.launch()
    # a bad capture fails at instantiation, naming the node; the session carries on
    bad = sparse.csr_matrix(([1.0, 2.0], [0, 7], [0, 1, 2]), shape=(2, 3))
    with pytest.raises(trnsci.TrnsciError):
        with trnsci.graph() as g2:
            bad @ np.ones(3)
        g2.launch()
    assert near((A @ np.ones(48)).get(), S, np.ones(48))
