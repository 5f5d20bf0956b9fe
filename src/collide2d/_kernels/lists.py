"""Typed lists of kernel views (one entry per world of a ``WorldBatch``), made and edited by
compiled helpers that are cached on disk.

Numba compiles a typed list's Python-level methods (construction, item assignment) in every
process, for every item type, and never caches them: for the batch's wide view types that
was over a minute per process on a loaded machine. Helpers compiled with ``cache=True`` do
the same work once. In the pure-Python twin (and without Numba, or with
``NUMBA_DISABLE_JIT=1``) they make plain lists, which the twin's kernels take; the batch
makes its lists again when the kernels change tier.
"""

from .._jit import JIT_ENABLED, TWIN_PACKAGE, njit

if JIT_ENABLED and not __name__.startswith(TWIN_PACKAGE + "."):
    from numba.typed import List as _List
else:  # the pure-Python kernels
    _List = list


@njit
def filled(item, n):
    """A typed list of ``n`` references to ``item``."""
    out = _List()
    for _ in range(n):
        out.append(item)
    return out


@njit
def put(items, i, item):
    """``items[i] = item``."""
    items[i] = item
