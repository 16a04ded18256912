"""A numpy implementation of the subset of NKI (neuronxcc.nki) that the
kernels in kernels/neuron/nki/ use, enforcing the hardware's tile rules, so
the kernels run and are checked on a CPU without the Neuron SDK.

  tiles.py     Tile (HBM/SBUF/PSUM), dtypes, bfloat16 rounding, size rules
  language.py  neuronxcc.nki.language: load/store, load_transpose2d,
               ndarray/zeros, loops, element-wise ops, tile_size
  isa.py       neuronxcc.nki.isa: nc_matmul

install() puts these under the names neuronxcc, neuronxcc.nki,
neuronxcc.nki.language and neuronxcc.nki.isa in sys.modules (for a kernel
module imported afterwards); load_kernel() imports a kernel source against
them without disturbing a real neuronxcc.
"""
import contextlib
import functools
import importlib.util
import sys
import types

import numpy as np

from . import isa, language, tiles
from .tiles import HBM, NkiRuleError, Tile, dtype_of_numpy

__all__ = ["jit", "simulate_kernel", "language", "isa", "tiles", "NkiRuleError",
           "install", "load_kernel"]


def _to_hbm(x):
    if isinstance(x, np.ndarray):
        return Tile(np.array(x, np.float32, copy=True), dtype_of_numpy(x), HBM)
    return x  # compile-time constants (keyword arguments) pass as they are


def _from_hbm(r):
    if isinstance(r, Tile):
        tiles.require(r.buffer == HBM, "a kernel returns HBM tensors")
        return r.data
    if isinstance(r, tuple):
        return tuple(_from_hbm(x) for x in r)
    return r


def jit(fn=None, **_options):
    """@nki.jit: calling the kernel with numpy arrays runs it here."""
    if fn is None:
        return lambda f: jit(f)

    @functools.wraps(fn)
    def run(*args, **kwargs):
        return _from_hbm(fn(*[_to_hbm(a) for a in args],
                            **{k: _to_hbm(v) for k, v in kwargs.items()}))

    run.kernel = fn
    return run


def simulate_kernel(kernel, *args, **kwargs):
    return kernel(*args, **kwargs)


def _module_tree():
    root = types.ModuleType("neuronxcc")
    nki = types.ModuleType("neuronxcc.nki")
    nki.jit = jit
    nki.simulate_kernel = simulate_kernel
    nki.language = language
    nki.isa = isa
    root.nki = nki
    return {"neuronxcc": root, "neuronxcc.nki": nki,
            "neuronxcc.nki.language": language, "neuronxcc.nki.isa": isa}


def install():
    """Registers the numpy NKI as neuronxcc.* (only call when the real
    package is absent)."""
    sys.modules.update(_module_tree())


@contextlib.contextmanager
def _installed():
    saved = {name: sys.modules.get(name) for name in _module_tree()}
    install()
    try:
        yield
    finally:
        for name, mod in saved.items():
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod


def load_kernel(path, module_name):
    """Imports the kernel source at path as module_name with its
    `import neuronxcc.nki...` bound to this numpy implementation."""
    with _installed():
        spec = importlib.util.spec_from_file_location(module_name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    return mod
