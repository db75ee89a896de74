"""The decorators for engine kernels: `@kernel` for the ones only jitted code calls, `@entry` for
the ones Python calls too (the `Game` interface, the harness).

What they change from a plain `njit(cache=True)`, and why (`benchmarks/profile_compile.py`
measures it):

- No reference counting (`_nrt=False`): kernels never allocate, they work inside the state array.
  It removes the atomic incref/decref pairs around calls between kernels, which measured as most of
  the time of a game step.
- One compiled version per kernel. A plain dispatcher compiles a kernel again for each literal
  constant a caller passes (`card(s, c, F_COST)`, `finish(s, END_OVERTIME, ...)`) and for int32
  against int64 arguments: 423 versions of 187 kernels, half the cold compile. Here every signed
  integer argument is compiled as int64 and every literal as its plain type, so the engine compiles
  187 versions. Games are as fast: LLVM inlines the small kernels and folds the constants after
  all. (An earlier try with explicit eager signatures was slower because it also moved the state
  to int64.)
- No CPython or C wrappers on `@kernel`s: no Python code calls them, and each wrapper is compiled
  and optimised for every kernel. Calling a `@kernel` from Python raises a TypeError naming it,
  instead of running a wrapper that is not there.
- `@entry`s release the interpreter's lock while they run (`nogil`): a kernel reads and writes
  only the arrays it is given, so a thread deciding in one game's state (a search thinking for the
  web table, `hoc.web.workers`) lets every other thread run Python meanwhile. Two threads must not
  share a state array, which no caller does.
"""
from numba import types
from numba.core import sigutils
from numba.core.registry import CPUDispatcher


def plain(t):
    """The type a kernel is compiled for when a caller passes an argument of type t."""
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.signed:
        return types.int64
    return t


class Entry(CPUDispatcher):
    """A kernel Python may call: compiled once per plain signature."""

    def compile(self, sig):
        args, _ = sigutils.normalize_signature(sig)
        return super().compile(tuple(plain(a) for a in args))


class Kernel(Entry):
    """A kernel only jitted code calls (compiled without the wrappers Python would need)."""

    def __call__(self, *args, **kwargs):
        name = f"{self.py_func.__module__}.{self.py_func.__qualname__}"
        raise TypeError(f"{name} is a @kernel, callable from jitted code only; make it an @entry "
                        f"(hoc.engine.jit) to call it from Python")


def _make(cls, fn, **options):
    dispatcher = cls(py_func=fn, locals={}, targetoptions={"nopython": True, "_nrt": False, **options})
    dispatcher.enable_caching()
    return dispatcher


def kernel(fn):
    return _make(Kernel, fn, no_cpython_wrapper=True, no_cfunc_wrapper=True)


def entry(fn):
    return _make(Entry, fn, nogil=True)
