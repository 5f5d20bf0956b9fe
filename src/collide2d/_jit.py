"""One place that decides how kernels run: compiled by Numba, or as plain Python.

Every kernel in ``collide2d._kernels`` is decorated with :func:`njit` from here. With Numba
importable, it is ``numba.njit(cache=True)``: compiled on first call, cached on disk. Without
Numba (PyPy, Pyodide, a CPython newer than Numba's wheels) the kernels run unchanged as
Python after a single warning, so collide2d still works, slowly. ``NUMBA_DISABLE_JIT=1`` is
Numba's own switch for the same pure-Python path (used by the test suite's ``nojit`` subset).
"""

from __future__ import annotations

import os
import warnings

try:  # pragma: no cover - which branch runs depends on the interpreter
    import numba as _numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    _numba = None
    HAVE_NUMBA = False
    warnings.warn(
        "collide2d: Numba is not available on this interpreter; kernels run as plain Python "
        "and are 50-500x slower. `pip install numba` where wheels exist.",
        RuntimeWarning,
        stacklevel=2,
    )

#: True when kernels are really compiled (Numba present and not disabled).
JIT_ENABLED = HAVE_NUMBA and os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")


def _invalidate_stale_cache() -> None:
    """Drop cached kernels when any kernel source changed.

    Numba keys a cached function on its own file only: ``step_world`` compiled against an
    older ``sat.py`` keeps running the old code after ``sat.py`` changes. One hash over all
    kernel sources, kept beside the cache, makes every kernel recompile together instead.
    """
    import hashlib
    from pathlib import Path

    if not JIT_ENABLED or os.environ.get("NUMBA_CACHE_DIR"):
        return  # a custom cache folder is the caller's to manage
    here = Path(__file__).parent / "_kernels"
    try:
        digest = hashlib.sha256()
        for src in sorted(here.glob("*.py")):
            digest.update(src.name.encode())
            digest.update(src.read_bytes())
        stamp = here / "__pycache__" / "collide2d-kernels.sha256"
        current = digest.hexdigest()
        if stamp.exists() and stamp.read_text() == current:
            return
        for cached in here.glob("__pycache__/*.nb[ic]"):
            cached.unlink()
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(current)
    except OSError:
        pass  # read-only install: Numba then compiles in memory or uses its own fallback


_invalidate_stale_cache()


def njit(fn=None, **options):
    """``numba.njit(cache=True, ...)`` or the identity decorator without Numba."""

    def wrap(f):
        if _numba is None:
            return f
        opts = {"cache": True, "nogil": True}
        opts.update(options)
        return _numba.njit(**opts)(f)

    if fn is not None:
        return wrap(fn)
    return wrap
