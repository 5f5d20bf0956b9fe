"""Many independent worlds stepped in one compiled call: :class:`WorldBatch`.

A batch holds N ordinary :class:`~collide2d.World` objects (copies of one world, or worlds
of the same make-up) and steps them all with one call of ``_kernels.worlds.step_worlds``,
worlds spread over Numba's threads (``NUMBA_NUM_THREADS``, ``numba.set_num_threads``).
Each world is stepped by the code ``World.step`` runs, so world i ends bit for bit as a lone
world stepped the same way, whatever the thread count.

Inputs and outputs are arrays with a leading world axis; bodies are named by their ids
(``Body.id``: the same in every copy of a world), joints by their index in
``world.joints``. The Python cost of a step does not grow with N: the per-world work left
to Python is for the rare world that needs it (a table that must grow, a joint that broke,
a world read or replaced by the caller).

What a batch does not do: callbacks (contact events come out as arrays,
:meth:`WorldBatch.contact_events`), particle systems, and ``World.time`` bookkeeping
between reads (``batch.times`` holds it; ``batch.world(i)`` writes it back).
"""

from __future__ import annotations

import contextlib
from typing import NamedTuple

import numpy as np

from . import _arena, _tiers
from . import _validate as V
from . import snapshot as _snapshot
from . import world as _world
from ._kernels import views as _views
from ._kernels.constants import TREE_STALE
from .body import _SLOT_BITS, _slots_of_ids
from .joint import MOTOR_KINDS
from .queries import QueryFilter, RayHitArrays
from .world import World

_k = _tiers.kernels("worlds")
_kl = _tiers.kernels("lists")

#: ``run_step``'s results for a world it finished (KEPT: a settled world's tables stayed).
_DONE = -1
_KEPT = -3


class BodyStates(NamedTuple):
    """Bodies' state in every world of a batch: ``[i, k]`` is body ``ids[k]`` of world i.

    Attributes
    ----------
    position : (n, k, 2) float64
        Body origins (m).
    angle : (n, k) float64
        Angles (rad, counter-clockwise).
    velocity : (n, k, 2) float64
        Velocities of the centres of mass (m/s).
    angular_velocity : (n, k) float64
        rad/s, counter-clockwise.
    rotation : (n, k, 2) float64
        ``(cos(angle), sin(angle))``, as ``math.cos`` and ``math.sin`` give them.
    awake : (n, k) bool
        False while the body sleeps.
    """

    position: np.ndarray
    angle: np.ndarray
    velocity: np.ndarray
    angular_velocity: np.ndarray
    rotation: np.ndarray
    awake: np.ndarray


class ContactCounts(NamedTuple):
    """Solid contacts per world and pair of collision types, after the last step.

    Attributes
    ----------
    began : (n, m) int64
        Contacts between shapes of those types that began touching in the last step (what
        ``on_contact_begin(between=...)`` would have been called with).
    ended : (n, m) int64
        Contacts that ended in it (``on_contact_end``).
    touching : (n, m) int64
        Contacts touching now.
    """

    began: np.ndarray
    ended: np.ndarray
    touching: np.ndarray


class WorldBatch:
    """N independent worlds stepped together in one compiled call.

    Parameters
    ----------
    worlds : World or sequence of World
        One world, copied ``n`` times through its snapshot (the original stays yours), or
        the worlds themselves: the batch takes them over (step them only through the batch;
        read one with :meth:`world`).
    n : int, optional
        How many copies of ``worlds`` when it is one world.

    Notes
    -----
    Worlds spread over Numba's threads (``numba.set_num_threads``); every world is stepped
    by the code ``World.step`` runs, so the results are the same bits with 1 thread or
    many, and world i equals a lone world stepped the same way. Callbacks are not run and
    particle systems are not stepped: a world with either is refused.

    Example
    -------
    >>> import collide2d as c2d
    >>> world = c2d.World()
    >>> _ = world.add_body(kind="static").add_box(10, 1)
    >>> box = world.add_body(position=(0, 2))
    >>> _ = box.add_box(1, 1)
    >>> batch = c2d.WorldBatch(world, 3)
    >>> batch.apply_impulses([box.id], [[[0.0, 0.0]], [[1.0, 0.0]], [[2.0, 0.0]]])
    >>> batch.step(1 / 60)
    >>> batch.body_states([box.id]).velocity[:, 0, 0].round(3).tolist()
    [0.0, 1.0, 2.0]
    """

    def __init__(self, worlds, n: int | None = None):
        # Every world's arrays, and its tables' room, one after another in shared blocks
        # (_arena): a step that visits the worlds in turn then misses the cache and the page
        # tables less. (reset packs the worlds it rebuilds; set_world's is the caller's.)
        with _arena.packed():
            self._make(worlds, n)

    def _make(self, worlds, n) -> None:
        if isinstance(worlds, World):
            if n is None:
                raise TypeError("n: give the number of copies of the world")
            count = V.int64("n", n)
            if count < 1:
                raise ValueError(f"n: at least 1 world, got {count}")
            _check_world("worlds", worlds)
            data = worlds.snapshot()
            items = _Restored(data, count)
            snapshots = [data] * count
        else:
            if n is not None:
                raise TypeError("n: only with a single world (a list of worlds is used as "
                                "it is)")
            try:
                items = list(worlds)
            except TypeError:
                raise TypeError(f"worlds: expected a World or a sequence of worlds, got "
                                f"{type(worlds).__name__}") from None
            if not items:
                raise ValueError("worlds: at least one world")
            for i, w in enumerate(items):
                _check_world(f"worlds[{i}]", w)
            if len({id(w) for w in items}) != len(items):
                raise ValueError("worlds: the same World appears twice; give distinct "
                                 "worlds (copy one with World.restore(world.snapshot()))")
            snapshots = [w.snapshot() for w in items]
        self._setup(items, snapshots)

    def _setup(self, items: list, snapshots: list) -> None:
        self._snapshots = snapshots
        count = len(items)
        self._worlds: list[World] = [None] * count
        self._params = np.zeros(count, _views.PARAMS_DTYPE)
        self._parity = np.zeros(count, np.int64)
        self._status = np.zeros(count, np.int64)
        self._prev = np.zeros(count, np.int64)
        self._prev_sensors = np.zeros(count, np.int64)
        self._broken = np.zeros(count, np.int64)
        # Where each world's arrays lie from the layout's (_set_views), or NO_LAYOUT.
        self._delta = np.full(count, _k.NO_LAYOUT, np.int64)
        self._layout = None  # the four views of the first world set, one-item lists
        self._layout_at = 0  # the address of their bodies' positions
        self.times = np.zeros(count)
        self._lists = None
        self._lists_tier = None  # the kernels' tier the lists were made for
        self._trees = None  # raycast's trees, one per world (a WorldTrees; see raycast)
        self._tree_key = None  # the filter they were built for
        self._touched: set[int] = set()
        self._slot_cache: dict = {}
        self._templates: dict[bytes, World] = {}  # see _template
        self._same_as: dict[int, tuple] = {}  # world -> (a template of its layout, token)
        self._template_lists: dict[int, tuple] = {}  # see _take_again
        for i in range(count):
            self._adopt(i, items[i])

    # ------------------------------------------------------------------ worlds
    def __len__(self) -> int:
        return len(self._worlds)

    def world(self, index: int) -> World:
        """World ``index`` as a :class:`World` (its contact tables, time and settings
        brought up to date). Changes made to it are seen by the batch's next call, which
        takes the world back: to change it again, read it again."""
        i = self._index(index)
        self._settle(i)
        self._touched.add(i)
        self._same_as.pop(i, None)  # the caller may change its layout
        return self._worlds[i]

    def reset(self, index, snapshot: bytes | None = None) -> None:
        """Put worlds ``index`` (an int or an array of ints) back to the state of
        ``snapshot`` (``World.snapshot()`` bytes), or to the state each started in.

        A world whose snapshot has its layout (the same bodies, shapes and joints in the
        same slots, as every copy of one world has) and no contacts (as a world not yet
        stepped) is reset in place, by copying the state of the snapshot's world restored
        once: tens of microseconds, the episode reset of reinforcement learning; the
        ``World`` and its handles stay. Others are replaced by a world rebuilt from the
        bytes (about a millisecond). The bodies move the same bits either way.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> ball = world.add_body(position=(0, 5))
        >>> _ = ball.add_circle(0.5)
        >>> batch = c2d.WorldBatch(world, 2)
        >>> batch.step(0.1)
        >>> batch.reset(1)
        >>> batch.body_states([ball.id]).position[:, 0, 1].round(2).tolist()
        [4.94, 5.0]
        """
        rows = self._indices(index)
        if snapshot is not None and not isinstance(snapshot, (bytes, bytearray)):
            raise TypeError(f"snapshot: expected World.snapshot() bytes, got "
                            f"{type(snapshot).__name__}")
        if snapshot is not None:
            snapshot = bytes(snapshot)
            data = [snapshot] * len(rows)
        else:
            data = [self._snapshots[int(i)] for i in rows]
            missing = [int(i) for i, d in zip(rows, data, strict=True) if d is None]
            if missing:
                raise ValueError(f"index: world {missing[0]} has no snapshot to reset to; "
                                 "give one (snapshot=world.snapshot())")
        # Every template first, and the worlds read since the last call brought in (which
        # checks them): what can raise does so before any world changes.
        templates = [self._template(d, "snapshot" if snapshot is not None else "index")
                     for d in data]
        _tiers.enter()
        try:
            self._refresh()
            copies: dict[int, tuple] = {}  # id(template) -> (template, rows reset in place)
            again: dict[int, list] = {}  # id(template) -> rows assigned it before (below)
            with _arena.packed():
                for i, d, template in zip(rows.tolist(), data, templates, strict=True):
                    if self._same_as.get(i) == (template, _layout_token(self._worlds[i])):
                        again.setdefault(id(template), []).append(i)
                        copies.setdefault(id(template), (template, []))[1].append(i)
                    elif self._assign(i, template):
                        copies.setdefault(id(template), (template, []))[1].append(i)
                    else:
                        self._adopt(i, World.restore(d))
                    self._snapshots[i] = d
            for key, done in again.items():
                self._assign_again(np.array(done, dtype=np.int64), copies[key][0])
            # The arrays of every world reset in place, in one call per template.
            for template, done in copies.values():
                _k.copy_worlds(*self._store_lists(), np.array(done, dtype=np.int64),
                               template._bodies.view(), template._shapes.view(),
                               template._joints.store.view())
        finally:
            _tiers.leave()

    def _template(self, data: bytes, name: str) -> World:
        """The world of snapshot ``data``, restored once and never stepped: what resets
        copy in place."""
        template = self._templates.get(data)
        if template is None:
            template = World.restore(data)
            _check_world(name, template)
            if len(self._templates) >= 8:  # a few episode starts, not every world's
                self._templates.clear()
            self._templates[data] = template
        return template

    def _assign(self, i: int, template: World) -> bool:
        """World i takes ``template``'s state in place (``snapshot.assign``), keeping its
        views, all but the arrays of its views, which ``reset`` copies; False if their
        layouts differ."""
        w = self._worlds[i]
        token = _layout_token(w)
        same = self._same_as.get(i) == (template, token)
        if not _snapshot.assign(w, template, same, arrays=False):
            return False
        # Until world i is read or replaced, or its layout changes through a World kept
        # from an earlier read (the token notices a body, shape, joint or rule more or less).
        self._same_as[i] = (template, token)
        self._prev[i] = 0  # no ended rows
        self._prev_sensors[i] = 0
        self._broken[i] = 0
        self.times[i] = template.time
        if self._trees is not None:
            self._trees.built[i] = TREE_STALE
        return True

    def _assign_again(self, rows: np.ndarray, template: World) -> None:
        """Worlds ``rows``, each assigned ``template`` by the last ``_assign`` and not read
        or changed in layout since, take its state again: what ``snapshot.assign`` writes,
        less what only a read world's changes could have made differ (the settings and the
        stores' free slots, which the batch's steps do not change), and so for all rows at
        once (a vector environment resets a few rows every step: 31 us a row in
        ``_assign``). The arrays are ``reset``'s copy."""
        prm = self._params
        keep = {name: prm[name][rows] for name in _snapshot.RECORDED}
        prm[rows] = template._params[0]
        for name, values in keep.items():
            prm[name][rows] = values
        prm["pairs_kept"][rows] = 0
        prm["settled"][rows] = min(int(template._params[0]["settled"]), 1)
        prm["n_asleep"][rows] = 0
        self._prev[rows] = 0
        self._prev_sensors[rows] = 0
        self._broken[rows] = 0
        self.times[rows] = template.time
        if self._trees is not None:
            self._trees.built[rows] = TREE_STALE
        for i in rows.tolist():
            self._worlds[i]._joints.broken = []

    def _take_again(self, rows: np.ndarray) -> tuple[np.ndarray, tuple | None]:
        """``reset`` of the worlds ``rows`` that it would reset in place to the template
        they were last assigned (unread since, their layout unchanged), all to the first
        such row's, less the arrays: a vector environment's kernel copies those from the
        returned template views (``worlds.copy_views``) in the pass that steps each world,
        while its memory is in the caches. Returns the rows taken and the template's body,
        shape and joint views as one-item lists (None with no row taken); the others are
        left for ``reset``. The caller
        holds the kernels' tier (``_tiers.enter``) until the step that copies them, and
        nothing may read or change those worlds before it."""
        self._refresh()
        taken: list[int] = []
        template = None
        for i in rows.tolist():
            same = self._same_as.get(i)
            if same is None or (template is not None and same[0] is not template):
                continue
            if same[1] == _layout_token(self._worlds[i]):
                template = same[0]
                taken.append(i)
        if template is None:
            return np.zeros(0, np.int64), None
        done = np.array(taken, dtype=np.int64)
        self._assign_again(done, template)
        views = self._template_lists.get(id(template))  # (it holds the template)
        if views is None or views[1] != _kl._tier:
            if len(self._template_lists) >= 8:  # as _templates
                self._template_lists.clear()
            lists = tuple(_kl.filled(v, 1) for v in (
                template._bodies.view(), template._shapes.view(),
                template._joints.store.view()))
            views = self._template_lists[id(template)] = (template, _kl._tier, lists)
        return done, views[2]

    def _store_lists(self) -> tuple:
        """The worlds' body, shape and joint views, one list each (as ``copy_worlds`` and
        the environments' kernels take them)."""
        L = self._lists
        return L["bodies"], L["shapes"], L["joints"]

    def _copy_again(self, rows: np.ndarray, views: tuple) -> None:
        """The arrays of worlds ``rows`` that ``_take_again`` took, copied here from its
        template ``views``: for when the step that was to copy them did not run."""
        _k.copy_worlds(*self._store_lists(), rows, *(items[0] for items in views))

    def set_world(self, index: int, world: World) -> None:
        """Put ``world`` in place of world ``index``; the batch takes it over (its snapshot
        becomes what :meth:`reset` restores)."""
        i = self._index(index)
        _check_world("world", world)
        if any(w is world for w in self._worlds):
            raise ValueError("world: already in this batch")
        self._snapshots[i] = world.snapshot()
        self._adopt(i, world)

    def _put(self, i: int, world: World) -> None:
        """``set_world`` for the environments: no checks, no snapshot kept."""
        self._snapshots[i] = None
        self._adopt(i, world)

    # ------------------------------------------------------------------ step
    def step(self, dt: float) -> None:
        """Advance every world by ``dt`` seconds (> 0) in one compiled call.

        A world with a NaN or inf in a body's state raises ``ValueError`` naming it, and
        no world is stepped."""
        self._step(dt, _k, "step_worlds", ())

    def _step(self, dt: float, kernels, name: str, extra: tuple) -> list[int]:
        """``step``, by kernel ``name`` of ``kernels`` (a ``_tiers.kernels`` module, read
        once the tier is held): ``worlds.step_worlds``, or a kernel that takes its
        arguments and then ``extra`` and does more in its pass over each world (a vector
        environment's). Returns the worlds whose step that kernel left unfinished (a table
        had to grow), finished here: the kernel's own work after the step is the caller's
        for them."""
        if type(dt) is not float or not 0.0 < dt <= _world.MAX_DT:
            dt = V.finite_scalar("dt", dt, positive=True)
            if dt > _world.MAX_DT:
                raise ValueError(f"dt: at most {_world.MAX_DT:g} s per step, got {dt!r}")
        _tiers.enter()  # may change the kernels' tier: before the lists are refreshed
        try:
            self._refresh()
            self._params["dt"] = dt
            L = self._lists
            bad = getattr(kernels, name)(L["ws0"], L["ts0"], L["ws1"], L["ts1"],
                                         self._params, self._parity, self._status,
                                         self._prev, self._prev_sensors, self._broken,
                                         *self._layout, self._delta, *extra)
            if bad >= 0:
                w = self._worlds[bad]
                slot = int(self._status[bad])
                raise ValueError(f"world {bad}: body {int(w._bodies.order[slot])} "
                                 "(world.bodies index) has a NaN or inf position, angle, "
                                 "velocity or force; no world was stepped")
            self.times += dt
            # A settled world kept its tables: no rows of the buffers' table ended.
            self._prev[self._status == _KEPT] = 0
            self._prev_sensors[self._status == _KEPT] = 0
            late = np.flatnonzero((self._status != _DONE)
                                  & (self._status != _KEPT)).tolist()
            for i in late:
                self._finish_step(i)
        finally:
            _tiers.leave()
        for i in np.flatnonzero(self._broken).tolist():
            self._settle(i)
            self._worlds[i]._joints.after_step(int(self._broken[i]))
            self._touched.add(i)  # the pair rules changed
            self._same_as.pop(i, None)
        return late

    def _finish_step(self, i: int) -> None:
        """A world whose step stopped for a table to grow: finish it as World.step does."""
        w = self._worlds[i]
        buffers = w._step_buffers
        if self._parity[i]:
            self._swap_tables(i)
        stage = int(self._status[i])
        view = _views.WorldView(
            w._bodies.view(), w._shapes.view(), w._contacts.table, w._sensors.table,
            w._rules.step_view(w._joints.store.keys), w._joints.store.view())
        while stage != _DONE:
            w._grow(buffers, stage)
            stage = _world._run_step(view, w._params, buffers.view(), stage)
        self._broken[i] = buffers.read("n_broken")
        self._parity[i] = 1  # the table the step wrote is the buffers'
        self._set_views(i)

    # ------------------------------------------------------------------ bodies
    def body_states(self, ids) -> BodyStates:
        """Position, angle, velocities, rotation and awake flag of bodies ``ids`` in every
        world: ``ids`` (k,) body ids shared by all worlds, or (n, k) per world."""
        slots = self._body_slots(ids)
        n, k = slots.shape
        out = BodyStates(np.empty((n, k, 2)), np.empty((n, k)), np.empty((n, k, 2)),
                         np.empty((n, k)), np.empty((n, k, 2)), np.empty((n, k), np.bool_))
        self._refresh()
        _k.read_bodies(self._lists["bodies"], slots, *out)
        return out

    def apply_forces(self, ids, forces, points=None, where=None) -> None:
        """Add forces (N, ``(n, k, 2)``) over the next step to bodies ``ids`` in every world,
        at world ``points`` (m, ``(n, k, 2)``; None: the centres of mass), where ``where``
        (``(n, k)`` bool; None: everywhere). As ``Body.apply_force`` for each, in order k."""
        self._push("forces", ids, forces, points, where, impulse=False)

    def apply_impulses(self, ids, impulses, points=None, where=None) -> None:
        """Change bodies' momentum by ``impulses`` (N s, ``(n, k, 2)``) at world ``points``
        (None: the centres of mass), where ``where``: ``Body.apply_impulse`` for each."""
        self._push("impulses", ids, impulses, points, where, impulse=True)

    def apply_torques(self, ids, torques, where=None) -> None:
        """Add torques (N m, ``(n, k)``) over the next step to bodies ``ids``."""
        slots = self._body_slots(ids)
        t = self._values("torques", torques, slots.shape, ())
        w = self._where(where, slots.shape)
        self._refresh()
        _k.push_torques(self._lists["bodies"], slots, w, t)

    def _push(self, name, ids, values, points, where, impulse) -> None:
        slots = self._body_slots(ids)
        v = self._values(name, values, slots.shape, (2,))
        p = (np.zeros((1, 1, 2)) if points is None
             else self._values("points", points, slots.shape, (2,)))
        w = self._where(where, slots.shape)
        self._refresh()
        _k.push_bodies(self._lists["bodies"], slots, w, v, p, points is not None, impulse)

    # ------------------------------------------------------------------ joints
    def set_motors(self, joints, speeds, max_torques) -> None:
        """Motor speeds (rad/s or m/s) and maximum motor torques (N m, or forces in N) of
        joints ``joints`` (indices into ``world.joints``, (k,) or (n, k)) in every world:
        ``speeds`` and ``max_torques`` (n, k), broadcast. Revolute, prismatic, wheel and
        angle joints have motors; any other kind raises ``ValueError``.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> hub = world.add_body(kind="static")
        >>> wheel = world.add_body()
        >>> _ = wheel.add_circle(0.5)
        >>> _ = world.add_revolute_joint(hub, wheel, (0, 0))
        >>> batch = c2d.WorldBatch(world, 2)
        >>> batch.set_motors([0], [[1.0], [-2.0]], [[100.0], [100.0]])
        >>> for _ in range(30):
        ...     batch.step(1 / 60)
        >>> batch.body_states([wheel.id]).angular_velocity[:, 0].round(3).tolist()
        [1.0, -2.0]
        """
        slots = self._joint_slots(joints)
        s = self._values("speeds", speeds, slots.shape, ())
        m = self._values("max_torques", max_torques, slots.shape, ())
        if (m < 0.0).any():
            raise ValueError("max_torques: must be >= 0")
        self._refresh()
        _k.set_motors(self._lists["bodies"], self._lists["joints"], slots, s, m)

    # ------------------------------------------------------------------ contacts
    def contact_events(self, between) -> ContactCounts:
        """Solid contacts of the last step per world, for pairs of collision types:
        ``between`` a pair ``(type_a, type_b)`` or an (m, 2) array of them (either way
        round). Returns (n, m) counts that began, ended, and touch now.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> ground = world.add_body(kind="static").add_box(10, 1, offset=(0, -0.5))
        >>> ground.collision_type = 1
        >>> ball = world.add_body(position=(0, 2)).add_circle(0.5)
        >>> ball.collision_type = 2
        >>> batch = c2d.WorldBatch(world, 2)
        >>> for _ in range(90):
        ...     batch.step(1 / 60)
        >>> batch.contact_events((1, 2)).touching.tolist()
        [[1], [1]]
        """
        pairs = np.asarray(between)
        if pairs.ndim == 1:
            pairs = pairs.reshape(1, -1)
        if (pairs.ndim != 2 or pairs.shape[1] != 2 or pairs.size == 0
                or not np.issubdtype(pairs.dtype, np.integer)):
            raise ValueError(f"between: expected (type_a, type_b) ints or an (m, 2) int array "
                             f"of them, got {between!r}")
        with self._kernel_views() as views:
            tables, counts, events = self._event_args(views, pairs)
            _k.contact_events(views["shapes"], *tables, *counts, *events)
        return ContactCounts(*events[2:])

    @contextlib.contextmanager
    def _kernel_views(self):
        """The per-world view lists, brought up to date, for a kernel over every world (the
        batch's own, the vector environments'), the kernels' tier held meanwhile: a dict of
        typed lists (``"bodies"``, ``"shapes"``, ``"joints"``, ...), one item per world."""
        _tiers.enter()  # may change the kernels' tier: before the lists are refreshed
        try:
            self._refresh()
            yield self._lists
        finally:
            _tiers.leave()

    def _event_args(self, views, pairs) -> tuple:
        """What ``worlds.contact_events`` takes after the shapes, for the pairs of collision
        types ``pairs`` ((m, 2) ints): (the contact tables, their counts, (type_a, type_b,
        and new (n, m) counts began, ended, touching))."""
        pairs = np.asarray(pairs, dtype=np.int64)
        n, m = len(self), pairs.shape[0]
        return ((views["cw"], views["cb"], views["ca"]),
                (self._parity, self._params["n_contacts"].copy(), self._prev,
                 self._params["n_asleep"].copy()),
                (np.ascontiguousarray(pairs[:, 0]), np.ascontiguousarray(pairs[:, 1]),
                 *(np.zeros((n, m), np.int64) for _ in range(3))))

    # ------------------------------------------------------------------ queries
    def raycast(self, starts, ends, filter: QueryFilter | None = None) -> RayHitArrays:
        """First hit of every segment ``starts[i, k] -> ends[i, k]`` in world i, all worlds
        in one compiled call: row k of world i equals ``world.raycast_many`` there.

        Parameters
        ----------
        starts, ends : (n, m, 2) array_like
            Segment ends per world, world frame (m); (m, 2) is the same segments in every
            world.
        filter : QueryFilter, optional
            As ``World.raycast_many``'s; ``exclude`` names bodies by id (``Body.id``, the
            same in every copy of a world).

        Returns
        -------
        RayHitArrays
            ``hit`` (n, m) bool, ``body`` (n, m) body id (-1: none), ``shape`` (n, m) shape
            id (-1), ``point`` (n, m, 2), ``normal`` (n, m, 2), ``fraction`` (n, m) (NaN
            where nothing is hit).

        Notes
        -----
        Each world keeps a tree over the shapes the filter accepts, rebuilt only when those
        shapes or their boxes change or the filter's category, mask or sensor flag changes.
        A tree over static shapes only is not checked again until the world is read
        (:meth:`world`), reset or replaced: a lidar that sees only static ground costs its
        rays alone.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> _ = world.add_body(kind="static").add_box(2, 2)
        >>> batch = c2d.WorldBatch(world, 2)
        >>> out = batch.raycast([[(-5, 0)], [(0, 5)]], [[(5, 0)], [(0, -5)]])
        >>> out.fraction.tolist(), out.normal[:, 0].tolist()
        ([[0.4], [0.4]], [[-1.0, 0.0], [0.0, 1.0]])
        """
        n = len(self._worlds)
        p = self._ray_ends("starts", starts)
        q = self._ray_ends("ends", ends)
        if p.shape[1] != q.shape[1]:
            raise ValueError(f"ends: expected {p.shape[1]} segments per world as starts, got "
                             f"{q.shape[1]}")
        if filter is None:
            filter = _NO_FILTER
        elif not isinstance(filter, QueryFilter):
            raise TypeError(f"filter: expected a QueryFilter or None, got "
                            f"{type(filter).__name__}")
        # As World.raycast_many: a removed body has no shapes left to exclude.
        ids = [b.id if hasattr(b, "id") else b for b in filter.exclude
               if not hasattr(b, "alive") or b.alive]
        exclude = (self._slots("filter.exclude", np.array(ids, dtype=np.int64), _body_slots_of)
                   if ids else np.zeros((n, 0), np.int64))
        m = p.shape[1]
        out = _views.SegmentHits(np.empty((n, m), np.bool_), np.empty((n, m), np.int64),
                                 np.empty((n, m), np.int64), np.empty((n, m, 2)),
                                 np.empty((n, m, 2)), np.empty((n, m)))
        self._refresh()
        trees = self._ray_trees((int(filter.category), int(filter.mask),
                                 bool(filter.sensors)))
        flt = _views.FilterView(np.int64(filter.category), np.int64(filter.mask),
                                bool(filter.sensors), exclude)
        _k.raycast_worlds(self._lists["bodies"], self._lists["shapes"], self._params, p, q,
                          flt, np.int64(_SLOT_BITS), trees, out)
        return RayHitArrays(*out)

    def _ray_ends(self, name, value) -> np.ndarray:
        n = len(self._worlds)
        v = _finite(name, value)
        if v.ndim == 2:
            v = v[None]
        if v.ndim != 3 or v.shape[2] != 2 or v.shape[0] not in (1, n):
            raise ValueError(f"{name}: expected shape ({n}, m, 2) or (m, 2), got "
                             f"{np.shape(value)}")
        V.check_bound(name, v)
        return np.array(np.broadcast_to(v, (n,) + v.shape[1:]), dtype=np.float64, order="C")

    def _ray_trees(self, key) -> _views.WorldTrees:
        """The per-world tree arrays, with room for every world's shapes (new ones, all to
        be built, when the room grew); all marked for a rebuild when the filter changed."""
        n = len(self._worlds)
        need = max(8, int(self._params["n_shapes"].max()))
        t = self._trees
        cap = 0 if t is None else t.items.shape[1]
        if cap < need:
            cap = max(need, 2 * cap)
            t = self._trees = _views.WorldTrees(
                boxes=np.empty((n, cap, 4)), items=np.empty((n, cap), np.int64),
                k=np.zeros(n, np.int64), first=np.empty((n, cap), np.int64),
                count=np.empty((n, cap), np.int64), slot_box=np.empty((n, 4, 2 * cap)),
                slot_ref=np.empty((n, 2 * cap), np.int64), nodes=np.zeros(n, np.int64),
                built=np.zeros(n, np.int64))
        elif self._tree_key != key:
            t.built[:] = TREE_STALE
        self._tree_key = key
        return t

    # ------------------------------------------------------------------ internals
    def _index(self, index) -> int:
        i = V.int64("index", index)
        if not 0 <= i < len(self._worlds):
            raise ValueError(f"index: {i} is not a world of this batch (0 to "
                             f"{len(self._worlds) - 1})")
        return i

    def _indices(self, index) -> np.ndarray:
        a = np.asarray(index)
        if a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"index: expected an int or ints, got {index!r}")
        a = a.reshape(-1).astype(np.int64)
        if ((a < 0) | (a >= len(self._worlds))).any():
            raise ValueError(f"index: worlds are 0 to {len(self._worlds) - 1}, got {index!r}")
        return a

    def _adopt(self, i: int, w: World) -> None:
        """World ``w`` becomes world ``i``: its settings record moves into the batch's (the
        world keeps a view of its row), its step buffers get room for every pair of shapes
        (up to a bound), and its views enter the lists."""
        old = self._worlds[i]
        if old is not None:
            self._settle(i)  # as World.step would have left it, before it leaves the batch
            old._params = old._params.copy()  # the retired world keeps its own record
        self._params[i] = w._params[0]
        w._params = self._params[i:i + 1]
        w._record = [0.0, -1, -1, -1]
        w._unsettle()  # the batch steps it and writes its bodies now
        self._worlds[i] = w
        self._same_as.pop(i, None)
        self._parity[i] = 0
        self._prev[i] = 0
        self._prev_sensors[i] = 0
        self._broken[i] = 0
        self.times[i] = w.time
        self._touched.discard(i)
        for cache in self._slot_cache.values():
            cache[2][i] = False
        if self._trees is not None:
            self._trees.built[i] = TREE_STALE
        self._set_views(i)

    def _set_views(self, i: int) -> None:
        w = self._worlds[i]
        n_shapes = w._shapes.count
        buffers = w._step_buffers
        pairs, sensors = _pair_room(n_shapes), max(16, n_shapes)
        # Both tables take turns as the one a step writes (the parity), so both get the
        # room; grown keeping their rows, which hold the last step's ended events (fit
        # would start the buffers' afresh).
        for table in (w._contacts, buffers.contacts):
            table.reserve(pairs)
        for table in (w._sensors, buffers.sensors):
            table.reserve(sensors)
        buffers.fit(w._bodies.capacity, pairs)
        buffers.fit_asleep(pairs, int(w._params[0]["n_asleep"]))
        buffers.fit_vertices(w._shapes.vlocal.shape[0])
        buffers.fit_sensors(sensors)
        # The record's dt is written by step(); the counts and views as World.step does.
        _, wv, _ = w._begin_step(1.0)
        tv = buffers.view()
        wv1 = wv._replace(contacts=buffers.contacts.table, sensors=buffers.sensors.table)
        tv1 = tv._replace(contacts=w._contacts.table, sensors=w._sensors.table)
        entries = {"ws0": wv, "ts0": tv, "ws1": wv1, "ts1": tv1, "bodies": wv.bodies,
                   "shapes": wv.shapes, "joints": wv.joints, "cw": wv.contacts,
                   "cb": wv1.contacts, "ca": tv.asleep}
        if self._lists is None:  # the first world: every entry starts as its views
            self._lists_tier = _kl._tier  # before a call that may switch it
            self._lists = {name: _kl.filled(value, len(self._worlds))
                           for name, value in entries.items()}
            # Worlds laid out as this one (the copies of one world, made one after the
            # other in the arena) are stepped from these views, moved (_kernels.worlds).
            self._layout = tuple(_kl.filled(entries[name], 1)
                                 for name in ("ws0", "ts0", "ws1", "ts1"))
            self._layout_at = wv.bodies.pos.ctypes.data
        else:
            for name, value in entries.items():
                _kl.put(self._lists[name], i, value)
        L = self._lists
        self._delta[i] = _k.layout_delta(L["ws0"], L["ts0"], L["ws1"], L["ts1"],
                                         *self._layout, i,
                                         wv.bodies.pos.ctypes.data - self._layout_at)

    def _swap_tables(self, i: int) -> None:
        """Put world i's tables where World.step leaves them (parity 0)."""
        w = self._worlds[i]
        b = w._step_buffers
        w._contacts, b.contacts = b.contacts, w._contacts
        w._sensors, b.sensors = b.sensors, w._sensors
        self._parity[i] = 0

    def _settle(self, i: int) -> None:
        """World i as World.step would have left it."""
        w = self._worlds[i]
        if self._parity[i]:
            self._swap_tables(i)
            self._set_views(i)
        w._contacts.count = int(self._params[i]["n_contacts"])
        w._sensors.count = int(self._params[i]["n_sensors"])
        w._step_buffers.contacts.count = int(self._prev[i])
        w._step_buffers.asleep.count = int(self._params[i]["n_asleep"])
        w._step_buffers.sensors.count = int(self._prev_sensors[i])
        w.time = float(self.times[i])
        w._record = [0.0, -1, -1, -1]
        w._unsettle()
        w._wview = {}
        w._listed = {}

    def _refresh(self) -> None:
        """Views of the worlds read (and maybe changed) since the last call: each was
        settled (its tables in place, parity 0) when it was read. After a change of the
        kernels' tier, the lists are made again for the kernels now in use (plain lists for
        the pure-Python kernels, typed lists for the compiled ones)."""
        if self._lists_tier != _kl._tier:
            self._lists = None
            self._delta[:] = _k.NO_LAYOUT
            for i in range(len(self._worlds)):
                self._set_views(i)
        if not self._touched:
            return
        for i in sorted(self._touched):
            w = self._worlds[i]
            _check_world(f"world {i}", w)  # callbacks may have been added since it was read
            self.times[i] = w.time
            self._parity[i] = 0  # _settle left its tables in place
            self._set_views(i)
            for cache in self._slot_cache.values():
                cache[2][i] = False
            if self._trees is not None:
                self._trees.built[i] = TREE_STALE
        self._touched.clear()

    def _body_slots(self, ids) -> np.ndarray:
        return self._slots("ids", ids, _body_slots_of)

    def _joint_slots(self, joints) -> np.ndarray:
        return self._slots("joints", joints, _joint_slots_of)

    def _slots(self, name, ids, of_world) -> np.ndarray:
        """(n, k) slots of ids shared by every world (k,) or per world (n, k), checked once
        per world and kept until that world is replaced or read."""
        a = np.asarray(ids)
        if a.dtype == np.bool_ or not (np.issubdtype(a.dtype, np.integer) or a.size == 0):
            raise TypeError(f"{name}: expected ints, got dtype {a.dtype}")
        n = len(self._worlds)
        if a.ndim not in (1, 2) or (a.ndim == 2 and a.shape[0] != n):
            raise ValueError(f"{name}: expected shape (k,) or ({n}, k), got {a.shape}")
        a = a.astype(np.int64, copy=False)
        # Ids shared by every world are kept by value; per-world ids by shape, with the
        # rows that changed since the last call checked again (a world that was replaced,
        # as an environment's reset does, may number its bodies differently).
        key = (name, a.shape, a.tobytes() if a.ndim == 1 else None)
        cache = self._slot_cache.get(key)
        if cache is None:
            if len(self._slot_cache) > 32:
                self._slot_cache.clear()
            k = a.shape[-1]
            cache = self._slot_cache[key] = [a.copy(), np.zeros((n, k), np.int64),
                                             np.zeros(n, np.bool_)]
        elif a.ndim == 2:
            changed = (cache[0] != a).any(axis=1)
            if changed.any():
                cache[0][changed] = a[changed]
                cache[2][changed] = False
        self._refresh()
        todo = np.flatnonzero(~cache[2])
        if todo.size:
            rows = np.broadcast_to(a, (n, a.shape[-1]))
            for i in todo.tolist():
                try:
                    cache[1][i] = of_world(self._worlds[i], name, rows[i])
                except ValueError as exc:
                    raise ValueError(f"world {i}: {exc}") from None
            cache[2][todo] = True
        return cache[1]

    @staticmethod
    def _values(name, values, shape, row) -> np.ndarray:
        """Float values (n, k) + row, broadcast from what the caller gave, finite and within
        the coordinate bound."""
        v = _finite(name, values)
        try:
            v = np.broadcast_to(v, tuple(shape) + row)
        except ValueError:
            raise ValueError(f"{name}: expected shape {tuple(shape) + row} (or one that "
                             f"broadcasts to it), got {np.shape(values)}") from None
        V.check_bound(name, v)
        # A copy: always writable, so the kernels compile for one array type.
        return np.array(v, dtype=np.float64, order="C")

    @staticmethod
    def _where(where, shape) -> np.ndarray:
        if where is None:
            return np.ones(shape, np.bool_)
        w = np.asarray(where)
        if w.dtype != np.bool_:
            raise TypeError(f"where: expected a bool array, got dtype {w.dtype}")
        try:
            return np.array(np.broadcast_to(w, shape), order="C")
        except ValueError:
            raise ValueError(f"where: expected shape {shape}, got {w.shape}") from None


_NO_FILTER = QueryFilter()


class _Restored:
    """``count`` worlds restored from ``data``, each made when first asked for: a world's
    arrays and its step's room are then carved one after the other, every world laid out
    as the first."""

    def __init__(self, data: bytes, count: int) -> None:
        self.data, self.count = data, count

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i: int) -> World:
        return World.restore(self.data)


def _layout_token(w: World) -> tuple:
    """What a change of world ``w``'s layout changes: the stores' counts, capacities and
    free slots, the vertex pool's use, the joints' pair keys and the pair rules."""
    b, s, j = w._bodies, w._shapes, w._joints.store
    return (b.count, b.capacity, len(b.free), s.count, s.capacity, len(s.free),
            s.vlocal.shape[0], s.vcount_used, j.count, j.capacity, len(j.free), len(j.keys),
            len(w._rules.types), len(w._rules.bodies))


def _pair_room(n_shapes: int) -> int:
    """Pair rows a world's step tables get up front: every pair of shapes, up to a bound
    (a world that finds more grows them after the batch's call)."""
    return max(16, min(n_shapes * (n_shapes - 1) // 2, 64 + 4 * n_shapes))


def _finite(name, values) -> np.ndarray:
    try:
        v = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected numbers, got {values!r}") from None
    if not np.isfinite(v).all():
        raise ValueError(f"{name}: must be finite (no NaN or inf)")
    return v


def _check_world(name: str, w) -> None:
    if not isinstance(w, World):
        raise TypeError(f"{name}: expected a collide2d.World, got {type(w).__name__}")
    if w._systems:
        raise ValueError(f"{name}: has particle systems, which a batch does not step")
    if any(w._callbacks.values()) or w._joints.on_break:
        raise ValueError(f"{name}: has callbacks, which a batch does not run (read contact "
                         "events with WorldBatch.contact_events)")


def _body_slots_of(w: World, name: str, ids) -> np.ndarray:
    return _slots_of_ids(w._bodies, name, ids)


def _joint_slots_of(w: World, name: str, index) -> np.ndarray:
    handles = w._joints.handles
    bad = (index < 0) | (index >= len(handles))
    if bad.any():
        raise ValueError(f"{name}: {int(index[bad][0])} is not an index into world.joints "
                         f"(it has {len(handles)})")
    if name == "joints":
        kinds = {handles[int(j)].kind for j in index}
        no_motor = sorted(kinds - MOTOR_KINDS)
        if no_motor:
            raise ValueError(f"joints: {no_motor[0]} joints have no motor (motors: "
                             f"{', '.join(sorted(MOTOR_KINDS))})")
    return np.array([handles[int(j)]._slot for j in index], dtype=np.int64)

