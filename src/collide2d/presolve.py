"""Pre-solve: the step's contacts handed to Python between finding them and solving them.

With a callback registered (:meth:`World.on_pre_solve`) the compiled step returns after its
``collide`` stage (``_kernels.step.PRESOLVE``); :func:`run_pre_solve` gives each callback
the contacts it asked for as arrays, writes what it changed back into the step's contact
material rows (``StepBuffers`` ``material``: friction, restitution, surface speed,
enabled; used for this step only, the ``collide`` stage rewrites them from the shapes every
step), and the step goes
on from ``prepare``. With none registered the step never stops there.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _validate as V
from ._kernels.constants import SOLID
from ._kernels.materials import ENABLED, FRICTION, RESTITUTION, SURFACE_SPEED
from .body import _SLOT_BITS


class PreSolve(NamedTuple):
    """The step's contacts, as a pre-solve callback gets them: one row per contact manifold
    the solver is about to solve (solid pairs with points, including speculative ones a
    hair apart, ``separation > 0``; not those whose bodies sleep or are fixed).

    Read-only (copies): ``shape_a``, ``shape_b`` (shape ids, ``Shape.id``), ``body_a``,
    ``body_b`` (body ids, ``Body.id``), ``normal`` (k, 2) unit, from shape_a to shape_b,
    ``points`` (k, 2, 2) and ``separation`` (k, 2) m per manifold point (``count`` (k,) of
    them, 1 or 2), ``new`` (k,) True for contacts that began touching in this step.

    Writable (write into them in place; this step only): ``enabled`` (k,) bool, False and
    the contact is not solved this step; ``friction`` (k,) >= 0, prefilled with
    sqrt(f_a f_b); ``elasticity`` (k,) >= 0, prefilled with max(e_a, e_b); and
    ``surface_speed`` (k,) m/s, prefilled with ``shape_a.surface_speed +
    shape_b.surface_speed``: friction drives shape_b to slide along shape_a's surface at this
    speed, counter-clockwise about shape_a positive (the same from either side, so it does
    not change sign when a and b swap).
    """

    shape_a: np.ndarray
    shape_b: np.ndarray
    body_a: np.ndarray
    body_b: np.ndarray
    normal: np.ndarray
    points: np.ndarray
    count: np.ndarray
    separation: np.ndarray
    new: np.ndarray
    enabled: np.ndarray
    friction: np.ndarray
    elasticity: np.ndarray
    surface_speed: np.ndarray


def _solved_rows(c, m: int) -> np.ndarray:
    """Rows of the step's table the solver would solve: solid, with points."""
    return np.flatnonzero((c.resp[:m] == SOLID) & (c.count[:m] > 0))


def _view(world, c, mat, rows: np.ndarray, flip: np.ndarray) -> PreSolve:
    """The rows as a callback sees them, flipped (a and b swapped) where ``flip``. Indexing
    by ``rows`` copies, so the callback never holds the table's own arrays."""
    sh = world._shapes
    sa, sb = c.a[rows], c.b[rows]
    own_a, own_b = sh.owner[sa], sh.owner[sb]
    gen = world._bodies.generation
    slot_a, slot_b = sh.body[sa], sh.body[sb]
    bod_a = (gen[slot_a] << _SLOT_BITS) | slot_a  # Body.id
    bod_b = (gen[slot_b] << _SLOT_BITS) | slot_b
    normal = c.normal[rows]
    if flip.any():
        normal[flip] *= -1.0
        own_a, own_b = np.where(flip, own_b, own_a), np.where(flip, own_a, own_b)
        bod_a, bod_b = np.where(flip, bod_b, bod_a), np.where(flip, bod_a, bod_b)
    return PreSolve(own_a, own_b, bod_a, bod_b, normal, c.point[rows], c.count[rows],
                    c.sep[rows], c.began[rows], mat[rows, ENABLED] != 0.0,
                    mat[rows, FRICTION], mat[rows, RESTITUTION], mat[rows, SURFACE_SPEED])


def _checked(pre: PreSolve) -> None:
    """What a callback wrote must be usable: raise ValueError (its writes are dropped). One
    reduction per bound (NaN fails every comparison); the details only on failure."""
    fr, el, sp = pre.friction, pre.elasticity, pre.surface_speed
    if not len(fr) or (fr.min() >= 0.0 and fr.max() < np.inf and el.min() >= 0.0
                       and el.max() < np.inf and np.abs(sp).max() <= V.COORD_MAX):
        return
    for name, arr in (("friction", fr), ("elasticity", el), ("surface_speed", sp)):
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"pre.{name}: a pre-solve callback wrote NaN or inf")
        if name != "surface_speed" and np.any(arr < 0.0):
            raise ValueError(f"pre.{name}: a pre-solve callback wrote a negative value "
                             f"({float(arr.min())!r}); {name} must be >= 0")
    V.check_bound("pre.surface_speed", sp)


def run_pre_solve(world, c, mat, m: int, handlers: list) -> BaseException | None:
    """Call each ``(fn, between)`` once with the contacts among the table ``c``'s first
    ``m`` rows it asked for, and write back what it changed into their rows of ``mat``
    (the step's material array). A callback that raises (or
    writes what the solver cannot use) has its writes dropped; the others still run. Returns
    the first exception, for the caller to raise once the step is done."""
    rows = _solved_rows(c, m)
    first_error = None
    for fn, between in list(handlers):
        sh = world._shapes
        if between is None:
            sel = rows
            flip = sh.owner[c.a[sel]] > sh.owner[c.b[sel]]  # lower shape id first
        else:
            ta, tb = sh.collision_type[c.a[rows]], sh.collision_type[c.b[rows]]
            fwd = (ta == between[0]) & (tb == between[1])
            back = (ta == between[1]) & (tb == between[0])
            keep = fwd | back
            sel = rows[keep]
            # Of the handler's types the other way round; both ways (equal types): lower
            # shape id first.
            flip = np.where(fwd[keep] & back[keep], sh.owner[c.a[sel]] > sh.owner[c.b[sel]],
                            back[keep])
        pre = _view(world, c, mat, sel, flip)
        try:
            fn(pre)
            _checked(pre)
        except Exception as exc:  # the step goes on without this callback's writes
            if first_error is None:
                first_error = exc
            continue
        mat[sel, ENABLED] = pre.enabled
        mat[sel, FRICTION] = pre.friction
        mat[sel, RESTITUTION] = pre.elasticity
        mat[sel, SURFACE_SPEED] = pre.surface_speed
    # A disabled contact starts again from zero impulse when it is next solved (as Box2D v3
    # and pymunk, whose disabled contacts lose their points).
    off = rows[mat[rows, ENABLED] == 0.0]
    c.nimp[off] = 0.0
    c.timp[off] = 0.0
    return first_error
