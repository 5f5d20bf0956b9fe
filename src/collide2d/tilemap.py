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

Every call checks all its arguments before changing anything. ``tile_size`` and ``origin``
(settable: the tiles move) must keep every tile corner within ``MAX_REACH`` m and
``MAX_TILES_FROM_ZERO`` tile sides of (0, 0), with ``tile_size >= MIN_TILE_SIZE``, so that the
corners stay distinct, finite float64 numbers (what the kernels and snapshots rely on).
``world.remove(tilemap.body)`` leaves a dead map (``alive`` False): it collides with nothing
and refuses edits until ``world.remove_tilemap`` or the next ``add_tilemap`` drops it.
"""

from __future__ import annotations

import numpy as np

from . import _tiers
from . import _validate as V
from .body import _material as _check_material

_tk = _tiers.kernels("tiles")

#: Response names, in the order of their codes (shared with the character mover).
RESPONSES = ("empty", "slide", "touch", "cross", "bounce", "oneway")
_RESPONSE_CODES = {name: code for code, name in enumerate(RESPONSES) if code}

CHUNK = _tk.CHUNK
_SOLID = (_tk.SLIDE, _tk.TOUCH, _tk.BOUNCE)

# Where a map may lie. Tile corners are float64 coordinates that the kernels multiply and
# snapshots check as polygons (distinct corners, positive area), so:
#: Smallest tile side (m): a tile's area (s * s) stays far above float64 underflow.
MIN_TILE_SIZE = 1e-100
#: Every tile corner within this distance (m) of (0, 0): products of two coordinates stay far
#: below float64 overflow.
MAX_REACH = 1e100
#: ... and within this many tile sides of (0, 0): float64 then resolves at least 2**12 steps
#: per tile, so neighbouring corners never round together.
MAX_TILES_FROM_ZERO = 2**40


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
    if arr.dtype == object:
        # NumPy keeps Python ints beyond 64 bits as objects: still ints, so out of range.
        flat = arr.ravel().tolist()
        if not all(isinstance(v, (int, np.integer)) for v in flat):
            raise TypeError("grid: expected bools or ints (0 = empty, other = tile id)")
        if not all(0 <= int(v) < 2**31 for v in flat):
            raise ValueError("grid: tile ids must be in [0, 2**31) (0 = empty)")
        return np.array([int(v) for v in flat], dtype=np.int64).reshape(arr.shape)
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"grid: expected bools or ints (0 = empty, other = tile id), got dtype "
                        f"{arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() >= 2**31):
        raise ValueError("grid: tile ids must be in [0, 2**31) (0 = empty)")
    return arr.astype(np.int64)


def _tile_size(name: str, value, shape) -> float:
    """A tile side (m) for a map of ``shape`` tiles, within the bounds above."""
    s = V.real_number(name, value)
    if not s >= MIN_TILE_SIZE:
        raise ValueError(f"{name}: must be at least {MIN_TILE_SIZE:g} m, got {s!r}")
    span = max(shape) * s
    if not span <= MAX_REACH:
        raise ValueError(f"{name}: {s:g} makes the {shape[0]} x {shape[1]} map "
                         f"{span:g} m across; tile corners must stay within {MAX_REACH:g} m "
                         "of (0, 0)")
    return s


def _check_place(name: str, shape, s: float, origin: np.ndarray) -> None:
    """Refuse a tile size and origin that put tile corners beyond the bounds above."""
    ny, nx = shape
    ox, oy = float(origin[0]), float(origin[1])
    reach = max(abs(ox), abs(oy), abs(ox + nx * s), abs(oy + ny * s))
    where = f"(tile_size {s:g}, origin ({ox:g}, {oy:g}))"
    if not reach <= MAX_REACH:
        raise ValueError(f"{name}: tile corners would lie {reach:g} m from (0, 0) {where}; "
                         f"they must stay within {MAX_REACH:g} m")
    if not reach <= MAX_TILES_FROM_ZERO * s:
        raise ValueError(f"{name}: tile corners would lie {reach / s:.3g} tile sides from "
                         f"(0, 0) {where}; beyond 2**40 tile sides float64 can no longer keep "
                         "neighbouring corners apart (move the origin closer, or use larger "
                         "tiles)")


def _material_arg(material: dict) -> dict:
    """The material keywords given, validated, as plain Python values (so that snapshots
    write them in the types restore reads back)."""
    for key in ("density", "friction", "elasticity"):
        if key in material:
            V.real_number(key, material[key])
    if "group" in material:
        V.int64("group", material["group"])
    canon = _check_material(material)
    return {key: canon[key] for key in material}


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
        # Everything is checked before the body exists: a refused call changes nothing.
        g = _grid(grid)
        s = _tile_size("tile_size", tile_size, g.shape)
        o = V.real_vector("origin", origin)
        _check_place("origin", g.shape, s, o)
        mat = _material_arg(material)
        self._world = world
        self._grid = g
        self._tile_size = s
        self._origin = o
        self._material = mat
        self._responses: dict[int, int] = {}
        self._cls = self._classes_of(self._grid).ravel()
        self._alive = True
        self.body = world.add_body(kind="static")
        self._chunks: dict[tuple[int, int], object] = {}
        try:
            ny, nx = self._grid.shape
            self._build_chunks(0, -(-ny // CHUNK), 0, -(-nx // CHUNK))
        except BaseException:
            world.remove(self.body)
            raise

    def _restoring(self) -> bool:
        # A snapshot being restored assigns tile_size and origin before the rest exists
        # (the snapshot validator has checked them): store only.
        return "_chunks" not in self.__dict__

    @property
    def tile_size(self) -> float:
        """Side of a tile (m). Setting it moves and resizes every tile (the rigid-body boxes
        are rebuilt); it must be at least ``MIN_TILE_SIZE`` and keep every tile corner within
        ``MAX_REACH`` m and ``MAX_TILES_FROM_ZERO`` tile sides of (0, 0)."""
        return self._tile_size

    @tile_size.setter
    def tile_size(self, value):
        if self._restoring():
            self._tile_size = V.real_number("tile_size", value)
            return
        self._check()
        s = _tile_size("tile_size", value, self._grid.shape)
        _check_place("tile_size", self._grid.shape, s, self._origin)
        self._world._check_unlocked()
        old = self._tile_size
        self._tile_size = s
        if s != old:
            self._rebuild_all()

    @property
    def origin(self) -> np.ndarray:
        """World position (m) of the lower-left corner of tile (0, 0), a (2,) copy. Setting it
        moves every tile (the rigid-body boxes are rebuilt), within the bounds of
        ``tile_size``."""
        return self._origin.copy()

    @origin.setter
    def origin(self, value):
        if self._restoring():
            self._origin = V.real_vector("origin", value)
            return
        self._check()
        o = V.real_vector("origin", value)
        _check_place("origin", self._grid.shape, self._tile_size, o)
        self._world._check_unlocked()
        old = self._origin
        self._origin = o
        if not np.array_equal(o, old):
            self._rebuild_all()

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
        """False once removed with ``world.remove_tilemap``, or once its body was removed
        with ``world.remove(tilemap.body)``: a dead tile map collides with nothing and
        refuses edits."""
        return self._alive and self.body.alive

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
        s = self._tile_size
        x0 = float(self._origin[0] + j * s)
        y0 = float(self._origin[1] + i * s)
        return x0, y0, x0 + s, y0 + s

    def cell_at(self, point) -> tuple[int, int] | None:
        """(i, j) of the tile containing a world point (m), or None outside the map."""
        p = V.real_vector("point", point)
        with np.errstate(over="ignore"):
            f = (p - self._origin) / self._tile_size
        if not np.all(np.isfinite(f)):
            return None  # so far away that it is beyond every tile
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
        self._world._characters.tile_cell_changed(self, i * nx + j, c)
        if was_solid != (c in _SOLID):
            self._rebuild_chunk(i // CHUNK, j // CHUNK)

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
        self._world._check_unlocked()
        self._responses[v] = code
        cls = self._classes_of(self._grid).ravel()
        old_solid = np.isin(self._cls, _SOLID)
        new_solid = np.isin(cls, _SOLID)
        self._cls = cls
        self._world._characters.tiles_changed()
        changed = np.flatnonzero(old_solid != new_solid)
        nx = self._grid.shape[1]
        n_cj = -(-nx // CHUNK)
        for k in np.unique((changed // nx // CHUNK) * n_cj + (changed % nx) // CHUNK).tolist():
            self._rebuild_chunk(k // n_cj, k % n_cj)

    # ------------------------------------------------------------------ internals
    def _check(self) -> None:
        if not self._alive:
            raise ValueError("tilemap: this tile map was removed from its world")
        if not self.body.alive:
            raise ValueError("tilemap: its body was removed from the world, so the tile map is "
                             "dead (it collides with nothing and cannot be edited); "
                             "world.remove_tilemap drops it")

    def _classes_of(self, grid: np.ndarray) -> np.ndarray:
        cls = np.where(grid != 0, _tk.SLIDE, _tk.EMPTY).astype(np.int8)
        for v, code in self._responses.items():
            cls[grid == v] = code
        return cls

    def _build_chunks(self, ci0: int, ci1: int, cj0: int, cj1: int) -> None:
        """Rigid-body boxes of chunks [ci0, ci1) x [cj0, cj1), which have none: a greedy
        cover per chunk (compiled, one pass over their cells), one Shape per chunk with any
        solid cell, added in row-major chunk order."""
        ny, nx = self._grid.shape
        widths = (np.minimum(np.arange(cj0 + 1, cj1 + 1) * CHUNK, nx)
                  - np.arange(cj0, cj1) * CHUNK)
        height = min(ci1 * CHUNK, ny) - ci0 * CHUNK
        # At most one box per row run, and a row of width w has at most (w + 1) // 2 runs.
        cap = height * int(np.sum((widths + 1) // 2))
        out = np.empty((max(cap, 1), 4), dtype=np.int64)
        counts = np.zeros((ci1 - ci0) * (cj1 - cj0), dtype=np.int64)
        scratch = np.empty((6, CHUNK + 1), dtype=np.int64)
        total = _tk.cover_chunks(self._cls, ny, nx, ci0, ci1, cj0, cj1, out, counts, scratch)
        if total < 0:
            raise RuntimeError("tilemap: box buffer too small (internal error)")
        r = out[:total].astype(np.float64)
        s, (ox, oy) = self._tile_size, self._origin
        x0, y0 = ox + r[:, 1] * s, oy + r[:, 0] * s
        x1, y1 = ox + r[:, 3] * s, oy + r[:, 2] * s
        quads = np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1),
                          np.stack([x1, y1], 1), np.stack([x0, y1], 1)], axis=1)
        n_cj = cj1 - cj0
        pos = 0
        for k, n in enumerate(counts.tolist()):
            if n:
                key = (ci0 + k // n_cj, cj0 + k % n_cj)
                self._chunks[key] = self.body._add(list(quads[pos:pos + n]), 0.0, "polygon",
                                                   self._material)
                pos += n

    def _drop_chunk(self, key) -> None:
        old = self._chunks.pop(key, None)
        if old is not None and old.alive:
            self._world.remove(old)

    def _rebuild_chunk(self, ci: int, cj: int) -> None:
        """Replace the rigid-body boxes of one chunk by a fresh cover."""
        self._drop_chunk((ci, cj))
        self._build_chunks(ci, ci + 1, cj, cj + 1)

    def _rebuild_all(self) -> None:
        """New boxes for every chunk (the tiles moved or changed size)."""
        for key in sorted(self._chunks):
            self._drop_chunk(key)
        ny, nx = self._grid.shape
        self._build_chunks(0, -(-ny // CHUNK), 0, -(-nx // CHUNK))
        self._world._characters.tiles_changed()

    def __repr__(self) -> str:
        ny, nx = self._grid.shape
        return f"<TileMap {ny}x{nx} tile_size={self._tile_size:g}>"
