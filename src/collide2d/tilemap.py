"""Tile maps: static collision geometry on a grid of square tiles.

A :class:`TileMap` is made by ``world.add_tilemap(grid, tile_size, origin)``. Tile ``grid[i, j]``
covers x in [ox + j s, ox + (j + 1) s] and y in [oy + i s, oy + (i + 1) s]: row i counts
**up**, column j to the right (units: metres). A value of 0 (or False) is empty; any other
value is a tile id, solid unless its response says otherwise (:meth:`TileMap.set_response`).
Cells outside the grid are empty.

Two views of the same tiles, kept in step by :meth:`TileMap.set_tile`:

- **Characters** (``world.move_and_slide``) index the grid directly, with no tree: a swept box
  visits only the cells under its path. Faces shared by two solid tiles are ignored, so rows
  and columns of tiles act as one flat surface (no "ghost" collisions on the seams).
- **Rigid bodies** (``world.step``) collide with static boxes on ``tilemap.body``, a static
  body of the world: the solid tiles of each 16 x 16 chunk are covered by a few rectangles
  (row runs merged downwards with identical runs), held by one Shape per chunk. Editing a
  tile rebuilds only its chunk. One-way and cross tiles are not given to rigid bodies.
"""

from __future__ import annotations

import numpy as np

from . import _validate as V
from ._kernels import tiles as _tk
from .body import _material as _check_material

#: Response names, in the order of their codes (shared with the character mover).
RESPONSES = ("empty", "slide", "touch", "cross", "bounce", "oneway")
_RESPONSE_CODES = {name: code for code, name in enumerate(RESPONSES) if code}

CHUNK = 16
_SOLID = (_tk.SLIDE, _tk.TOUCH, _tk.BOUNCE)


def _response_code(name: str, response) -> int:
    if not isinstance(response, str) or response not in _RESPONSE_CODES:
        raise ValueError(f"{name}: expected one of {sorted(_RESPONSE_CODES)}, got {response!r}")
    return _RESPONSE_CODES[response]


def _tile_value(name: str, value) -> int:
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}: expected an int tile id (0 = empty) or a bool, "
                        f"got {type(value).__name__}")
    v = int(value)
    if not 0 <= v < 2**31:
        raise ValueError(f"{name}: tile ids must be in [0, 2**31), got {v}")
    return v


def _grid(value) -> np.ndarray:
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        raise TypeError("grid: expected a 2D array of bools or ints") from None
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"grid: expected a non-empty 2D array (rows, columns), got shape "
                         f"{arr.shape}")
    if arr.dtype == np.bool_:
        return arr.astype(np.int64)
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"grid: expected bools or ints (0 = empty, other = tile id), got dtype "
                        f"{arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() >= 2**31):
        raise ValueError("grid: tile ids must be in [0, 2**31) (0 = empty)")
    return arr.astype(np.int64)


class TileMap:
    """Static tiles on a grid. Create with ``world.add_tilemap``; remove with
    ``world.remove_tilemap``.

    Attributes
    ----------
    tile_size : float
        Side of a tile (m).
    origin : (2,) ndarray
        World position (m) of the lower-left corner of tile (0, 0).
    body : Body
        The static body holding the merged boxes that rigid bodies collide with.

    Example
    -------
    >>> import numpy as np
    >>> import collide2d as c2d
    >>> world = c2d.World()
    >>> grid = np.zeros((4, 6), dtype=bool)
    >>> grid[0, :] = True                      # a floor: row 0 is the bottom row
    >>> tiles = world.add_tilemap(grid, tile_size=0.5, origin=(-1, 0))
    >>> tiles.tile_bounds(0, 2)                # (x0, y0, x1, y1) in metres
    (0.0, 0.0, 0.5, 0.5)
    >>> tiles.cell_at((0.2, 0.7))              # (i, j): row, column
    (1, 2)
    >>> tiles.set_tile(1, 2, 1)                # collision changes at once
    >>> int(tiles[1, 2]), tiles.shape
    (1, (4, 6))
    """

    def __init__(self, world, grid, tile_size, origin, material):
        self._world = world
        self._grid = _grid(grid)
        self.tile_size = V.finite_scalar("tile_size", tile_size, positive=True)
        self.origin = V.vector("origin", origin)
        self._material = dict(material)
        _check_material(self._material)  # before the body exists: a failure changes nothing
        self._responses: dict[int, int] = {}
        self._cls = self._classes_of(self._grid).ravel()
        self._alive = True
        self.body = world.add_body(kind="static")
        self._chunks: dict[tuple[int, int], object] = {}
        try:
            ny, nx = self._grid.shape
            for ci in range(-(-ny // CHUNK)):
                for cj in range(-(-nx // CHUNK)):
                    self._build_chunk(ci, cj)
        except Exception:
            world.remove(self.body)
            raise

    # ------------------------------------------------------------------ reading
    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns)."""
        return self._grid.shape

    @property
    def grid(self) -> np.ndarray:
        """The tile ids (rows, columns), read-only; edit with :meth:`set_tile`."""
        view = self._grid.view()
        view.flags.writeable = False
        return view

    @property
    def alive(self) -> bool:
        return self._alive

    def __getitem__(self, ij) -> int:
        i, j = self._index(ij)
        return int(self._grid[i, j])

    def _index(self, ij) -> tuple[int, int]:
        if not isinstance(ij, tuple) or len(ij) != 2:
            raise TypeError("index: expected (i, j), row then column")
        i, j = ij
        ny, nx = self._grid.shape
        for name, v, n in (("i", i, ny), ("j", j, nx)):
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"{name}: expected an int, got {type(v).__name__}")
            if not 0 <= int(v) < n:
                raise ValueError(f"{name}: {int(v)} is outside the map (0 .. {n - 1})")
        return int(i), int(j)

    def tile_bounds(self, i: int, j: int) -> tuple[float, float, float, float]:
        """The square covered by tile (i, j): (x0, y0, x1, y1) in metres."""
        i, j = self._index((i, j))
        s = self.tile_size
        x0 = float(self.origin[0] + j * s)
        y0 = float(self.origin[1] + i * s)
        return x0, y0, x0 + s, y0 + s

    def cell_at(self, point) -> tuple[int, int] | None:
        """(i, j) of the tile containing a world point (m), or None outside the map."""
        p = V.vector("point", point)
        f = (p - self.origin) / self.tile_size
        j, i = int(np.floor(f[0])), int(np.floor(f[1]))
        ny, nx = self._grid.shape
        if 0 <= i < ny and 0 <= j < nx:
            return i, j
        return None

    def response(self, value: int) -> str:
        """How characters meet tiles with this id ("slide" unless set; 0 is "empty")."""
        v = _tile_value("value", value)
        if v == 0:
            return "empty"
        return RESPONSES[self._responses.get(v, _tk.SLIDE)]

    # ------------------------------------------------------------------ editing
    def set_tile(self, i: int, j: int, value) -> None:
        """Set tile (i, j) to ``value`` (0 / False empties it). Characters see the change at
        their next move; rigid bodies at the next step (the tile's chunk is rebuilt)."""
        self._check()
        i, j = self._index((i, j))
        v = _tile_value("value", value)
        self._world._check_unlocked()
        old = int(self._grid[i, j])
        if old == v:
            return
        nx = self._grid.shape[1]
        self._grid[i, j] = v
        c = 0 if v == 0 else self._responses.get(v, _tk.SLIDE)
        was_solid = int(self._cls[i * nx + j]) in _SOLID
        self._cls[i * nx + j] = c
        self._world._tile_cell_changed(self, i * nx + j, c)
        if was_solid != (c in _SOLID):
            self._build_chunk(i // CHUNK, j // CHUNK)

    def set_response(self, value: int, response: str) -> None:
        """How characters meet every tile with id ``value`` (> 0):

        - "slide" (default): stop at the tile and slide along it;
        - "touch": stop there and lose all velocity;
        - "cross": pass through, reported in the move's contacts (water, ladders, pickups);
        - "bounce": reflect off it;
        - "oneway": only its top blocks, and only a mover coming down onto it (a jump-through
          platform); a mover whose bottom is within ``world.oneway_margin`` below the top while
          not moving up is lifted onto it.

        Rigid bodies collide with "slide", "touch" and "bounce" tiles only.
        """
        self._check()
        v = _tile_value("value", value)
        if v == 0:
            raise ValueError("value: tile id 0 is empty space and has no response")
        code = _response_code("response", response)
        self._responses[v] = code
        cls = self._classes_of(self._grid).ravel()
        old_solid = np.isin(self._cls, _SOLID)
        new_solid = np.isin(cls, _SOLID)
        self._cls = cls
        self._world._tiles_changed()
        changed = np.flatnonzero(old_solid != new_solid)
        nx = self._grid.shape[1]
        for ci, cj in {(int(k // nx) // CHUNK, int(k % nx) // CHUNK) for k in changed}:
            self._build_chunk(ci, cj)

    # ------------------------------------------------------------------ internals
    def _check(self) -> None:
        if not self._alive:
            raise ValueError("tilemap: this tile map was removed from its world")

    def _classes_of(self, grid: np.ndarray) -> np.ndarray:
        cls = np.where(grid != 0, _tk.SLIDE, _tk.EMPTY).astype(np.int8)
        for v, code in self._responses.items():
            cls[grid == v] = code
        return cls

    def _build_chunk(self, ci: int, cj: int) -> None:
        """Replace the rigid-body boxes of one chunk by a fresh greedy cover."""
        old = self._chunks.pop((ci, cj), None)
        if old is not None and old.alive:
            self._world.remove(old)
        ny, nx = self._grid.shape
        i0, j0 = ci * CHUNK, cj * CHUNK
        i1, j1 = min(i0 + CHUNK, ny), min(j0 + CHUNK, nx)
        solid = np.isin(self._cls.reshape(ny, nx), _SOLID)
        # Runs in a row are separated by empty cells: at most ceil(width / 2) per row.
        out = np.empty(((i1 - i0) * ((j1 - j0 + 1) // 2) + 1, 4), dtype=np.int64)
        k = _tk.merge_rects(solid, i0, i1, j0, j1, out)
        if k == 0:
            return
        r = out[:k].astype(np.float64)
        s, (ox, oy) = self.tile_size, self.origin
        x0, y0 = ox + r[:, 1] * s, oy + r[:, 0] * s
        x1, y1 = ox + r[:, 3] * s, oy + r[:, 2] * s
        quads = np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1),
                          np.stack([x1, y1], 1), np.stack([x0, y1], 1)], axis=1)
        self._chunks[(ci, cj)] = self.body._add(list(quads), 0.0, "polygon", self._material)

    def __repr__(self) -> str:
        ny, nx = self._grid.shape
        return f"<TileMap {ny}x{nx} tile_size={self.tile_size:g}>"
