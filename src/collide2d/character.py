"""Characters: collide-and-slide movement against tile maps and static shapes.

``World`` holds a :class:`Characters` component (``world._characters``) and delegates these
to it:

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
movers: characters pass through each other, so none can block a corridor for the others and
the code steering them stays simple; who met whom comes as overlap events. "block" makes
them solid to movers; "push" also hands a dynamic body in the way the mover's speed along
the contact normal, so the next ``world.step`` moves it aside. The mover's own sensor shapes
(a weapon hitbox) ride along and never block.

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

``MoveResult.floor_velocity`` is the velocity of the floor under the mover (a moving
platform's, zero on static ground and tiles, plus the surface's own motion on a conveyor,
``Shape.surface_speed``): add it to the velocity when the character jumps or walks off, so
it keeps the platform's motion. A conveyor carries a mover standing on it: each move starts
by sweeping it along the belt by the surface's velocity times dt (as a kinematic platform's
motion carries it), stopping at walls.

Call order: step, then move
---------------------------
Call ``move_and_slide`` after ``world.step``, once per frame. A character that ended its last
move on a kinematic body is first carried by that body's motion since then, so after the step
it sees the platform where the step put it and ends touching it, a skin above. Moved before
the step instead, it settles on the platform and the step then moves the platform on: a rider
on a lift at 1.5 m/s ends 2.5 cm inside it going up, 2.5 cm above it going down (at 60 Hz).

Floors: snapping and dropping through
-------------------------------------
``snap_to_floor=d`` (with ``up``) keeps a walking character on the floor: one that starts the
move on a floor and is not moving away from it (velocity . up <= 0) and ends it in the air
(down a slope, past a crest) is moved straight down (along -up) onto a floor within ``d``,
and its velocity keeps no component along up while it is on the floor (gravity does not pile
up). A jump (velocity . up > 0) is never snapped. ``drop_through=True`` lets the call's movers
pass through one-way tiles and shapes ("oneway"), so one character can drop through a
platform others stand on.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from . import _store as S
from . import _tiers
from . import _validate as V
from ._kernels import views as _views
from .body import Body, _encode, _slots_of_ids
from .shapes import Shape
from .tilemap import RESPONSES, TileMap, _response_code

_sk = _tiers.kernels("slide")

_MODES = {"cross": _sk.MODE_CROSS, "block": _sk.MODE_BLOCK, "push": _sk.MODE_PUSH}
_MODE_NAMES = {v: k for k, v in _MODES.items()}
DEFAULT_MODE = "cross"
DEFAULT_SKIN = 1e-5
DEFAULT_MARGIN = 0.05
_CONTACTS_ONE = 32
_CONTACTS_MANY = 8


#: The mover kernel: ``status = _move_bodies(movers, velocities, bodies, shapes, chars,
#: tiles, params, out, contacts, state)`` (see ``_kernels/slide.py``).
_move_bodies = _sk.move_bodies


class MoveContact(NamedTuple):
    """Something a mover met during one move.

    ``normal`` (unit) points from the mover to it, as every normal between two things does
    (``docs/geometry-rules.md``, "Normals"): a floor's is about ``-up``, a wall on the right's
    (1, 0); it is zero for a "cross" obstacle the mover was already inside. ``shape`` is the
    obstacle Shape, or None
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
    removing the components into what was hit (m/s), the contacts, (with ``up``) whether
    the mover ended touching a floor, a wall, a ceiling, and ``floor_velocity``: the velocity
    (m/s) of the floor under the mover at the contact point (the floor body's velocity plus
    its angular velocity about its centre of mass; the point is where the contact line passes
    under the mover's centre), zeros on static ground, on tiles and off the floor.

    Add ``floor_velocity`` to the velocity when a character leaves a moving platform (a jump)
    to keep the platform's motion, as Godot's ``get_platform_velocity``.

    Example
    -------
    >>> import collide2d as c2d
    >>> world = c2d.World(gravity=(0, 0))
    >>> lift = world.add_body(kind="kinematic", velocity=(2, 0))
    >>> _ = lift.add_box(4, 0.5)                        # top at y = 0.25
    >>> hero = world.add_body(kind="kinematic", position=(0, 0.5 + 1e-5))
    >>> _ = hero.add_box(0.5, 0.5)
    >>> r = world.move_and_slide(hero, (0, -1), 1 / 60, up=(0, 1))
    >>> r.on_floor, r.floor_velocity.tolist()
    (True, [2.0, 0.0])
    >>> jump = r.velocity + r.floor_velocity + (0, 5)  # the jump keeps the lift's motion
    >>> jump.tolist()
    [2.0, 5.0]
    """

    position: np.ndarray
    velocity: np.ndarray
    contacts: list[MoveContact]
    on_floor: bool
    on_wall: bool
    on_ceiling: bool
    floor_velocity: np.ndarray


class MoveResults(NamedTuple):
    """Outcome of ``world.move_and_slide_many``, one row per mover, plus the contacts as flat
    arrays (``contact_index`` is the row of the mover; ``contact_shape`` and
    ``contact_own_shape`` are shape ids, -1 for a tile; ``contact_tilemap`` indexes
    ``world.tilemaps``, -1 for a shape; ``contact_response`` indexes
    ``collide2d.tilemap.RESPONSES``; ``contact_normal`` points from the mover to what it met,
    as :attr:`MoveContact.normal`). At most 8 contacts are kept per mover. ``floor_velocity``
    (n, 2) m/s is :attr:`MoveResult.floor_velocity` per mover."""

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
    floor_velocity: np.ndarray


class Characters:
    """Character movers and tile maps of one :class:`collide2d.World`, which creates it as
    ``world._characters`` and delegates its public methods of the same names here (see the
    module doc).

    Holds the movers' store (:class:`collide2d._store.CharacterStore`: marks, floors, shape
    responses), the settings record (``views.MOVE_PARAMS_DTYPE``: ``character_response``,
    ``character_skin``, ``oneway_margin``, and each call's arguments), the tile maps with
    their pooled ``TileView`` (a cache), and the move's output buffers.
    """

    def __init__(self, world):
        self._world = world
        self.store = S.CharacterStore()
        self.params = np.zeros(1, _views.MOVE_PARAMS_DTYPE)
        p = self.params[0]
        p["mode"] = _MODES[DEFAULT_MODE]
        p["skin"] = DEFAULT_SKIN
        p["margin"] = DEFAULT_MARGIN
        self.maps: list[TileMap] = []  # in the order added
        self.buffers = S.MoveBuffers()
        self._tiles = None       # the TileView, while valid
        self._tiles_dead = ()    # indices of the maps that were dead when it was built

    # ------------------------------------------------------------------ state and settings
    @property
    def character_response(self) -> str:
        """What characters and dynamic bodies are to a mover: "cross" (pass through; the
        default), "block" (solid) or "push" (solid, and a dynamic body in the way is given the
        mover's speed along the contact normal)."""
        return _MODE_NAMES[int(self.params[0]["mode"])]

    @character_response.setter
    def character_response(self, value):
        self.params[0]["mode"] = _MODES[V.choice("character_response", value, _MODES)]

    @property
    def character_skin(self) -> float:
        """Gap (m) a mover keeps from what it hits (default 1e-5 m)."""
        return float(self.params[0]["skin"])

    @character_skin.setter
    def character_skin(self, value):
        v = V.finite_scalar("character_skin", value, positive=True)
        if v > 0.01:
            raise ValueError(f"character_skin: must be at most 0.01 m, got {v}")
        self.params[0]["skin"] = v

    @property
    def oneway_margin(self) -> float:
        """How far (m) below a one-way platform's top a mover may be and still be lifted onto
        it when it is not moving up (default 0.05 m)."""
        return float(self.params[0]["margin"])

    @oneway_margin.setter
    def oneway_margin(self, value):
        self.params[0]["margin"] = V.finite_scalar("oneway_margin", value, nonnegative=True)

    @property
    def tilemaps(self) -> list[TileMap]:
        """The tile maps of this world, in the order they were added."""
        return list(self.maps)

    def pristine(self) -> bool:
        """True while nothing was set (no tile map, default settings, an untouched store)."""
        return (not self.maps and self.character_response == DEFAULT_MODE
                and self.character_skin == DEFAULT_SKIN
                and self.oneway_margin == DEFAULT_MARGIN and self.store.pristine())

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
        self._world._check_unlocked()
        tm = TileMap(self._world, grid, tile_size, origin, material)
        # Maps whose body was removed (world.remove(tilemap.body)) are dead; drop them now,
        # as the new map's body may reuse a dead one's slot.
        for old in [m for m in self.maps if not m.alive]:
            self.maps.remove(old)
            old._alive = False
        self.maps.append(tm)
        self._tiles = None
        return tm

    def remove_tilemap(self, tilemap: TileMap) -> None:
        """Remove a tile map and its static body.

        ``world.remove(tilemap.body)`` instead leaves a dead tile map: it collides with
        nothing, refuses edits, and stays in ``world.tilemaps`` until it is removed here or
        the next ``add_tilemap`` drops it."""
        if not isinstance(tilemap, TileMap) or not any(m is tilemap for m in self.maps):
            raise ValueError("tilemap: not a tile map of this world")
        world = self._world
        world._check_unlocked()
        if tilemap.body.alive:
            world.remove(tilemap.body)
        self.maps.remove(tilemap)
        self._tiles = None
        tilemap._alive = False

    def tiles_changed(self) -> None:
        """A map's grid changed shape or classes wholesale: rebuild the TileView on demand."""
        self._tiles = None

    def tile_cell_changed(self, tilemap: TileMap, flat: int, code: int) -> None:
        """Cell ``flat`` (row-major) of ``tilemap`` now has class ``code``."""
        tiles = self._tiles
        if tiles is not None:
            k = self.maps.index(tilemap)
            tiles.cls[tiles.start[k] + flat] = code

    def tile_view(self) -> _views.TileView:
        """The tile maps as movers read them (``views.TileView``), built when invalid."""
        maps = self.maps
        # A map whose body was removed (world.remove) is dead: empty for movers too. The view
        # remembers which maps were dead when it was built, as that removal does not reset it.
        dead = tuple(k for k, m in enumerate(maps) if not m.alive)
        if self._tiles is None or self._tiles_dead != dead:
            sizes = [m._cls.size for m in maps]
            start = np.concatenate([[0], np.cumsum(sizes)[:-1]]) if maps else np.zeros(0)
            self._tiles = _views.TileView(
                cls=(np.concatenate([np.zeros_like(m._cls) if k in dead else m._cls
                                     for k, m in enumerate(maps)]) if maps
                     else np.zeros(1, np.int8)),
                start=start.astype(np.int64),
                dims=np.array([m.shape for m in maps], dtype=np.int64).reshape(-1, 2),
                origin=np.array([m.origin for m in maps], dtype=np.float64).reshape(-1, 2),
                tile_size=np.array([m.tile_size for m in maps], dtype=np.float64),
                # every map's body, dead ones too: their shapes are never obstacles
                body=np.array([m.body._slot for m in maps], dtype=np.int64))
            self._tiles_dead = dead
        return self._tiles

    # ------------------------------------------------------------------ responses, characters
    def set_response(self, shape: Shape, response: str) -> None:
        """How movers meet ``shape`` (a shape of a static or kinematic body, or of any body
        when ``character_response`` is not "cross"): "slide" (default), "touch" (stop, lose
        all velocity), "cross" (pass through, reported in the move's contacts), "bounce"
        (reflect) or "oneway" (blocks only movers coming down onto it along its up: its
        :attr:`Shape.one_way` direction if set, else world +y, turned by the body angle: a
        jump-through platform). A shape with ``one_way`` set is "oneway" for movers unless
        another response is set here. Rigid bodies are not affected.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> ledge = world.add_body(kind="static").add_box(4, 0.2, offset=(0, 2))
        >>> world.set_response(ledge, "oneway")
        >>> world.response(ledge)
        'oneway'
        """
        world = self._world
        if not isinstance(shape, Shape) or shape._world is not world:
            raise TypeError("shape: expected a Shape of this world")
        shape._check()
        code = _response_code("response", response)
        st = self.store
        s = world._shapes
        if (world._bodies.kind[shape.body._s()] == S.DYNAMIC
                and self.character_response == "cross"):
            raise ValueError("shape: its body is dynamic, and dynamic bodies never block movers "
                             "while character_response is 'cross', so the response would "
                             "never be used; set world.character_response to 'block' or "
                             "'push' first")
        st.fit(world._bodies.capacity, s.capacity)
        st.resp[shape._rows] = code
        st.resp_gen[shape._rows] = s.generation[shape._rows]

    def floor_removed(self, slot: int) -> None:
        """Shapes of body ``slot`` are being removed: a mover that stood on one of them is
        carried by its conveyor no further (the carry remembers the belt's speed)."""
        st = self.store
        n = min(st.floor.shape[0], st.floor_speed.shape[0])
        st.floor_speed[:n][st.floor[:n] == slot] = 0.0

    def response(self, shape: Shape) -> str:
        """The mover response of ``shape`` (see :meth:`set_response`)."""
        if not isinstance(shape, Shape) or shape._world is not self._world:
            raise TypeError("shape: expected a Shape of this world")
        r = shape._check()
        st = self.store
        if r < st.resp.shape[0] and st.resp_gen[r] == self._world._shapes.generation[r]:
            return RESPONSES[int(st.resp[r])]
        return "slide"

    def set_character(self, body: Body, on: bool = True) -> None:
        """Mark a body as a character (or not). Movers mark themselves; mark characters up
        front when some move before others and should not block each other on the first
        frame."""
        slot = self._slot_of(body)
        b = self._world._bodies
        self.store.fit(b.capacity, self._world._shapes.capacity)
        self.store.ch_gen[slot] = b.generation[slot] if on else -1

    def is_character(self, body: Body) -> bool:
        """Whether ``body`` is a character (see :meth:`set_character`)."""
        slot = self._slot_of(body)
        ch_gen = self.store.ch_gen
        return bool(slot < ch_gen.shape[0] and ch_gen[slot] == self._world._bodies.generation[slot])

    def _slot_of(self, body) -> int:
        if not isinstance(body, Body) or body._world is not self._world:
            raise TypeError("body: expected a Body of this world")
        return body._s()

    # ------------------------------------------------------------------ moving
    def move_and_slide(self, body: Body, velocity, dt: float, max_slides: int = 4, up=None,
                       max_floor_angle: float = math.pi / 4, drop_through: bool = False,
                       snap_to_floor: float = 0.0) -> MoveResult:
        """Move a character by ``velocity * dt``, sliding along what it hits.

        Sweeps the body's solid shapes (swept SAT; tiles grid-direct, seam-free) against tile
        maps and obstacle shapes, moves to the first hit less ``world.character_skin``,
        removes the velocity's component into the surface, and repeats with the time left,
        at most ``max_slides`` times. Responses follow :meth:`set_response` and
        ``TileMap.set_response``. Overlaps found at the start (a tile set under the mover, a
        platform that moved into it) are pushed out first; a character that ended its last
        move on the floor of a kinematic body is first carried by that body's motion, and
        one on a conveyor (``Shape.surface_speed``) by the belt's.

        Parameters
        ----------
        body : a kinematic (or dynamic) Body.
        velocity : (vx, vy) wanted velocity (m/s), gravity included.
        dt : time step (s, > 0).
        max_slides : sweeps per move (>= 1).
        up : None (top-down: every contact is a wall) or the up direction (platformers):
            contacts whose surface faces within ``max_floor_angle`` (rad) of ``up`` are
            floors (their normal, from the mover to the floor, is within it of ``-up``),
            those facing within it of ``-up`` ceilings, others walls. With ``up``, a mover
            whose wanted motion is straight down (gravity alone) stops on a walkable slope
            instead of creeping down it.
        drop_through : True lets this mover pass through one-way tiles and shapes (response
            "oneway"): drop through a platform while others keep standing on it.
        snap_to_floor : distance (m, >= 0; needs ``up``): a mover that starts on a floor, is
            not moving away from it (velocity . up <= 0) and ends the slides in the air is
            moved down (along -up), less the skin, onto a floor found within this distance,
            and then keeps no velocity along up: it walks down slopes and over crests without
            hopping. 0 (default) turns it off; about the height a character may step down
            (0.2 m for a 1 m character) is typical.

        Call it after ``world.step`` (see the module doc): a character on a moving platform
        then ends the move touching it, a skin above it, going up or down.

        Returns
        -------
        MoveResult(position, velocity, contacts, on_floor, on_wall, on_ceiling,
        floor_velocity). The body's position is updated; ``body.velocity`` is not (see the
        module doc): keep the returned velocity for the next call, and add
        ``floor_velocity`` to it when jumping off a moving platform.

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
        >>> r.contacts[0].normal.tolist(), r.contacts[0].shape is wall   # mover -> wall
        ([1.0, 0.0], True)

        A platformer's frame: step the world, then move; snap to slopes, drop on request.

        >>> world = c2d.World()
        >>> ramp = world.add_body(kind="static").add_polygon([(0, 0), (4, -2), (4, -3),
        ...                                                   (-4, -3), (-4, 0)])
        >>> hero = world.add_body(kind="kinematic", position=(-1, 0.5 + 1e-5))
        >>> _ = hero.add_box(1, 1)
        >>> v = (0.0, 0.0)
        >>> for _ in range(30):                             # walk right, down the ramp
        ...     world.step(1 / 60)
        ...     r = world.move_and_slide(hero, (3, v[1] - 20 / 60), 1 / 60, up=(0, 1),
        ...                              snap_to_floor=0.2)
        ...     v = r.velocity
        ...     assert r.on_floor                            # every frame
        >>> round(float(r.position[0]), 6), r.velocity.tolist()
        (0.5, [3.0, 0.0])
        """
        slot = self._slot_of(body)
        vel = V.vector("velocity", velocity).reshape(1, 2)
        drop_through = V.flag("drop_through", drop_through)
        n = self._move(np.array([slot], np.int64), vel, dt, max_slides, up, max_floor_angle,
                       _CONTACTS_ONE, drop_through, snap_to_floor)
        handles = self._world._shape_handles
        mv, con = self.buffers.movers, self.buffers.contacts
        contacts = []
        for r in range(n):
            is_tile = con.kind[r] == _sk.KIND_TILE
            contacts.append(MoveContact(
                normal=0.0 - con.normal[r],    # the kernel's pushes the mover away
                shape=None if is_tile else handles.get(int(con.shape[r])),
                tilemap=self.maps[int(con.tilemap[r])] if is_tile else None,
                tile=(int(con.tile[r, 0]), int(con.tile[r, 1])) if is_tile else None,
                own_shape=handles.get(int(con.own_shape[r])) if con.own[r] >= 0 else None,
                response=RESPONSES[int(con.resp[r])]))
        f = int(mv.flags[0])
        return MoveResult(self._world._bodies.pos[slot].copy(), mv.vel[0].copy(), contacts,
                          bool(f & _sk.FLAG_FLOOR), bool(f & _sk.FLAG_WALL),
                          bool(f & _sk.FLAG_CEILING), mv.floor_vel[0].copy())

    def move_and_slide_many(self, bodies, velocities, dt: float, max_slides: int = 4, up=None,
                            max_floor_angle: float = math.pi / 4, drop_through=False,
                            snap_to_floor: float = 0.0) -> MoveResults:
        """:meth:`move_and_slide` for many characters in one compiled call.

        ``bodies``: a sequence of Body handles or an int array of body ids (see
        :attr:`Body.id`; the fast form: no Python work per body), no repeats; a removed
        body's id raises ``ValueError``. ``velocities``: (n, 2) m/s. Bodies
        move one after another in the order given (this matters only when
        ``character_response`` makes characters solid to each other). ``drop_through`` is a
        bool for all or a bool array with one value per body; ``snap_to_floor`` as in
        :meth:`move_and_slide`. Returns :class:`MoveResults`, arrays in the order of
        ``bodies``.

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
        n = self._move(slots, vel, dt, max_slides, up, max_floor_angle, _CONTACTS_MANY,
                       drop_through, snap_to_floor)
        m = slots.shape[0]
        mv, con = self.buffers.movers, self.buffers.contacts
        flags = mv.flags[:m]
        return MoveResults(
            position=self._world._bodies.pos[slots], velocity=mv.vel[:m].copy(),
            on_floor=(flags & _sk.FLAG_FLOOR) != 0,
            on_wall=(flags & _sk.FLAG_WALL) != 0,
            on_ceiling=(flags & _sk.FLAG_CEILING) != 0,
            contact_index=con.mover[:n].copy(),
            contact_normal=0.0 - con.normal[:n],   # from the mover to what it met
            contact_shape=con.shape[:n].copy(),
            contact_tilemap=con.tilemap[:n].copy(),
            contact_tile=con.tile[:n].copy(),
            contact_own_shape=con.own_shape[:n].copy(),
            contact_response=con.resp[:n].copy(),
            floor_velocity=mv.floor_vel[:m].copy())

    def _mover_slots(self, bodies) -> np.ndarray:
        """Slots of ``bodies``: an array (or sequence) of body ids, or a sequence of Body
        handles of this world."""
        world = self._world
        if isinstance(bodies, np.ndarray):
            return _slots_of_ids(world._bodies, "bodies", bodies)
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
            return _slots_of_ids(world._bodies, "bodies", np.array(items, dtype=np.int64))
        for it in items:
            if not isinstance(it, Body) or it._world is not world:
                raise TypeError("bodies: expected Body handles of this world (or an int "
                                "array of body ids)")
        return np.fromiter((it._s() for it in items), np.int64, len(items))

    def _move(self, slots, vel, dt, max_slides, up, max_floor_angle, max_contacts,
              drop_through, snap_to_floor) -> int:
        """Validate, then move the bodies in ``slots``; the outputs are in ``self.buffers``
        (a row per mover, then the contact rows). Returns the contact rows written."""
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
        snap = V.finite_scalar("snap_to_floor", snap_to_floor, nonnegative=True)
        if snap > 0.0 and up is None:
            raise ValueError("snap_to_floor: needs up (the floor is found along -up); pass "
                             "up=(0, 1) for a platformer or leave snap_to_floor at 0")
        drop = _drop_flags(drop_through, slots.shape[0])
        world = self._world
        world._check_unlocked()
        b, s = world._bodies, world._shapes
        if (b.kind[slots] == S.STATIC).any():
            k = int(np.flatnonzero(b.kind[slots] == S.STATIC)[0])
            bid = _encode(int(slots[k]), int(b.generation[slots[k]]))
            raise ValueError(f"bodies: body {bid} (its id) is static; only kinematic and "
                             "dynamic bodies move")
        self.store.fit(b.capacity, s.capacity)
        p = self.params[0]
        p["dt"] = dt
        p["ux"] = ux
        p["uy"] = uy
        p["cos_floor"] = math.cos(angle)
        p["max_slides"] = max_slides
        p["has_up"] = up is not None
        p["max_contacts"] = max_contacts
        p["snap"] = snap
        p["n_bodies"] = b.count
        p["n_shapes"] = s.count
        out = self.buffers
        out.fit_movers(slots.shape[0])
        out.movers.drop[:slots.shape[0]] = drop
        args = (slots, vel, b.view(), s.view(), self.store.view(), self.tile_view(),
                self.params)
        while _move_bodies(*args, out.movers, out.contacts, out.state) != _sk.MOVE_DONE:
            out.fit_contacts(int(out.state[0]["need"]))
        world._poses_changed()
        return int(out.state[0]["n_contacts"])


def _drop_flags(drop_through, n: int) -> np.ndarray:
    """``drop_through`` (a bool, or one bool per mover) as n bools."""
    if isinstance(drop_through, (str, bytes)) or not hasattr(drop_through, "__len__"):
        return np.full(n, V.flag("drop_through", drop_through))
    arr = np.asarray(drop_through)
    if arr.dtype != np.bool_:
        raise TypeError(f"drop_through: expected bools, got dtype {arr.dtype}")
    if arr.shape != (n,):
        raise ValueError(f"drop_through: expected {n} values (one per mover), got shape "
                         f"{arr.shape}")
    return arr


__all__ = ["Characters", "MoveContact", "MoveResult", "MoveResults", "RESPONSES"]
