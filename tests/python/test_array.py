"""Device arrays: round trips, dtypes and orders, views, host sharing,
DLPack, errors, and buffers freed with their last reference.

References: NumPy itself (the same indexing, layouts and values); every
value here is exact (copies), so comparisons are bitwise.
"""
import gc

import numpy as np
import pytest

import trnsci
from trnsci import _array
from conftest import my_session, start_daemon

DTYPES = [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64, np.float16, np.float32,
          np.float64, np.complex64, np.complex128, np.bool_]


def sample(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * 100
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def test_status(transport):
    st = trnsci.status()
    assert st["backend"] in ("cpu", "neuron") and st["protocolMajor"] == 1
    assert st["sessions"] >= 1
    assert my_session()["transport"] == transport


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_round_trip(dtype, order):
    x = np.require(sample((5, 7), dtype), requirements=[order])
    a = trnsci.asarray(x)
    assert a.shape == x.shape and a.dtype == x.dtype and a.strides == x.strides
    assert (a.c_contiguous, a.f_contiguous) == (x.flags.c_contiguous, x.flags.f_contiguous)
    y = a.get()
    assert y.dtype == x.dtype and y.strides == x.strides
    assert np.array_equal(y, x)
    assert np.array_equal(a.get(order="C"), x) and a.get(order="C").flags.c_contiguous


def test_asarray_forced_order_and_dtype():
    x = sample((4, 3), np.float64)
    a = trnsci.asarray(x, dtype=np.float32, order="F")
    assert a.dtype == np.float32 and a.f_contiguous
    assert np.array_equal(a.get(), x.astype(np.float32))
    assert trnsci.asarray(a) is a
    assert np.array_equal(trnsci.asarray(a, dtype=np.float64).get(), x.astype(np.float32))
    assert np.array_equal(trnsci.asarray([[1, 2], [3, 4]]).get(), np.array([[1, 2], [3, 4]]))


@pytest.mark.parametrize("order", ["C", "F"])
def test_empty_zeros(order):
    a = trnsci.empty((3, 0, 2), np.float32, order)
    assert a.shape == (3, 0, 2) and a.size == 0 and a.get().shape == (3, 0, 2)
    z = trnsci.zeros((6, 5), np.complex128, order)
    ref = np.zeros((6, 5), np.complex128, order=order)
    assert z.strides == ref.strides and np.array_equal(z.get(), ref)
    assert trnsci.zeros(4).dtype == np.float64
    assert trnsci.zeros((), np.int32).get().shape == ()


VIEWS = [np.s_[1], np.s_[-1], np.s_[1:3], np.s_[::2], np.s_[::-1], np.s_[:, 2],
         np.s_[1:, ::-3], np.s_[..., 1], np.s_[None, 2, :], np.s_[2, 3], np.s_[1:1],
         np.s_[:, None, ::2], np.s_[-2:, -1::-2]]


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("key", VIEWS, ids=[str(v) for v in VIEWS])
def test_views(order, key):
    x = np.require(sample((6, 7), np.float64), requirements=[order])
    a = trnsci.asarray(x)
    v, ref = a[key], x[key]
    assert v.shape == ref.shape and v.strides == ref.strides
    assert np.array_equal(v.get(), ref)
    assert np.array_equal(v.T.get(), ref.T)
    # Writing through the view changes the base exactly where NumPy's would.
    new = sample(ref.shape, np.float64, seed=1)
    v.set(new)
    x2 = x.copy()
    x2[key] = new
    assert np.array_equal(a.get(), x2)


def test_setitem_broadcast_cast_and_reshape():
    a = trnsci.zeros((4, 5), np.float32)
    a[1:3, ::2] = 7
    a[0] = np.arange(5)
    ref = np.zeros((4, 5), np.float32)
    ref[1:3, ::2] = 7
    ref[0] = np.arange(5)
    assert np.array_equal(a.get(), ref)
    assert np.array_equal(a.reshape(20).get(), ref.reshape(20))
    assert np.array_equal(a.reshape(2, -1).get(), ref.reshape(2, -1))
    assert np.array_equal(a.copy("F").get(), ref) and a.copy("F").f_contiguous
    assert np.array_equal(a[:, 1:].copy().get(), ref[:, 1:])
    with pytest.raises(ValueError):
        a[:, 1:].reshape(16)


def test_host_sharing(transport):
    """__array__: the buffer's own pages on the local transport, a copy over gRPC."""
    x = sample((8, 3), np.float32)
    a = trnsci.asarray(x)
    h = np.asarray(a)
    assert np.array_equal(h, x)
    h[0, 0] = 12345.0
    shared = a.get()[0, 0] == 12345.0
    assert shared == (transport == "local")
    # A strided view is shared too (negative strides included).
    hv = np.asarray(a[::-2, 1])
    assert np.array_equal(hv, a.get()[::-2, 1])


def test_dlpack_numpy(transport):
    x = sample((5, 4), np.float64)
    a = trnsci.asarray(x)
    assert a.__dlpack_device__() == (1, 0)
    n = np.from_dlpack(a)
    assert np.array_equal(n, x)
    a[2, 2] = -1.0  # (NumPy marks DLPack imports read-only; write on the device side)
    assert (n[2, 2] == -1.0) == (transport == "local")
    del a
    gc.collect()
    assert np.array_equal(n[0], x[0])  # n keeps the buffer alive
    b = trnsci.from_dlpack(np.arange(6.0))
    assert np.array_equal(b.get(), np.arange(6.0))
    c = trnsci.asarray(np.from_dlpack(trnsci.asarray(x[:, ::2])))
    assert np.array_equal(c.get(), x[:, ::2])


def test_dlpack_torch(transport):
    torch = pytest.importorskip("torch", reason="Debian's python3-torch is not installed")
    x = sample((3, 4), np.float32)
    a = trnsci.asarray(x)
    t = torch.from_dlpack(a)
    assert np.array_equal(t.numpy(), x)
    t[0, 0] = 99.0
    assert (a.get()[0, 0] == 99.0) == (transport == "local")
    back = trnsci.asarray(torch.arange(5, dtype=torch.float64))
    assert np.array_equal(back.get(), np.arange(5.0))


def test_bad_input():
    a = trnsci.zeros((3, 4), np.float32)
    with pytest.raises(TypeError):
        a.set(np.ones((3, 4), np.complex64))  # complex into float: not same-kind
    with pytest.raises(ValueError):
        a.set(np.ones((4, 3), np.float32))
    with pytest.raises(IndexError):
        a[[0, 1]]
    with pytest.raises(IndexError):
        a[3]
    with pytest.raises(IndexError):
        a[0, 0, 0]
    with pytest.raises(IndexError):
        a[True]
    z = trnsci.asarray(np.float32(5))
    assert z[()].shape == () and z[()].get() == 5 and z[...].get() == 5
    with pytest.raises(TypeError):
        trnsci.asarray(np.array(["x"]))
    with pytest.raises(ValueError):
        trnsci.empty((-1, 2))
    # A pointer the daemon never gave out: its status and message.
    with pytest.raises(trnsci.TrnsciError) as e:
        _array._memcpy(np.zeros(1).ctypes.data, 0x10, 8, _array._D2H)
    assert e.value.status == 1 and e.value.name == "trnsciErrorInvalidValue" and e.value.message
    # The session carries on.
    a[1, 1] = 3
    assert a.get()[1, 1] == 3


def test_no_leaks(transport):
    gc.collect()
    before = my_session()
    arrays = [trnsci.zeros((64, 64), np.float64) for _ in range(5)]
    views = [x[1:, ::2] for x in arrays]
    h = np.asarray(arrays[0])
    mid = my_session()
    assert mid["buffers"] == before["buffers"] + 5
    assert mid["bytes"] >= before["bytes"] + 5 * 64 * 64 * 8
    del arrays
    gc.collect()
    assert my_session()["buffers"] == before["buffers"] + 5  # the views hold them
    del views
    gc.collect()
    # h shares (and holds) one buffer on the local transport; over gRPC it is a copy.
    assert my_session()["buffers"] == before["buffers"] + (transport == "local")
    del h
    gc.collect()
    after = my_session()
    assert (after["buffers"], after["bytes"]) == (before["buffers"], before["bytes"])


def test_array_of_closed_session(daemon, transport, reconnect):
    a = trnsci.asarray(np.arange(4.0))
    trnsci.connect(daemon[transport])  # a new session: a's memory went with the old one
    with pytest.raises(trnsci.TrnsciError) as e:
        a.get()
    assert e.value.name == "trnsciErrorContextIsDestroyed"
    with pytest.raises(trnsci.TrnsciError):
        a @ a
    del a
    gc.collect()
    assert my_session()["buffers"] == 0


def test_dead_daemon(tmp_path, reconnect):
    proc, unix, tcp = start_daemon(str(tmp_path))
    try:
        trnsci.connect(unix)
        a = trnsci.asarray(np.arange(3.0))
        proc.kill()
        proc.wait()
        with pytest.raises(trnsci.TrnsciError) as e:
            trnsci.asarray(np.arange(3.0)).get()
        assert e.value.status != 0 and str(e.value)
        del a
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    with pytest.raises(trnsci.TrnsciError):
        trnsci.connect("unix:" + str(tmp_path / "nobody.sock"))


def test_reset_refused_while_numpy_shares_memory(daemon, transport, reconnect):
    a = trnsci.asarray(np.arange(4.0))
    h = np.asarray(a)
    del a
    if transport == "local":  # h is a window onto the session's pages
        with pytest.raises(trnsci.TrnsciError) as e:
            trnsci.connect(daemon[transport])
        assert "NumPy" in e.value.message
        assert np.array_equal(h, np.arange(4.0))  # still mapped
    del h
    trnsci.connect(daemon[transport])  # nothing shares it now


def token_daemon(tmp_path, secret, monkeypatch):
    """A daemon whose gRPC callers need `secret`; returns it and its TCP
    address. TRNSCI_TOKEN is unset for the test (monkeypatch restores it)."""
    tokens = tmp_path / "tokens"
    tokens.write_text(f"pytest {secret}\n")
    tokens.chmod(0o600)
    monkeypatch.delenv("TRNSCI_TOKEN", raising=False)
    proc, _unix, tcp = start_daemon(str(tmp_path), ["--tokens-file", str(tokens)])
    return proc, tcp


def test_token(tmp_path, reconnect, monkeypatch):
    """connect(token=...) reaches a daemon that asks gRPC callers for a token."""
    secret = "pyTestSecret0123456789abcdef"
    proc, tcp = token_daemon(tmp_path, secret, monkeypatch)
    try:
        trnsci.connect(tcp, token=secret)
        assert np.array_equal(trnsci.asarray(np.arange(3.0)).get(), np.arange(3.0))
        with pytest.raises(trnsci.TrnsciError) as e:
            trnsci.connect(tcp, token="wrongSecret0123456789abcdef")
        assert e.value.name == "trnsciErrorUnauthenticated", e.value
    finally:
        proc.terminate()
        proc.wait()


def test_token_after_refusal(tmp_path, reconnect, monkeypatch):
    """A refused token does not spoil the process's next connect: the right
    token then gets in, and a wrong one after it is refused again."""
    secret, wrong = "pyTestSecret0123456789abcdef", "wrongSecret0123456789abcdef"
    proc, tcp = token_daemon(tmp_path, secret, monkeypatch)
    try:
        for _ in range(2):
            with pytest.raises(trnsci.TrnsciError) as e:
                trnsci.connect(tcp, token=wrong)
            assert e.value.name == "trnsciErrorUnauthenticated", e.value
            trnsci.connect(tcp, token=secret)
            assert np.array_equal(trnsci.asarray(np.arange(3.0)).get(), np.arange(3.0))
    finally:
        proc.terminate()
        proc.wait()
