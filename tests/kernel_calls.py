"""Calling kernels the surface never calls from Python, as compiled code.

A kernel without ``entry=True`` is compiled for other kernels only (no Python wrapper, its
code linked into its callers'), so a test that checks its compiled code calls it through
:func:`compiled`: a small compiled function passing its arguments on.
"""

from __future__ import annotations

import inspect

from collide2d import _jit

_made: dict = {}


def compiled(kernel):
    """``kernel`` callable from Python as compiled code (itself when it is an entry, or
    when kernels run as Python)."""
    if not _jit.JIT_ENABLED or getattr(kernel, "is_entry", True):
        return kernel
    call = _made.get(kernel)
    if call is None:
        import numba

        names = list(inspect.signature(kernel.py_func).parameters)
        args = ", ".join(names)
        scope = {"kernel": kernel}
        exec(f"def call({args}):\n    return kernel({args})\n", scope)
        call = _made[kernel] = numba.njit(scope["call"])
    return call
