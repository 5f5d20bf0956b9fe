"""A new episode on the last episode's world: reset in place to a template world, its
ground line written into its vertices. Shared by the single environments' resets and the
vector environments' rows."""

from __future__ import annotations

import numpy as np

from .. import snapshot as _snapshot


def edge_starts(world, edges) -> np.ndarray:
    """The vertex rows where each chain edge of ``edges`` (shapes) starts in ``world``."""
    return world._shapes.vstart[[edge._rows[0] for edge in edges]]


def write_ground(world, starts, points) -> None:
    """The ground chain whose edges start at vertex rows ``starts`` through ``points``
    ((edges + 1, 2), m), written into ``world``'s vertices in place."""
    p = np.asarray(points, dtype=np.float64)
    vlocal = world._shapes.vlocal
    vlocal[starts] = p[:-1]
    vlocal[starts + 1] = p[1:]


def reset_in_place(world, template) -> bool:
    """``world`` reset in place to ``template`` (``snapshot.assign``: a world built once and
    never stepped, of the same layout), its callbacks dropped (the environment adds its
    own again) and its shapes to be placed anew (the episode's ground will differ from the
    template's); False, and the world left to be replaced, where the layouts differ."""
    for handlers in world._callbacks.values():
        handlers.clear()  # (assign takes a world without callbacks)
    if not _snapshot.assign(world, template):
        return False
    world._shapes_dirty = True
    return True
