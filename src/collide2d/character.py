"""Characters: collide-and-slide movement against tile maps and static shapes (seed 001).

``World`` gains these methods from :class:`CharacterMixin`:

- ``world.add_tilemap(grid, tile_size=1.0, origin=(0, 0))`` and ``world.remove_tilemap``;
- ``world.move_and_slide(body, velocity, dt, ...)`` for one character and
  ``world.move_and_slide_many(bodies, velocities, dt, ...)`` for thousands in one compiled call;
- ``world.set_response(shape, response)``: how movers meet a shape (bump.lua's filters);
- settings ``world.character_response`` (what characters do to each other and to dynamic
  bodies), ``world.character_skin`` and ``world.oneway_margin``.

What a mover collides with
--------------------------
Solid (non-sensor) shapes of static bodies and of kinematic bodies that are not characters
(moving platforms), and every tile map. A body becomes a *character* when it is first moved
by ``move_and_slide`` / ``move_and_slide_many`` (or by ``world.set_character(body)``).
With ``character_response = "cross"`` (default) characters and dynamic bodies do not block
movers: characters pass through each other, as in seed 001. "block" makes them solid to
movers; "push" also hands a dynamic body in the way the mover's speed along the contact
normal, so the next ``world.step`` moves it aside. The mover's own sensor shapes (a weapon
hitbox) ride along and never block.

Overlap events between characters come from ``world.step``, as for any shapes: give each
character a sensor shape (kinematic-kinematic pairs report only when one shape is a sensor),
or use dynamic characters in a world with ``dynamic_response="sensor"``. ``on_sensor_begin``
/ ``on_sensor_end`` callbacks and ``world.sensor_overlaps()`` then name which shape of which
body met which: a body box and a weapon box on one body are told apart by their shape ids.

Velocity
--------
The mover sets the body's position. It does not change ``body.velocity``: ``world.step``
moves kinematic and dynamic bodies by their velocity, which would move the character a
second time, through walls. Keep the returned velocity (``MoveResult.velocity``) for the next
call, as with Godot's ``CharacterBody2D.velocity``; leave kinematic characters' body velocity
at zero. Dynamic bodies may be moved too, but ``world.step`` also integrates them: use
kinematic bodies for characters in a world you step.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from . import _store as S
from . import _validate as V
from ._kernels import slide as _sk
from ._kernels import tiles as _tk
from .body import Body, _encode, _slots_of_ids
from .shapes import Shape
from .tilemap import RESPONSES, TileMap, _response_code

_MODES = {"cross": _sk.MODE_CROSS, "block": _sk.MODE_BLOCK, "push": _sk.MODE_PUSH}
_CONTACTS_ONE = 32
_CONTACTS_MANY = 8


class MoveContact(NamedTuple):
    """Something a mover met during one move.

    ``normal`` (unit) pushes the mover away from it (zero for a "cross" obstacle the mover
    was already inside). ``shape`` is the obstacle Shape, or None
    for a tile, then given by ``tilemap`` and ``tile`` (i, j). ``own_shape`` is the mover's
    shape that touched; ``response`` is "slide", "touch", "cross", "bounce" or "oneway".
    """

    normal: np.ndarray
    shape: Shape | None
    tilemap: TileMap | None
    tile: tuple[int, int] | None
    own_shape: Shape | None
    response: str


class MoveResult(NamedTuple):
    """Outcome of ``world.move_and_slide``: the new body origin (m), the velocity left after
    removing the components into what was hit (m/s), the contacts, and (with ``up``) whether
    the mover ended touching a floor, a wall, a ceiling."""

    position: np.ndarray
    velocity: np.ndarray
    contacts: list[MoveContact]
    on_floor: bool
    on_wall: bool
    on_ceiling: bool


class MoveResults(NamedTuple):
    """Outcome of ``world.move_and_slide_many``, one row per mover, plus the contacts as flat
    arrays (``contact_index`` is the row of the mover; ``contact_shape`` and
    ``contact_own_shape`` are shape ids, -1 for a tile; ``contact_tilemap`` indexes
    ``world.tilemaps``, -1 for a shape; ``contact_response`` indexes
    ``collide2d.tilemap.RESPONSES``). At most 8 contacts are kept per mover."""

    position: np.ndarray
    velocity: np.ndarray
    on_floor: np.ndarray
    on_wall: np.ndarray
    on_ceiling: np.ndarray
    contact_index: np.ndarray
    contact_normal: np.ndarray
    contact_shape: np.ndarray
    contact_tilemap: np.ndarray
    contact_tile: np.ndarray
    contact_own_shape: np.ndarray
    contact_response: np.ndarray


class _CharState:
    """Per body slot: character mark and the floor it stood on; per shape row: response."""

    def __init__(self):
        self.mode = "cross"
        self.skin = 1e-5
        self.margin = 0.05
        self.tilemaps: list[TileMap] = []
        self.pool = None  # (t_cls, t_f, t_i, indices of dead maps) while valid
        self.ch_gen = np.full(0, -1, np.int64)
        self.floor = np.full(0, -1, np.int64)
        self.floor_gen = np.zeros(0, np.int64)
        self.floor_pose = np.zeros((0, 3))
        self.resp = np.zeros(0, np.int8)
        self.resp_gen = np.full(0, -1, np.int64)

    def fit(self, n_bodies: int, n_shapes: int) -> None:
        if self.ch_gen.shape[0] < n_bodies:
            k = n_bodies - self.ch_gen.shape[0]
            self.ch_gen = np.concatenate([self.ch_gen, np.full(k, -1, np.int64)])
            self.floor = np.concatenate([self.floor, np.full(k, -1, np.int64)])
            self.floor_gen = np.concatenate([self.floor_gen, np.zeros(k, np.int64)])
            self.floor_pose = np.concatenate([self.floor_pose, np.zeros((k, 3))])
        if self.resp.shape[0] < n_shapes:
            k = n_shapes - self.resp.shape[0]
            self.resp = np.concatenate([self.resp, np.zeros(k, np.int8)])
            self.resp_gen = np.concatenate([self.resp_gen, np.full(k, -1, np.int64)])


class CharacterMixin:
    """Character movement and tile maps for :class:`collide2d.World` (see the module doc)."""

    # ------------------------------------------------------------------ state and settings
    def _cs(self) -> _CharState:
        st = self.__dict__.get("_char_state")
        if st is None:
            st = self.__dict__["_char_state"] = _CharState()
        return st

    @property
    def character_response(self) -> str:
        """What characters and dynamic bodies are to a mover: "cross" (pass through; the
        default), "block" (solid) or "push" (solid, and a dynamic body in the way is given the
        mover's speed along the contact normal)."""
        return self._cs().mode

    @character_response.setter
    def character_response(self, value):
        self._cs().mode = V.choice("character_response", value, _MODES)

    @property
    def character_skin(self) -> float:
        """Gap (m) a mover keeps from what it hits (default 1e-5 m)."""
        return self._cs().skin

    @character_skin.setter
    def character_skin(self, value):
        v = V.finite_scalar("character_skin", value, positive=True)
        if v > 0.01:
            raise ValueError(f"character_skin: must be at most 0.01 m, got {v}")
        self._cs().skin = v

    @property
    def oneway_margin(self) -> float:
        """How far (m) below a one-way platform's top a mover may be and still be lifted onto
        it when it is not moving up (default 0.05 m)."""
        return self._cs().margin

    @oneway_margin.setter
    def oneway_margin(self, value):
        self._cs().margin = V.finite_scalar("oneway_margin", value, nonnegative=True)

    @property
    def tilemaps(self) -> list[TileMap]:
        """The tile maps of this world, in the order they were added."""
        return list(self._cs().tilemaps)

    # ------------------------------------------------------------------ tile maps
    def add_tilemap(self, grid, tile_size: float = 1.0, origin=(0.0, 0.0),
                    **material) -> TileMap:
        """Add static tiles: ``grid[i, j]`` covers x in [ox + j s, ox + (j + 1) s], y in
        [oy + i s, oy + (i + 1) s] (row i counts up; s = ``tile_size`` in m, (ox, oy) =
        ``origin``). ``grid`` is 2D, bool or int (0 empty, other values tile ids, solid unless
        ``tilemap.set_response`` says otherwise). ``material`` (friction, elasticity,
        category, mask, group) applies to the boxes rigid bodies meet.

        Example
        -------
        >>> import numpy as np
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> grid = np.zeros((5, 20), dtype=bool)
        >>> grid[0, :] = True                              # floor: tiles y in [0, 1]
        >>> tiles = world.add_tilemap(grid)
        >>> hero = world.add_body(kind="kinematic", position=(2, 1.5))
        >>> _ = hero.add_box(0.8, 0.8)
        >>> r = world.move_and_slide(hero, (6, -6), 1 / 6, up=(0, 1))
        >>> r.on_floor, r.velocity.tolist()                # lands and keeps sliding
        (True, [6.0, 0.0])
        >>> round(float(r.position[1]), 4)                 # bottom on the floor, skin apart
        1.4
        """
        self._check_unlocked()
        tm = TileMap(self, grid, tile_size, origin, material)
        st = self._cs()
        # Maps whose body was removed (world.remove(tilemap.body)) are dead; drop them now,
        # as the new map's body may reuse a dead one's slot.
        for old in [m for m in st.tilemaps if not m.alive]:
            st.tilemaps.remove(old)
            old._alive = False
        st.tilemaps.append(tm)
        st.pool = None
        return tm

    def remove_tilemap(self, tilemap: TileMap) -> None:
        """Remove a tile map and its static body.

        ``world.remove(tilemap.body)`` instead leaves a dead tile map: it collides with
        nothing, refuses edits, and stays in ``world.tilemaps`` until it is removed here or
        the next ``add_tilemap`` drops it."""
        st = self._cs()
        if not isinstance(tilemap, TileMap) or not any(m is tilemap for m in st.tilemaps):
            raise ValueError("tilemap: not a tile map of this world")
        self._check_unlocked()
        if tilemap.body.alive:
            self.remove(tilemap.body)
        st.tilemaps.remove(tilemap)
        st.pool = None
        tilemap._alive = False

    def _tiles_changed(self) -> None:
        self._cs().pool = None

    def _tile_cell_changed(self, tilemap: TileMap, flat: int, code: int) -> None:
        st = self._cs()
        if st.pool is not None:
            k = st.tilemaps.index(tilemap)
            st.pool[0][st.pool[2][k, 2] + flat] = code

    def _tile_pool(self):
        st = self._cs()
        maps = st.tilemaps
        # A map whose body was removed (world.remove) is dead: empty for movers too. The pool
        # remembers which maps were dead when it was built, as that removal does not reset it.
        dead = tuple(k for k, m in enumerate(maps) if not m.alive)
        if st.pool is None or st.pool[3] != dead:
            t_f = np.array([[m.origin[0], m.origin[1], m.tile_size] for m in maps],
                           dtype=np.float64).reshape(-1, 3)
            sizes = [m._cls.size for m in maps]
            offs = np.concatenate([[0], np.cumsum(sizes)[:-1]]) if maps else np.zeros(0)
            t_i = np.array([[m.shape[0], m.shape[1], o] for m, o in zip(maps, offs, strict=True)],
                           dtype=np.int64).reshape(-1, 3)
            t_cls = (np.concatenate([np.zeros_like(m._cls) if k in dead else m._cls
                                     for k, m in enumerate(maps)]) if maps
                     else np.zeros(1, np.int8))
            st.pool = (t_cls, t_f, t_i, dead)
        return st.pool[:3]

    # ------------------------------------------------------------------ responses, characters
    def set_response(self, shape: Shape, response: str) -> None:
        """How movers meet ``shape`` (a shape of a static or kinematic body, or of any body
        when ``character_response`` is not "cross"): "slide" (default), "touch" (stop, lose
        all velocity), "cross" (pass through, reported in the move's contacts), "bounce"
        (reflect) or "oneway" (blocks only movers coming down onto it along its body's up,
        world +y turned by the body angle: a jump-through platform). Rigid bodies are not
        affected.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> ledge = world.add_body(kind="static").add_box(4, 0.2, offset=(0, 2))
        >>> world.set_response(ledge, "oneway")
        >>> world.response(ledge)
        'oneway'
        """
        if not isinstance(shape, Shape) or shape._world is not self:
            raise TypeError("shape: expected a Shape of this world")
        shape._check()
        code = _response_code("response", response)
        st = self._cs()
        if self._bodies.kind[shape.body._s()] == S.DYNAMIC and st.mode == "cross":
            raise ValueError("shape: its body is dynamic, and dynamic bodies never block movers "
                             "while character_response is 'cross', so the response would "
                             "never be used; set world.character_response to 'block' or "
                             "'push' first")
        s = self._shapes
        st.fit(self._bodies.capacity, s.capacity)
        st.resp[shape._rows] = code
        st.resp_gen[shape._rows] = s.generation[shape._rows]

    def response(self, shape: Shape) -> str:
        """The mover response of ``shape`` (see :meth:`set_response`)."""
        if not isinstance(shape, Shape) or shape._world is not self:
            raise TypeError("shape: expected a Shape of this world")
        r = shape._check()
        st = self._cs()
        if r < st.resp.shape[0] and st.resp_gen[r] == self._shapes.generation[r]:
            return RESPONSES[int(st.resp[r])]
        return "slide"

    def set_character(self, body: Body, on: bool = True) -> None:
        """Mark a body as a character (or not). Movers mark themselves; mark characters up
        front when some move before others and should not block each other on the first
        frame."""
        slot = self._slot_of(body)
        st = self._cs()
        st.fit(self._bodies.capacity, self._shapes.capacity)
        st.ch_gen[slot] = self._bodies.generation[slot] if on else -1

    def is_character(self, body: Body) -> bool:
        slot = self._slot_of(body)
        st = self._cs()
        return bool(slot < st.ch_gen.shape[0]
                    and st.ch_gen[slot] == self._bodies.generation[slot])

    def _slot_of(self, body) -> int:
        if not isinstance(body, Body) or body._world is not self:
            raise TypeError("body: expected a Body of this world")
        return body._s()

    # ------------------------------------------------------------------ moving
    def move_and_slide(self, body: Body, velocity, dt: float, max_slides: int = 4, up=None,
                       max_floor_angle: float = math.pi / 4) -> MoveResult:
        """Move a character by ``velocity * dt``, sliding along what it hits.

        Sweeps the body's solid shapes (swept SAT; tiles grid-direct, seam-free) against tile
        maps and obstacle shapes, moves to the first hit less ``world.character_skin``,
        removes the velocity's component into the surface, and repeats with the time left,
        at most ``max_slides`` times. Responses follow :meth:`set_response` and
        ``TileMap.set_response``. Overlaps found at the start (a tile set under the mover, a
        platform that moved into it) are pushed out first; a character that ended its last
        move on the floor of a kinematic body is first carried by that body's motion.

        Parameters
        ----------
        body : a kinematic (or dynamic) Body.
        velocity : (vx, vy) wanted velocity (m/s), gravity included.
        dt : time step (s, > 0).
        max_slides : sweeps per move (>= 1).
        up : None (top-down: every contact is a wall) or the up direction (platformers):
            contacts whose normal is within ``max_floor_angle`` (rad) of ``up`` are floors,
            within it of ``-up`` ceilings, others walls. With ``up``, a mover whose wanted
            motion is straight down (gravity alone) stops on a walkable slope instead of
            creeping down it.

        Returns
        -------
        MoveResult(position, velocity, contacts, on_floor, on_wall, on_ceiling). The body's
        position is updated; ``body.velocity`` is not (see the module doc): keep the
        returned velocity for the next call.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> wall = world.add_body(kind="static").add_box(1, 10, offset=(3, 0))
        >>> hero = world.add_body(kind="kinematic")
        >>> _ = hero.add_box(1, 1)
        >>> r = world.move_and_slide(hero, (10, 10), 0.5)   # wall face at x = 2.5
        >>> [round(float(x), 4) for x in r.position], r.velocity.tolist()
        ([2.0, 5.0], [0.0, 10.0])
        >>> r.contacts[0].normal.tolist(), r.contacts[0].shape is wall
        ([-1.0, 0.0], True)
        """
        slot = self._slot_of(body)
        vel = V.vector("velocity", velocity).reshape(1, 2)
        out = self._move(np.array([slot], np.int64), vel, dt, max_slides, up, max_floor_angle,
                         _CONTACTS_ONE)
        pos, v, flags, cnt, cn, ck, co, ct, cown, cr = out
        owner = self._shapes.owner
        st = self._cs()
        contacts = []
        for e in range(int(cnt[0])):
            is_tile = ck[0, e] == _sk.KIND_TILE
            own = self._shape_handles.get(int(owner[cown[0, e]])) if cown[0, e] >= 0 else None
            contacts.append(MoveContact(
                normal=cn[0, e].copy(),
                shape=None if is_tile else self._shape_handles.get(int(owner[co[0, e]])),
                tilemap=st.tilemaps[int(co[0, e])] if is_tile else None,
                tile=(int(ct[0, e, 0]), int(ct[0, e, 1])) if is_tile else None,
                own_shape=own,
                response=RESPONSES[int(cr[0, e])]))
        f = int(flags[0])
        return MoveResult(pos[0].copy(), v[0].copy(), contacts, bool(f & _sk.FLAG_FLOOR),
                          bool(f & _sk.FLAG_WALL), bool(f & _sk.FLAG_CEILING))

    def move_and_slide_many(self, bodies, velocities, dt: float, max_slides: int = 4, up=None,
                            max_floor_angle: float = math.pi / 4) -> MoveResults:
        """:meth:`move_and_slide` for many characters in one compiled call.

        ``bodies``: a sequence of Body handles or an int array of body ids (see
        :attr:`Body.id`; the fast form: no Python work per body), no repeats; a removed
        body's id raises ``ValueError``. ``velocities``: (n, 2) m/s. Bodies
        move one after another in the order given (this matters only when
        ``character_response`` makes characters solid to each other). Returns
        :class:`MoveResults`, arrays in the order of ``bodies``.

        Example
        -------
        >>> import numpy as np
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> grid = np.ones((8, 8), dtype=bool)
        >>> grid[1:-1, 1:-1] = False                          # a walled room, inside 1..7 m
        >>> _ = world.add_tilemap(grid)
        >>> ids = []
        >>> for x in (2.5, 4.5):
        ...     b = world.add_body(kind="kinematic", position=(x, 4))
        ...     _ = b.add_box(0.8, 0.8)
        ...     ids.append(b.id)
        >>> r = world.move_and_slide_many(np.array(ids), [(-60, 0), (60, 0)], 1 / 10)
        >>> np.round(r.position, 4).tolist()                  # both stopped at the walls
        [[1.4, 4.0], [6.6, 4.0]]
        """
        slots = self._mover_slots(bodies)
        vel = V.points("velocities", velocities)
        if vel.shape[0] != slots.shape[0]:
            raise ValueError(f"velocities: expected {slots.shape[0]} rows (one per body), got "
                             f"{vel.shape[0]}")
        if np.unique(slots).shape[0] != slots.shape[0]:
            raise ValueError("bodies: a body appears more than once")
        pos, v, flags, cnt, cn, ck, co, ct, cown, cr = self._move(
            slots, vel, dt, max_slides, up, max_floor_angle, _CONTACTS_MANY)
        keep = np.arange(cn.shape[1])[None, :] < cnt[:, None]
        owner = self._shapes.owner
        is_tile = ck[keep] == _sk.KIND_TILE
        obs = co[keep]
        return MoveResults(
            position=pos, velocity=v,
            on_floor=(flags & _sk.FLAG_FLOOR) != 0,
            on_wall=(flags & _sk.FLAG_WALL) != 0,
            on_ceiling=(flags & _sk.FLAG_CEILING) != 0,
            contact_index=np.repeat(np.arange(slots.shape[0]), cnt),
            contact_normal=cn[keep],
            contact_shape=np.where(is_tile, -1, owner[np.where(is_tile, 0, obs)]),
            contact_tilemap=np.where(is_tile, obs, -1),
            contact_tile=ct[keep],
            contact_own_shape=owner[cown[keep]],
            contact_response=cr[keep])

    def _mover_slots(self, bodies) -> np.ndarray:
        """Slots of ``bodies``: an array (or sequence) of body ids, or a sequence of Body
        handles of this world."""
        if isinstance(bodies, np.ndarray):
            return _slots_of_ids(self._bodies, "bodies", bodies)
        try:
            items = list(bodies)
        except TypeError:
            raise TypeError("bodies: expected a sequence of Body or an int array of "
                            "body ids") from None
        handles = [isinstance(it, Body) for it in items]
        if items and not any(handles):
            if not all(isinstance(it, (int, np.integer)) and not isinstance(it, bool)
                       for it in items):
                raise TypeError("bodies: expected Body handles of this world or body ids")
            return _slots_of_ids(self._bodies, "bodies", np.array(items, dtype=np.int64))
        for it in items:
            if not isinstance(it, Body) or it._world is not self:
                raise TypeError("bodies: expected Body handles of this world (or an int "
                                "array of body ids)")
        return np.fromiter((it._s() for it in items), np.int64, len(items))

    def _move(self, slots, vel, dt, max_slides, up, max_floor_angle, n_contacts):
        dt = V.finite_scalar("dt", dt, positive=True)
        if (isinstance(max_slides, bool) or not isinstance(max_slides, (int, np.integer))
                or not 1 <= max_slides <= 64):
            raise ValueError(f"max_slides: must be an int in 1..64, got {max_slides!r}")
        angle = V.finite_scalar("max_floor_angle", max_floor_angle, nonnegative=True)
        if angle > math.pi:
            raise ValueError(f"max_floor_angle: must be in [0, pi] rad, got {angle}")
        if up is None:
            ux = uy = 0.0
        else:
            u = V.vector("up", up)
            norm = math.hypot(u[0], u[1])
            if norm == 0.0:
                raise ValueError("up: must be a non-zero direction (or None for top-down)")
            ux, uy = u / norm
        self._check_unlocked()
        b, s = self._bodies, self._shapes
        if (b.kind[slots] == S.STATIC).any():
            k = int(np.flatnonzero(b.kind[slots] == S.STATIC)[0])
            bid = _encode(int(slots[k]), int(b.generation[slots[k]]))
            raise ValueError(f"bodies: body {bid} (its id) is static; only kinematic and "
                             "dynamic bodies move")
        st = self._cs()
        st.fit(b.capacity, s.capacity)
        st.ch_gen[slots] = b.generation[slots]

        n = s.count
        flags = s.flags[:n]
        body = s.body[:n]
        alive = (flags & S.S_ALIVE) != 0
        bslot = np.where(alive, body, 0)
        kind = b.kind[bslot]
        solid = alive & ((flags & S.S_SENSOR) == 0)
        tile_bodies = np.array([tm.body._slot for tm in st.tilemaps], np.int64)
        solid &= ~np.isin(bslot, tile_bodies)
        if st.mode == "cross":
            char = st.ch_gen[bslot] == b.generation[bslot]
            solid &= (kind == S.STATIC) | ((kind == S.KINEMATIC) & ~char)
        obs_rows = np.flatnonzero(solid).astype(np.int64)
        row_resp = np.where(st.resp_gen[:n] == s.generation[:n], st.resp[:n],
                            np.int8(_tk.SLIDE)).astype(np.int8)
        t_cls, t_f, t_i = self._tile_pool()

        m = slots.shape[0]
        out_vel = np.zeros((m, 2))
        out_flags = np.zeros(m, np.int64)
        c_count = np.zeros(m, np.int64)
        c_normal = np.zeros((m, n_contacts, 2))
        c_kind = np.zeros((m, n_contacts), np.int64)
        c_obs = np.zeros((m, n_contacts), np.int64)
        c_tile = np.zeros((m, n_contacts, 2), np.int64)
        c_own = np.zeros((m, n_contacts), np.int64)
        c_resp = np.zeros((m, n_contacts), np.int8)
        fparams = np.array([dt, st.skin, ux, uy, math.cos(angle), st.margin])
        iparams = np.array([max_slides, int(up is not None), _MODES[st.mode]], np.int64)
        _sk.move_bodies(slots, vel, fparams, iparams, b.count, n, b.pos, b.angle, b.kind,
                        b.flags, b.generation, b.vel, s.body, s.flags, s.vstart, s.vcount,
                        s.radius, s.category, s.mask, s.group, s.vlocal, row_resp, obs_rows,
                        t_cls, t_f, t_i, st.floor, st.floor_gen, st.floor_pose, out_vel,
                        out_flags, c_count, c_normal, c_kind, c_obs, c_tile, c_own, c_resp)
        dyn = slots[b.kind[slots] == S.DYNAMIC]
        b.flags[dyn] |= S.B_AWAKE
        b.sleep_time[dyn] = 0.0
        self._poses_changed()
        return (b.pos[slots], out_vel, out_flags, c_count, c_normal, c_kind, c_obs, c_tile,
                c_own, c_resp)


__all__ = ["CharacterMixin", "MoveContact", "MoveResult", "MoveResults", "RESPONSES"]
