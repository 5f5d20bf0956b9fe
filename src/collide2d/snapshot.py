"""Snapshots: a whole world as bytes and back, exactly, without ever unpickling.

``world.snapshot()`` returns bytes; ``World.restore(data)`` rebuilds a world that continues
bit-identically (same positions, velocities, warm-start impulses, sleep timers, free slots,
handle ids and creation order). ``copy.deepcopy(world)`` uses the same machinery.

Format, version 1 (all integers little-endian)::

    offset  size  field
    0       8     magic b"C2DSNAP\\0"
    8       2     format version (uint16) = 1
    10      2     reserved, 0
    12      4     header length H (uint32), at most 1 MiB
    16      8     payload length P (uint64)
    24      4     CRC-32 of the header and payload bytes
    28      4     reserved, 0
    32      H     header: a UTF-8 JSON object, checked against a fixed schema
    32 + H  P     payload: the arrays' raw little-endian bytes, back to back

The header holds the settings (gravity and the gravity the warm start was solved under,
damping, substeps, the most substeps and those the last step took, sleeping, integrator,
dynamic_response, the contact parameters and the time; headers written before the substep
pair existed read as fixed substeps, those without the solved gravity as solved under
their gravity), the store
counts, the registered systems, the character and tile-map settings, and the array
directory: ``[name, dtype, shape]`` per array, in payload order. Only
``float64, int64, int32, int8, bool`` arrays exist in the format; there is no object dtype,
no pickle, no code: loading reads numbers and checks them. ``restore`` verifies lengths first
(a declared size must match the bytes actually given, so nothing large is allocated on a
lie), then the checksum, then the schema, then every index the compiled kernels will follow
(shape -> body, vertex ranges, contact rows) and every invariant of the stores (free lists,
creation order, handle registry), and only then builds the world. Any failure raises
``ValueError`` (``TypeError`` if ``data`` is not bytes) and leaves nothing behind.

Saved: settings; every field of the body and shape stores (rows up to the high-water mark,
dead slots included, so ids and generations continue); free lists; the vertex pool; the
contact table (warm starting), the last step's event rows and sensor overlaps; the order of
``world.bodies`` and each body's shapes; each Shape handle's kind and rows; tile maps (grid,
responses, material, their body and chunk shapes) and the character movers' state (marks,
floors, shape responses, settings); and the state of systems that implement the snapshot
protocol below (``Particles`` does). Not saved: callbacks (functions are not data; register
them again after ``restore``; ``deepcopy`` keeps them) and caches rebuilt on demand
(world-space vertices, the query tree, the tile pool).

Systems protocol
----------------
An object in ``world._systems`` (particles, ...) takes part by implementing

* ``_snapshot_kind`` (class attribute, str): its registry key, e.g. ``"particles"``;
* ``_snapshot_arrays(self) -> dict[str, numpy.ndarray]``: its whole state as numeric arrays
  (float64 / int64 / int32 / int8 / bool; scalars as 0-d arrays), names ``[A-Za-z0-9_]+``;
* ``_snapshot_restore(cls, world, arrays) -> object`` (classmethod): validate the arrays
  (raise ``ValueError`` on anything inconsistent) and return the restored system attached to
  ``world``, which already holds its restored bodies and shapes. It must not append itself
  to ``world._systems``: restore does that, in the saved order.

and registering its class once with :func:`register_system`. A kind read from a snapshot is
only ever looked up in that registry: data never names code to import. A system without the
protocol makes ``snapshot()`` raise ``TypeError`` (``deepcopy`` still works: it copies such
systems with ``copy.deepcopy``).

Example
-------
>>> import collide2d as c2d
>>> world = c2d.World(gravity=(0, -10))
>>> _ = world.add_body(kind="static").add_box(10, 1)
>>> ball = world.add_body(position=(0, 3))
>>> _ = ball.add_circle(0.5)
>>> world.step(1 / 60)
>>> data = world.snapshot()
>>> twin = c2d.World.restore(data)
>>> world.step(1 / 60); twin.step(1 / 60)
>>> bool((twin.positions() == world.positions()).all())
True
"""

from __future__ import annotations

import copy
import heapq
import json
import math
import re
import struct
import zlib

import numpy as np

from . import _store as S
from . import _validate as V
from . import joint as _joint

MAGIC = b"C2DSNAP\x00"
VERSION = 1
_PREFIX = struct.Struct("<8sHHIQII")  # magic, version, reserved, H, P, crc32, reserved
MAX_HEADER = 1 << 20

_DTYPES = {
    "<f8": np.dtype("<f8"),
    "<i8": np.dtype("<i8"),
    "<i4": np.dtype("<i4"),
    "|i1": np.dtype("|i1"),
    "|b1": np.dtype("|b1"),
}
_MAX_NDIM = 4
_MAX_DIM = 1 << 40
_NAME = re.compile(r"[A-Za-z0-9_]{1,64}\Z")

_SHAPE_KINDS = ("circle", "polygon", "segment")

# The contact and sensor tables, as the format names them: (header key, store, rows,
# fields). ``rows`` is "current" (the world's table after the last step) or "ended" (the
# rows of the table that step replaced which ended in it). A tuple of fields is saved as
# one array per field, ``event.<key>.<i>`` in the store's saved order; one field as
# ``event.<key>``. Walking the stores' ``SAVED`` schemas, a field added there is saved.
_EVENT_STATE = (
    ("_contacts", "_contacts", "current", S.ContactStore.SAVED),
    ("_began", "_contacts", "current", "began"),
    ("_impulses", "_contacts", "current", "impulse"),
    ("_ended_rows", "_contacts", "ended", S.ContactStore.SAVED),
    ("_sensors", "_sensors", "current", S.SensorStore.SAVED),
    ("_sensor_began", "_sensors", "current", "began"),
    ("_sensor_ended", "_sensors", "ended", S.SensorStore.SAVED),
)
# (key, rows must be live and pairs sorted and unique): tables whose shape rows are checked.
_ROW_COLUMNS = (("_contacts", True), ("_ended_rows", False), ("_sensors", True),
                ("_sensor_ended", False))
_MAX_POINTS = 2

_FLOAT_SETTINGS = {
    # name: (positive, nonnegative)
    "damping": (False, True),
    "contact_hertz": (True, True),
    "contact_damping_ratio": (False, True),
    "contact_push_speed": (False, True),
    "restitution_threshold": (False, True),
    "arcade_static_speed": (False, True),
    "time": (False, False),
}
_SUBSTEP_KEYS = ("max_substeps", "substeps_used")
# Settings saved only when not their default, so default worlds save the bytes they did
# before the setting existed (and files written then restore with the default).
_OPTIONAL_FLOATS = {"joint_damping_ratio": _joint.JOINT_DAMPING_RATIO}
# Solver extras (World settings, all on by default).
_EXTRAS = ("mass_ratio_passes", "shed_weight", "restitution_energy_cap", "block_impacts")
# Extras that became part of the solver's base: still accepted in extras_off (files written
# when they could be switched off) and ignored, since the base has no switch for them.
_RETIRED_EXTRAS = ("push_out",)
_SETTING_KEYS = ("gravity", "solved_gravity", "damping", "substeps", *_SUBSTEP_KEYS,
                 "sleeping", "integrator", "dynamic_response", "contact_hertz",
                 "contact_damping_ratio", "contact_push_speed", "restitution_threshold",
                 "arcade_static_speed", "time")

# World attributes that snapshot/restore rebuild (deepcopy copies the others generically).
_OWNED = frozenset(("_bodies", "_shapes", "bodies", "_shape_handles", "_gravity",
                    "_solved_gravity", "_damping", "_substeps", "_max_substeps",
                    "_substeps_used", "_sleeping", "_integrator", "_dynamic_response",
                    "contact_hertz", "contact_damping_ratio", "contact_push_speed",
                    "joint_damping_ratio", "restitution_threshold", "arcade_static_speed",
                    "_time", "_systems",
                    "_shapes_dirty", "_locked", "_params", "_contacts", "_sensors",
                    "_step_buffers", "_record", "_still", "_wview", "_listed", "_stepping",
                    "_queries",
                    "_rules", "_joints"))

_SYSTEMS: dict[str, type] = {}


def register_system(cls: type) -> type:
    """Register a system class for snapshots under ``cls._snapshot_kind`` (see the module
    docstring for the protocol). Returns ``cls``, so it also works as a decorator."""
    kind = getattr(cls, "_snapshot_kind", None)
    if not isinstance(kind, str) or not _NAME.match(kind):
        raise ValueError("cls: _snapshot_kind must be a short [A-Za-z0-9_] string")
    for attr in ("_snapshot_arrays", "_snapshot_restore"):
        if not callable(getattr(cls, attr, None)):
            raise TypeError(f"cls: a snapshot system needs {attr}")
    other = _SYSTEMS.get(kind)
    if other is not None and other is not cls:
        raise ValueError(f"cls: snapshot kind {kind!r} is already registered to {other!r}")
    _SYSTEMS[kind] = cls
    return cls


def _corrupt(msg: str) -> ValueError:
    return ValueError(f"data: not a valid collide2d snapshot: {msg}")


# ---------------------------------------------------------------------------- collect


def _collect(world, extras: bool = True) -> tuple[dict, dict[str, np.ndarray]]:
    """The world's state as (header, arrays); arrays are views, not copies. ``extras``
    False leaves systems and character state out (deepcopy copies them itself)."""
    settings = {
        "gravity": [float(g) for g in world._gravity],
        "solved_gravity": [float(g) for g in world._solved_gravity],
        "damping": float(world._damping),
        "substeps": int(world._substeps),
        "max_substeps": int(world._max_substeps or 0),
        "substeps_used": int(world._substeps_used),
        "sleeping": bool(world._sleeping),
        "integrator": str(world._integrator),
        "dynamic_response": str(world._dynamic_response),
    }
    for name, (positive, nonneg) in _FLOAT_SETTINGS.items():
        if name != "damping":
            settings[name] = V.finite_scalar(name, getattr(world, name), positive=positive,
                                             nonnegative=nonneg)
    settings = {k: settings[k] for k in _SETTING_KEYS}
    for name, default in _OPTIONAL_FLOATS.items():
        value = V.finite_scalar(name, getattr(world, name), nonnegative=True)
        if value != default:
            settings[name] = value
    off = [name for name in _EXTRAS if not getattr(world, name)]
    if off:  # absent when all are on, so default worlds save the bytes they always did
        settings["extras_off"] = off

    b, s = world._bodies, world._shapes
    arrays: dict[str, np.ndarray] = {}
    _save_fields(b, "body.", arrays)
    arrays["body.free"] = _free_list(b)
    _save_fields(s, "shape.", arrays)
    arrays["shape.free"] = _free_list(s)
    arrays["shape.vlocal"] = s.vlocal[: s.vcount_used]
    rules = world._rules.view()
    for name in rules._fields:  # only when there are rules of that kind
        if getattr(rules, name).size:
            arrays["rules." + name] = getattr(rules, name)

    # Handle registry: every Shape handle, by body (creation order) then by the body's list.
    handles = [sh for body in world.bodies for sh in body._shapes]
    arrays["handle.owner"] = np.fromiter((sh._rows[0] for sh in handles), np.int64,
                                         len(handles))
    arrays["handle.kind"] = np.fromiter((_SHAPE_KINDS.index(sh._kind) for sh in handles),
                                        np.int8, len(handles))
    arrays["handle.nrows"] = np.fromiter((len(sh._rows) for sh in handles), np.int64,
                                         len(handles))
    arrays["handle.rows"] = np.fromiter((r for sh in handles for r in sh._rows), np.int64,
                                        int(arrays["handle.nrows"].sum()))

    events = {}
    for key, store, rows, fields in _EVENT_STATE:
        table = _event_rows(world, store, rows)
        if isinstance(fields, tuple):
            events[key] = len(fields)
            for i, name in enumerate(fields):
                arrays[f"event.{key[1:]}.{i}"] = getattr(table, name)
        else:
            events[key] = -1
            arrays[f"event.{key[1:]}"] = getattr(table, fields)

    kinds = []
    for i, system in enumerate(world._systems if extras else ()):
        kind = getattr(system, "_snapshot_kind", None)
        if kind is None or _SYSTEMS.get(kind) is not type(system):
            raise TypeError(f"world: system {type(system).__name__} does not implement the "
                            "snapshot protocol (see collide2d.snapshot)")
        state = system._snapshot_arrays()
        for name, arr in state.items():
            if not isinstance(name, str) or not _NAME.match(name):
                raise ValueError(f"world: system {kind} array name {name!r} is not allowed")
            arrays[f"system.{i}.{name}"] = np.asarray(arr)
        kinds.append(kind)

    header = {
        "settings": settings,
        "bodies": {"count": int(b.count)},
        "shapes": {"count": int(s.count), "vcount_used": int(s.vcount_used),
                   "vdead": int(s.vdead)},
        "events": events,
        "systems": kinds,
        "characters": _collect_characters(world, arrays) if extras else None,
    }
    joints = _joint.snapshot_section(world, arrays)
    if joints is not None:  # absent in worlds that never had a joint: their bytes as before
        header["joints"] = joints
    return header, arrays


def _save_fields(store, prefix: str, arrays: dict) -> None:
    """A slot store's saved fields, rows 0..count-1; optional ones only when used."""
    for name, (_, _, fill) in store.saved_fields().items():
        arr = getattr(store, name)[: store.count]
        if name in store.OPTIONAL and np.all(arr == fill):
            continue
        arrays[prefix + name] = arr


def _take_fields(store_cls, prefix: str, arrays: dict, n: int, expected: set) -> dict:
    """A slot store's saved fields from a snapshot, checked; optional ones it lacks are
    filled in."""
    out = {}
    for name, (shape, dtype, fill) in store_cls.saved_fields().items():
        key = prefix + name
        if name in store_cls.OPTIONAL and key not in arrays:
            out[name] = np.full((n,) + shape, fill, dtype=dtype)
            continue
        out[name] = _take(arrays, key, dtype, (n,) + shape)
        expected.add(key)
    return out


def _free_list(store) -> np.ndarray:
    """A slot store's free slots as saved: highest first (the format's order)."""
    return np.asarray(sorted(store.free, reverse=True), dtype=np.int64)


def _free_heap(saved: np.ndarray) -> list[int]:
    free = [int(x) for x in saved]
    heapq.heapify(free)
    return free


def _event_rows(world, store: str, rows: str):
    if store == "_contacts":
        return world._contact_rows() if rows == "current" else world._ended_contacts()
    return world._sensors.rows() if rows == "current" else world._ended_sensors()


# ---------------------------------------------------------------------------- encode / decode


def _encode(header: dict, arrays: dict[str, np.ndarray]) -> bytes:
    directory = []
    chunks = []
    for name, arr in arrays.items():
        a = np.asarray(arr)
        dt = a.dtype.newbyteorder("<") if a.dtype.byteorder not in ("|", "<") else a.dtype
        if dt.str not in _DTYPES:
            raise TypeError(f"world: array {name} has dtype {a.dtype}, which snapshots do not "
                            "store (float64, int64, int32, int8 or bool only)")
        a = np.asarray(a, dtype=dt, order="C")   # (ascontiguousarray would make 0-d 1-d)
        directory.append([name, dt.str, list(a.shape)])
        chunks.append(a.tobytes())
    head = dict(header)
    head["arrays"] = directory
    text = json.dumps(head, separators=(",", ":"), allow_nan=False).encode("utf-8")
    payload = b"".join(chunks)
    crc = zlib.crc32(payload, zlib.crc32(text))
    return _PREFIX.pack(MAGIC, VERSION, 0, len(text), len(payload), crc, 0) + text + payload


def _reject_constant(name):
    raise ValueError(f"non-finite number {name}")


def _no_duplicates(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k!r}")
        out[k] = v
    return out


def _decode(data) -> tuple[dict, dict[str, np.ndarray]]:
    """Bytes to (header, arrays) after the structural checks; arrays are fresh copies."""
    if isinstance(data, str) or not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data: expected bytes from World.snapshot(), got {type(data).__name__}")
    buf = memoryview(data).cast("B") if isinstance(data, memoryview) else memoryview(data)
    if len(buf) < _PREFIX.size:
        raise _corrupt(f"{len(buf)} bytes is shorter than the {_PREFIX.size}-byte prefix")
    magic, version, res1, hlen, plen, crc, res2 = _PREFIX.unpack_from(buf, 0)
    if magic != MAGIC:
        raise _corrupt("wrong magic bytes (not a snapshot, or damaged)")
    if version != VERSION:
        raise _corrupt(f"format version {version} is not supported (this collide2d reads "
                       f"version {VERSION})")
    if res1 or res2:
        raise _corrupt("reserved prefix fields are not zero")
    if hlen > MAX_HEADER:
        raise _corrupt(f"declared header length {hlen} exceeds {MAX_HEADER}")
    if _PREFIX.size + hlen + plen != len(buf):
        raise _corrupt(f"declared lengths ({_PREFIX.size} + {hlen} + {plen} bytes) do not "
                       f"match the {len(buf)} bytes given (truncated or padded)")
    body = buf[_PREFIX.size:]
    if zlib.crc32(body) != crc:
        raise _corrupt("checksum mismatch (damaged bytes)")
    try:
        header = json.loads(bytes(body[:hlen]).decode("utf-8"),
                            parse_constant=_reject_constant, object_pairs_hook=_no_duplicates)
    except (ValueError, RecursionError) as exc:
        raise _corrupt(f"header is not valid JSON ({exc})") from None
    _check_header_schema(header)

    arrays: dict[str, np.ndarray] = {}
    offset = 0
    payload = body[hlen:]
    for entry in header["arrays"]:
        if (not isinstance(entry, list) or len(entry) != 3 or not isinstance(entry[0], str)
                or not isinstance(entry[1], str) or not isinstance(entry[2], list)):
            raise _corrupt("array directory entries must be [name, dtype, shape]")
        name, dts, shape = entry
        if name in arrays:
            raise _corrupt(f"array {name!r} listed twice")
        dt = _DTYPES.get(dts)
        if dt is None:
            raise _corrupt(f"array {name!r} has dtype {dts!r}; only {sorted(_DTYPES)} exist "
                           "in the format (never object arrays)")
        if len(shape) > _MAX_NDIM or not all(
                type(d) is int and 0 <= d <= _MAX_DIM for d in shape):
            raise _corrupt(f"array {name!r} has an invalid shape {shape!r}")
        nbytes = dt.itemsize * math.prod(shape)
        if offset + nbytes > plen:
            raise _corrupt(f"array {name!r} ({nbytes} bytes) runs past the payload end")
        raw = np.frombuffer(payload, dtype=np.uint8, count=nbytes, offset=offset)
        if dt.kind == "b" and raw.size and raw.max() > 1:
            raise _corrupt(f"array {name!r} holds booleans other than 0 and 1")
        native = dt.newbyteorder("=")
        arrays[name] = raw.view(dt).reshape(tuple(shape)).astype(native, copy=True)
        offset += nbytes
    if offset != plen:
        raise _corrupt(f"payload has {plen - offset} bytes not described by the directory")
    return header, arrays


def _expect_keys(obj, keys, where):
    if not isinstance(obj, dict) or set(obj) != set(keys):
        got = sorted(obj) if isinstance(obj, dict) else type(obj).__name__
        raise _corrupt(f"{where} must have exactly the keys {sorted(keys)}, got {got}")


def _count(value, where, hi=_MAX_DIM):
    if type(value) is not int or not 0 <= value <= hi:
        raise _corrupt(f"{where} must be an integer in [0, {hi}], got {value!r}")
    return value


def _check_header_schema(h) -> None:
    _expect_keys(h, ("settings", "bodies", "shapes", "events", "systems", "characters",
                     "arrays", *(("joints",) if isinstance(h, dict) and "joints" in h else ())),
                 "header")
    st = h["settings"]
    if isinstance(st, dict) and not set(_SUBSTEP_KEYS) & set(st):
        # Written before adaptive substeps: fixed substeps, the warm start at that count.
        st.update(max_substeps=0, substeps_used=st.get("substeps"))
    if isinstance(st, dict) and "solved_gravity" not in st:
        # Written before the warm start shed weight: solved under the gravity it names.
        st["solved_gravity"] = st.get("gravity")
    # extras_off is saved only when some solver extra is off, the optional floats only
    # when not their defaults.
    optional = [k for k in ("extras_off", *_OPTIONAL_FLOATS) if k in st]
    _expect_keys(st, (*_SETTING_KEYS, *optional), "settings")
    off = st.get("extras_off", [])
    if (not isinstance(off, list) or len(set(off)) != len(off)
            or not all(isinstance(k, str) and k in _EXTRAS + _RETIRED_EXTRAS for k in off)):
        raise _corrupt(f"settings.extras_off must list solver extras among {list(_EXTRAS)}")
    for name in ("gravity", "solved_gravity"):
        g = st[name]
        if not (isinstance(g, list) and len(g) == 2
                and all(type(x) is float and math.isfinite(x) for x in g)):
            raise _corrupt(f"settings.{name} must be two finite floats")
    for name, (positive, nonneg) in (*_FLOAT_SETTINGS.items(),
                                     *((k, (False, True)) for k in _OPTIONAL_FLOATS if k in st)):
        v = st[name]
        if type(v) is not float or not math.isfinite(v) or (positive and v <= 0.0) or (
                nonneg and v < 0.0):
            raise _corrupt(f"settings.{name} must be a finite float"
                           + (" > 0" if positive else " >= 0" if nonneg else "")
                           + f", got {v!r}")
    if st["damping"] > 1.0:
        raise _corrupt("settings.damping must be in [0, 1]")
    for name, low in (("substeps", 1), ("max_substeps", 0), ("substeps_used", 1)):
        if type(st[name]) is not int or not low <= st[name] <= S.MAX_SUBSTEPS:
            raise _corrupt(f"settings.{name} must be an int in [{low}, {S.MAX_SUBSTEPS}], "
                           f"got {st[name]!r}")
    if type(st["sleeping"]) is not bool:
        raise _corrupt("settings.sleeping must be true or false")
    for name in ("integrator", "dynamic_response"):
        if type(st[name]) is not str:
            raise _corrupt(f"settings.{name} must be a string")
    _expect_keys(h["bodies"], ("count",), "bodies")
    _count(h["bodies"]["count"], "bodies.count")
    _expect_keys(h["shapes"], ("count", "vcount_used", "vdead"), "shapes")
    for k in ("count", "vcount_used", "vdead"):
        _count(h["shapes"][k], f"shapes.{k}")
    ev = h["events"]
    if not isinstance(ev, dict) or any(
            type(n) is not int or not -1 <= n <= 64 for n in ev.values()):
        raise _corrupt("events must map attribute names to tuple lengths")
    sy = h["systems"]
    if not isinstance(sy, list) or not all(isinstance(k, str) and _NAME.match(k) for k in sy):
        raise _corrupt("systems must be a list of registered kind names")
    if not isinstance(h["arrays"], list) or len(h["arrays"]) > 100_000:
        raise _corrupt("arrays must be a list of [name, dtype, shape] entries")


# ---------------------------------------------------------------------------- validate


def _take(arrays, name, dtype, shape):
    """arrays[name], checked to have this dtype and shape (None: any length)."""
    arr = arrays.get(name)
    if arr is None:
        raise _corrupt(f"array {name!r} is missing")
    if arr.dtype != np.dtype(dtype) or arr.ndim != len(shape) or any(
            want is not None and got != want for got, want in zip(arr.shape, shape,
                                                                   strict=True)):
        raise _corrupt(f"array {name!r} has dtype {arr.dtype} and shape {arr.shape}; "
                       f"expected {np.dtype(dtype)} and {tuple(shape)}")
    return arr


def _flag_bits(prefix: str) -> int:
    """Every flag bit _store defines for bodies ("B_") or shapes ("S_")."""
    bits = 0
    for name, value in vars(S).items():
        if name.startswith(prefix) and type(value) is int:
            bits |= value
    return bits


def _check(cond, msg):
    if not cond:
        raise _corrupt(msg)


def _validate(header, arrays) -> None:
    """Check every invariant the world and its kernels rely on; raise ValueError if any
    fails."""
    expected = set()
    nb = header["bodies"]["count"]
    ns = header["shapes"]["count"]
    nv = header["shapes"]["vcount_used"]

    # -- bodies
    bf = _take_fields(S.BodyStore, "body.", arrays, nb, expected)
    free_b = _take(arrays, "body.free", np.int64, (None,))
    expected.add("body.free")
    alive = (bf["flags"] & S.B_ALIVE) != 0
    _check(not np.any(bf["flags"] & ~_flag_bits("B_")), "body flags hold unknown bits")
    _check(np.all(bf["flags"][~alive] == 0), "removed body slots must have flags 0")
    _check(np.all(np.isin(bf["kind"], (S.STATIC, S.KINEMATIC, S.DYNAMIC))), "unknown body kind")
    _check(np.array_equal(free_b, np.flatnonzero(~alive)[::-1]),
           "body free list does not match the removed slots")
    _check(np.all(bf["generation"] >= 0), "negative body generation")
    n_live = int(alive.sum())
    _check(np.array_equal(np.sort(bf["order"][alive]), np.arange(n_live)),
           "body creation order is not a permutation of the live bodies")
    for name in ("vel", "angvel", "pos", "angle", "local_com", "mass", "inertia", "inv_mass",
                 "inv_inertia", "force", "torque", "damping", "angular_damping",
                 "gravity_scale", "sleep_time"):
        _check(np.all(np.isfinite(bf[name][alive])), f"body {name} is not finite")
    for name in ("mass", "inertia", "inv_mass", "inv_inertia", "sleep_time", "damping",
                 "angular_damping"):
        _check(np.all(bf[name][alive] >= 0.0), f"body {name} is negative")
    _check(np.all(bf["damping"][alive] <= 1.0) and np.all(bf["angular_damping"][alive] <= 1.0),
           "body damping above 1")
    dyn = alive & (bf["kind"] == S.DYNAMIC)
    _check(np.all(bf["inv_mass"][dyn] > 0.0), "a dynamic body has no inverse mass")

    # -- shapes
    sf = _take_fields(S.ShapeStore, "shape.", arrays, ns, expected)
    free_s = _take(arrays, "shape.free", np.int64, (None,))
    vlocal = _take(arrays, "shape.vlocal", np.float64, (nv, 2))
    expected.update(("shape.free", "shape.vlocal"))
    s_alive = (sf["flags"] & S.S_ALIVE) != 0
    _check(not np.any(sf["flags"] & ~_flag_bits("S_")), "shape flags hold unknown bits")
    _check(np.all(sf["flags"][~s_alive] == 0) and np.all(sf["body"][~s_alive] == -1),
           "removed shape rows must have flags 0 and body -1")
    _check(np.array_equal(free_s, np.flatnonzero(~s_alive)[::-1]),
           "shape free list does not match the removed rows")
    _check(np.all(sf["generation"] >= 0), "negative shape generation")
    sb = sf["body"][s_alive]
    _check(np.all((sb >= 0) & (sb < nb)), "a shape names a body slot out of range")
    _check(np.all(alive[sb]), "a live shape belongs to a removed body")
    own = sf["owner"][s_alive]
    _check(np.all((own >= 0) & (own < ns)), "a shape owner is out of range")
    _check(np.all(s_alive[own]) and np.all(sf["owner"][own] == own)
           and np.all(sf["body"][own] == sb), "shape owners are inconsistent")
    vs, vc = sf["vstart"][s_alive], sf["vcount"][s_alive]
    _check(np.all((vs >= 0) & (vc >= 1) & (vc <= nv) & (vs <= nv - vc)),
           "a shape's vertex range lies outside the vertex pool")
    _check(header["shapes"]["vdead"] == nv - int(vc.sum()),
           "vertex pool bookkeeping (vdead) is inconsistent")
    _check(bool(np.all(np.isfinite(vlocal))), "vertices are not finite")
    for name in ("radius", "density", "friction", "elasticity", "aabb", "one_way"):
        _check(np.all(np.isfinite(sf[name][s_alive])), f"shape {name} is not finite")
    ow = np.hypot(sf["one_way"][:, 0], sf["one_way"][:, 1])
    _check(np.all((ow == 0.0) | (np.abs(ow - 1.0) < 1e-12)),
           "a shape's one-way direction is neither unit nor zero")
    _check(np.all(sf["radius"][s_alive] >= 0.0) and np.all(sf["density"][s_alive] > 0.0)
           and np.all(sf["friction"][s_alive] >= 0.0)
           and np.all(sf["elasticity"][s_alive] >= 0.0), "shape material out of range")
    for name in ("category", "mask"):
        _check(np.all((sf[name] >= 0) & (sf[name] <= 0xFFFFFFFF)), f"shape {name} exceeds 32 bits")
    _check_polygons(vlocal, vs[vc >= 3], vc[vc >= 3])

    # -- handle registry
    h_owner = _take(arrays, "handle.owner", np.int64, (None,))
    h_kind = _take(arrays, "handle.kind", np.int8, (h_owner.shape[0],))
    h_nrows = _take(arrays, "handle.nrows", np.int64, (h_owner.shape[0],))
    _check(np.all(h_nrows >= 1) and int(h_nrows.sum()) <= ns, "handle row counts are invalid")
    h_rows = _take(arrays, "handle.rows", np.int64, (int(h_nrows.sum()),))
    expected.update(("handle.owner", "handle.kind", "handle.nrows", "handle.rows"))
    _check(np.all((h_kind >= 0) & (h_kind < len(_SHAPE_KINDS))), "unknown shape kind")
    live_rows = np.flatnonzero(s_alive)
    _check(np.array_equal(np.sort(h_rows), live_rows),
           "shape handles do not cover the live shape rows exactly once")
    row_owner = np.repeat(h_owner, h_nrows)
    first = np.concatenate(([0], np.cumsum(h_nrows)[:-1])) if h_nrows.size else h_nrows
    _check(np.all(sf["owner"][h_rows] == row_owner) and np.all(h_rows[first] == h_owner),
           "a shape handle's rows do not belong to it")
    row_kind = np.repeat(h_kind, h_nrows)
    row_vc = sf["vcount"][h_rows]
    row_r = sf["radius"][h_rows]
    _check(np.all(row_vc[row_kind == 0] == 1) and np.all(row_r[row_kind == 0] > 0.0)
           and np.all(h_nrows[h_kind == 0] == 1), "a circle is not one centre with radius > 0")
    _check(np.all(row_vc[row_kind == 1] >= 3), "a polygon part has fewer than 3 vertices")
    _check(np.all(row_vc[row_kind == 2] == 2) and np.all(h_nrows[h_kind == 2] == 1),
           "a segment is not one row of 2 vertices")
    seg = sf["vstart"][h_rows[row_kind == 2]]
    _check(not np.any(np.all(vlocal[seg] == vlocal[seg + 1], axis=1)),
           "a segment has equal endpoints")

    # -- event state: the layout of _EVENT_STATE, rows in range
    events = header["events"]
    keys = [key for key, *_ in _EVENT_STATE]
    _check(list(events) == keys, f"event state {list(events)} differs from {keys}")
    loaded = {}
    for key, store, _, fields in _EVENT_STATE:
        schema = (S.ContactStore if store == "_contacts" else S.SensorStore).FIELDS
        names = fields if isinstance(fields, tuple) else (fields,)
        _check(events[key] == (len(names) if isinstance(fields, tuple) else -1),
               f"event state {key} has the wrong number of arrays")
        got = {}
        for i, name in enumerate(names):
            arr_key = f"event.{key[1:]}.{i}" if isinstance(fields, tuple) else f"event.{key[1:]}"
            shape, dtype, _ = schema[name]
            got[name] = _take(arrays, arr_key, dtype, (None,) + shape)
            expected.add(arr_key)
        _check(len({g.shape[0] for g in got.values()}) == 1,
               f"event state {key} has ragged columns")
        _check(all(np.all(np.isfinite(g)) for g in got.values() if g.dtype.kind == "f"),
               f"event state {key} holds non-finite numbers")
        loaded[key] = got
    for key, live in _ROW_COLUMNS:
        a, b = loaded[key]["a"], loaded[key]["b"]
        _check(np.all((a >= 0) & (a < ns) & (b >= 0) & (b < ns)),
               f"event state {key} names shape rows out of range")
        if live:
            _check(np.all(s_alive[a]) and np.all(s_alive[b]) and np.all(a < b),
                   f"event state {key} names removed rows or unordered pairs")
            _check(np.all((a[1:] > a[:-1]) | ((a[1:] == a[:-1]) & (b[1:] > b[:-1]))),
                   f"event state {key} is not sorted by pair")
        if "count" in loaded[key]:
            cnt = loaded[key]["count"]
            _check(np.all((cnt >= 0) & (cnt <= _MAX_POINTS)), f"{key} point counts invalid")
            resp = loaded[key]["resp"]
            _check(np.all((resp >= 0) & (resp <= 2)), f"{key} responses invalid")
    # Per-row results belong to the rows of their table.
    for key, base in (("_began", "_contacts"), ("_impulses", "_contacts"),
                      ("_sensor_began", "_sensors")):
        _check(next(iter(loaded[key].values())).shape[0]
               == loaded[base]["a"].shape[0], f"event state {key} is not aligned with {base}")

    # -- pair rules (arrays present only when there are rules)
    tk = arrays.get("rules.type_keys")
    if tk is not None or "rules.type_resp" in arrays:
        tk = _take(arrays, "rules.type_keys", np.int64, (None,))
        tr = _take(arrays, "rules.type_resp", np.int8, (tk.shape[0],))
        expected.update(("rules.type_keys", "rules.type_resp"))
        lo, hi = tk >> 32, tk & 0xFFFFFFFF
        _check(np.all((lo >= 0) & (lo <= hi) & (hi < 2**31)) and np.all(np.diff(tk) > 0),
               "pair rules name invalid or unsorted collision types")
        _check(np.all((tr >= 0) & (tr <= 2)), "pair rules hold unknown responses")
    if "rules.body_keys" in arrays:
        bk = _take(arrays, "rules.body_keys", np.int64, (None,))
        expected.add("rules.body_keys")
        lo, hi = bk >> 32, bk & 0xFFFFFFFF
        _check(np.all((lo >= 0) & (lo < hi) & (hi < nb)) and np.all(np.diff(bk) > 0),
               "ignored body pairs are invalid or unsorted")
        _check(np.all(alive[lo]) and np.all(alive[hi]), "ignored body pairs name removed bodies")

    # -- character movers and tile maps
    expected.update(_validate_characters(header["characters"], arrays, alive, s_alive, sf, nb))

    # -- joints
    expected.update(_joint.validate_section(header.get("joints"), arrays, alive.astype(bool),
                                            _corrupt))

    # -- systems
    for i, kind in enumerate(header["systems"]):
        _check(kind in _SYSTEMS, f"system kind {kind!r} is not registered")
        expected.update(n for n in arrays if n.startswith(f"system.{i}."))
    unknown = set(arrays) - expected
    _check(not unknown, f"unexpected arrays {sorted(unknown)[:5]}")


def _check_polygons(vlocal, vs, vc) -> None:
    """Every polygon part convex, counter-clockwise, with positive area (vectorised)."""
    if vs.size == 0:
        return
    part = np.repeat(np.arange(vs.size), vc)
    idx = np.arange(int(vc.sum())) - np.repeat(np.cumsum(vc) - vc, vc)   # index in its part
    cur = np.repeat(vs, vc) + idx
    nxt = np.repeat(vs, vc) + (idx + 1) % np.repeat(vc, vc)
    nn = np.repeat(vs, vc) + (idx + 2) % np.repeat(vc, vc)
    p0, p1, p2 = vlocal[cur], vlocal[nxt], vlocal[nn]
    e0, e1 = p1 - p0, p2 - p1
    cross = e0[:, 0] * e1[:, 1] - e0[:, 1] * e1[:, 0]
    lens = np.hypot(e0[:, 0], e0[:, 1]) * np.hypot(e1[:, 0], e1[:, 1])
    _check(np.all(lens > 0.0), "a polygon part has repeated vertices")
    _check(np.all(cross >= -1e-12 * lens), "a polygon part is not convex counter-clockwise")
    turn = np.bincount(part, weights=np.arctan2(cross, np.einsum("ij,ij->i", e0, e1)),
                       minlength=vs.size)
    _check(np.all(np.abs(turn - 2.0 * math.pi) < 1e-6), "a polygon part winds more than once")
    base = vlocal[np.repeat(vs, vc)]
    d0, d1 = p0 - base, p1 - base
    area2 = np.bincount(part, weights=d0[:, 0] * d1[:, 1] - d0[:, 1] * d1[:, 0],
                        minlength=vs.size)
    _check(np.all(area2 > 0.0), "a polygon part has zero area")


# ---------------------------------------------------------------------------- characters
# Character movers and tile maps (collide2d.character, collide2d.tilemap) keep their state in
# the world's Characters component (``world._characters``): settings, the movers' store
# (per-body-slot and per-shape-row arrays, saved by walking its schema), and the tile maps
# (grid, classes, material, responses, their static body and one Shape per 16 x 16 chunk).

_CHAR_ARRAYS = {  # name: (dtype, trailing shape, group: arrays of a group share a length)
    name: (dtype, shape, S.CharacterStore.GROUP[name])
    for name, (shape, dtype, _) in S.CharacterStore.saved_fields().items()
}
_TILEMAP_KEYS = ("tile_size", "origin", "material", "responses", "body", "chunks")


def _collect_characters(world, arrays) -> dict | None:
    ch = world._characters
    if ch.pristine():
        # Nothing set (only reads or failed calls): saved as absent, so such a read does not
        # change the snapshot.
        return None
    for name in _CHAR_ARRAYS:
        arr = getattr(ch.store, name)
        if name in S.CharacterStore.OPTIONAL and np.all(arr == S.CharacterStore.FIELDS[name][2]):
            continue  # a feature the world does not use leaves its bytes as they were
        arrays["char." + name] = arr
    maps = []
    for k, tm in enumerate(ch.maps):
        arrays[f"char.tilemap.{k}.grid"] = tm._grid
        arrays[f"char.tilemap.{k}.cls"] = tm._cls
        maps.append({
            "tile_size": float(tm.tile_size),
            "origin": [float(tm.origin[0]), float(tm.origin[1])],
            "material": {str(key): (v if isinstance(v, bool) else
                                    int(v) if isinstance(v, (int, np.integer)) else float(v))
                         for key, v in tm._material.items()},
            "responses": [[int(v), int(code)] for v, code in tm._responses.items()],
            "body": [int(tm.body._slot), int(tm.body._gen)],
            "chunks": [[int(ci), int(cj), int(sh._rows[0])]
                       for (ci, cj), sh in tm._chunks.items() if sh.alive],
        })
    return {"mode": ch.character_response, "skin": ch.character_skin,
            "margin": ch.oneway_margin, "tilemaps": maps}


def _validate_characters(ch, arrays, alive, s_alive, sf, nb) -> set[str]:
    """Check the character section; returns the array names it owns."""
    if ch is None:
        return set()
    from . import body as _body
    from . import character as _char
    from . import tilemap as _tm

    _expect_keys(ch, ("mode", "skin", "margin", "tilemaps"), "characters")
    _check(isinstance(ch["mode"], str) and ch["mode"] in _char._MODES,
           "characters.mode is not a character response")
    _check(type(ch["skin"]) is float and 0.0 < ch["skin"] <= 0.01, "characters.skin invalid")
    _check(type(ch["margin"]) is float and math.isfinite(ch["margin"]) and ch["margin"] >= 0.0,
           "characters.margin invalid")
    names = set()
    lengths: dict[str, int] = {}
    for name, (dtype, trailing, group) in _CHAR_ARRAYS.items():
        if name in S.CharacterStore.OPTIONAL and "char." + name not in arrays:
            fill = S.CharacterStore.FIELDS[name][2]
            arrays["char." + name] = np.full((lengths.get(group, 0),) + trailing, fill, dtype)
            names.add("char." + name)
            continue
        arr = _take(arrays, "char." + name, dtype, (None,) + trailing)
        _check(lengths.setdefault(group, arr.shape[0]) == arr.shape[0],
               f"character array {name} has the wrong length")
        names.add("char." + name)
    floor = arrays["char.floor"]
    _check(np.all((floor >= -1) & (floor < nb)), "characters.floor names a body out of range")
    _check(bool(np.all(np.isfinite(arrays["char.floor_pose"]))), "characters.floor_pose not finite")
    resp = arrays["char.resp"]
    _check(np.all((resp >= 0) & (resp < len(_tm.RESPONSES))), "characters.resp invalid")
    maps = ch["tilemaps"]
    _check(isinstance(maps, list), "characters.tilemaps must be a list")
    used_bodies = set()
    for k, m in enumerate(maps):
        _expect_keys(m, _TILEMAP_KEYS, f"tilemap {k}")
        _check(type(m["tile_size"]) is float and math.isfinite(m["tile_size"])
               and m["tile_size"] > 0.0, f"tilemap {k}: tile_size invalid")
        o = m["origin"]
        _check(isinstance(o, list) and len(o) == 2
               and all(type(x) is float and math.isfinite(x) for x in o),
               f"tilemap {k}: origin invalid")
        mat = m["material"]
        _check(isinstance(mat, dict) and all(type(v) in (int, float, bool)
                                             for v in mat.values()),
               f"tilemap {k}: material invalid")
        try:
            _body._material(mat)
        except (TypeError, ValueError) as exc:
            raise _corrupt(f"tilemap {k}: material: {exc}") from None
        rs = m["responses"]
        _check(isinstance(rs, list) and all(
            isinstance(r, list) and len(r) == 2 and type(r[0]) is int and type(r[1]) is int
            and 0 < r[0] < 2**31 and 0 < r[1] < len(_tm.RESPONSES) for r in rs)
            and len({r[0] for r in rs}) == len(rs), f"tilemap {k}: responses invalid")
        bd = m["body"]
        _check(isinstance(bd, list) and len(bd) == 2 and all(type(x) is int for x in bd)
               and 0 <= bd[0] < nb and bd[0] not in used_bodies, f"tilemap {k}: body invalid")
        used_bodies.add(bd[0])
        grid = _take(arrays, f"char.tilemap.{k}.grid", np.int64, (None, None))
        ny, nx = grid.shape
        _check(ny > 0 and nx > 0 and np.all((grid >= 0) & (grid < 2**31)),
               f"tilemap {k}: grid invalid")
        cls = _take(arrays, f"char.tilemap.{k}.cls", np.int8, (ny * nx,))
        want = np.where(grid != 0, 1, 0).astype(np.int8)   # SLIDE unless a response says
        for v, code in rs:
            want[grid == v] = code
        _check(np.array_equal(cls, want.ravel()), f"tilemap {k}: classes disagree with grid")
        names.update((f"char.tilemap.{k}.grid", f"char.tilemap.{k}.cls"))
        chunks = m["chunks"]
        n_ci, n_cj = -(-ny // _tm.CHUNK), -(-nx // _tm.CHUNK)
        _check(isinstance(chunks, list) and all(
            isinstance(c, list) and len(c) == 3 and all(type(x) is int for x in c)
            and 0 <= c[0] < n_ci and 0 <= c[1] < n_cj and 0 <= c[2] < s_alive.shape[0]
            for c in chunks) and len({(c[0], c[1]) for c in chunks}) == len(chunks)
            and len({c[2] for c in chunks}) == len(chunks),
            f"tilemap {k}: chunks invalid")
        for _, _, owner in chunks:
            _check(bool(s_alive[owner]) and sf["owner"][owner] == owner
                   and sf["body"][owner] == bd[0] and bool(alive[bd[0]]),
                   f"tilemap {k}: a chunk is not a live shape of the tile map's body")
    return names


def _build_characters(world, ch, arrays) -> None:
    from .body import Body
    from .character import Characters
    from .tilemap import TileMap

    st = Characters(world)
    st.character_response = ch["mode"]
    st.character_skin = ch["skin"]
    st.oneway_margin = ch["margin"]
    for name in _CHAR_ARRAYS:
        setattr(st.store, name, arrays["char." + name].copy())
    by_slot = {b._slot: b for b in world.bodies}
    for k, m in enumerate(ch["tilemaps"]):
        tm = TileMap.__new__(TileMap)
        tm._world = world
        tm._grid = arrays[f"char.tilemap.{k}.grid"].copy()
        tm.tile_size = m["tile_size"]
        tm.origin = np.array(m["origin"], dtype=np.float64)
        tm._material = dict(m["material"])
        tm._responses = {v: code for v, code in m["responses"]}
        tm._cls = arrays[f"char.tilemap.{k}.cls"].copy()
        tm._alive = True
        slot, gen = m["body"]
        body = by_slot.get(slot)
        if body is None or body._gen != gen:
            body = Body(world, slot)   # a removed body: a stale handle, as it was
            body._gen = gen
        tm.body = body
        tm._chunks = {(ci, cj): world._shape_handles[owner] for ci, cj, owner in m["chunks"]}
        st.maps.append(tm)
    world._characters = st


# ---------------------------------------------------------------------------- build


def _capacity(count: int, start: int) -> int:
    cap = start
    while cap < count:
        cap *= 2
    return cap


def _build(world, header, arrays, systems: bool = True):
    """Fill the fresh ``world`` from validated (header, arrays); arrays are copied.
    ``systems`` False leaves ``world._systems`` empty (deepcopy copies them itself)."""
    from .body import Body
    from .shapes import Shape

    st = header["settings"]
    world.gravity = st["gravity"]
    world._solved_gravity = np.array(st["solved_gravity"], dtype=np.float64)
    world.damping = st["damping"]
    world.substeps = st["substeps"]
    world.max_substeps = st["max_substeps"] or None
    world._substeps_used = st["substeps_used"]
    world.sleeping = st["sleeping"]  # before the stores exist: wakes nothing
    world.integrator = st["integrator"]
    world.dynamic_response = st["dynamic_response"]
    for name in _FLOAT_SETTINGS:
        if name != "damping":
            setattr(world, name, st[name])
    for name, default in _OPTIONAL_FLOATS.items():
        setattr(world, name, st.get(name, default))
    for name in _EXTRAS:
        setattr(world, name, name not in st.get("extras_off", ()))

    nb = header["bodies"]["count"]
    bs = S.BodyStore(_capacity(nb, 16))
    for name in bs.saved_fields():
        if "body." + name in arrays:  # optional fields not saved keep their fill
            getattr(bs, name)[:nb] = arrays["body." + name]
    bs.count = nb
    bs.free = _free_heap(arrays["body.free"])

    ns = header["shapes"]["count"]
    nv = header["shapes"]["vcount_used"]
    ss = S.ShapeStore(_capacity(ns, 16), max(64, nv))
    for name in ss.saved_fields():
        if "shape." + name in arrays:
            getattr(ss, name)[:ns] = arrays["shape." + name]
    ss.count = ns
    ss.free = _free_heap(arrays["shape.free"])
    ss.vlocal[:nv] = arrays["shape.vlocal"]
    ss.vcount_used = nv
    ss.vdead = header["shapes"]["vdead"]
    world._bodies, world._shapes = bs, ss

    alive = np.flatnonzero(bs.flags[:nb] & S.B_ALIVE)
    slots = alive[np.argsort(bs.order[alive], kind="stable")]
    world.bodies = [Body(world, int(slot)) for slot in slots]
    by_slot = {b._slot: b for b in world.bodies}
    rows = arrays["handle.rows"].tolist()
    pos = 0
    world._shape_handles = {}
    for owner, kind, n in zip(arrays["handle.owner"].tolist(), arrays["handle.kind"].tolist(),
                              arrays["handle.nrows"].tolist(), strict=True):
        body = by_slot[int(ss.body[owner])]
        shape = Shape(world, body, rows[pos : pos + n], _SHAPE_KINDS[kind])
        pos += n
        body._shapes.append(shape)
        world._shape_handles[owner] = shape

    tables = {}
    for key, store, rows, fields in _EVENT_STATE:
        cols = tables.setdefault((store, rows), {})
        if isinstance(fields, tuple):
            for i, name in enumerate(fields):
                cols[name] = arrays[f"event.{key[1:]}.{i}"]
        else:
            cols[fields] = arrays[f"event.{key[1:]}"]
    world._contacts.set_rows(**tables["_contacts", "current"])
    world._sensors.set_rows(**tables["_sensors", "current"])
    world._tables_changed()
    # The ended rows stand as the replaced tables, every row ended, until the next step.
    buffers = world._step_buffers
    ended = tables["_contacts", "ended"]
    buffers.contacts.set_rows(**ended, ended=np.ones(len(ended["a"]), dtype=np.bool_))
    ended = tables["_sensors", "ended"]
    buffers.sensors.set_rows(**ended, ended=np.ones(len(ended["a"]), dtype=np.bool_))
    world._shapes_dirty = True
    world._locked = False

    rules = S.PairRules()
    for k, r in zip(arrays.get("rules.type_keys", ()), arrays.get("rules.type_resp", ()),
                    strict=True):
        rules.set_types(int(k) >> 32, int(k) & 0xFFFFFFFF, int(r))
    for k in arrays.get("rules.body_keys", ()):
        rules.set_bodies(int(k) >> 32, int(k) & 0xFFFFFFFF, True)
    world._rules = rules
    if header["characters"] is not None:
        _build_characters(world, header["characters"], arrays)
    _joint.build_section(world, header.get("joints"), arrays)
    world._systems = []
    if systems:
        for i, kind in enumerate(header["systems"]):
            prefix = f"system.{i}."
            state = {n[len(prefix):]: a for n, a in arrays.items() if n.startswith(prefix)}
            world._systems.append(_SYSTEMS[kind]._snapshot_restore(world, state))
    return world


# ---------------------------------------------------------------------------- entry points
# World.snapshot, World.restore and World.__deepcopy__ call these.


def save(world) -> bytes:
    """The whole world as bytes (``World.snapshot``)."""
    world._check_unlocked()
    world._check_systems()   # never write bytes restore would refuse
    return _encode(*_collect(world))


def load(cls, data):
    """A new ``cls`` world from snapshot bytes (``World.restore``)."""
    header, arrays = _decode(data)
    _validate(header, arrays)
    world = cls()
    try:
        return _build(world, header, arrays)
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        # A setting the world's own setters refuse, or a system's restore refusing its
        # arrays (the stores themselves were checked above).
        raise _corrupt(str(exc)) from None


def deep_copy(world, memo):
    """A deep copy of the world (``copy.deepcopy``), through the same state as snapshots;
    callbacks are kept (the same callables)."""
    world._check_unlocked()
    header, arrays = _collect(world, extras=False)
    new = _build(type(world)(), header, arrays, systems=False)
    memo[id(world)] = new
    # Callbacks are the same callables (deep-copying a bound method would copy its
    # object, the game); handles of the copy stand in for the original's.
    new._callbacks = {k: list(v) for k, v in world._callbacks.items()}
    new._joints.on_break = list(world._joints.on_break)
    for old, fresh in zip(world._joints.handles, new._joints.handles, strict=True):
        memo.setdefault(id(old), fresh)
    for old, fresh in zip(world.bodies, new.bodies, strict=True):
        memo.setdefault(id(old), fresh)
        for sh_old, sh_new in zip(old._shapes, fresh._shapes, strict=True):
            memo.setdefault(id(sh_old), sh_new)
    new._systems = [copy.deepcopy(sys_, memo) for sys_ in world._systems]
    for name, value in vars(world).items():
        if name not in _OWNED and name != "_callbacks":
            setattr(new, name, copy.deepcopy(value, memo))
    return new


# ---------------------------------------------------------------------------- in place
# World attributes that assign() copies as they are (settings its setters validated).
_ASSIGNED = ("_gravity", "_solved_gravity", "_damping", "_substeps", "_max_substeps",
             "_substeps_used", "_sleeping", "_integrator", "_dynamic_response", "_time")
# Fields of the settings row that World._begin_step writes (World._record).
RECORDED = ("dt", "n_bodies", "n_shapes", "presolve")


def _same_slots(a, b, fields) -> bool:
    """Two slot stores with the same rows handed out: capacity, high-water mark, free
    slots and the identifying ``fields`` of every row."""
    n = a.count
    return (a.capacity == b.capacity and n == b.count and sorted(a.free) == sorted(b.free)
            and all(np.array_equal(getattr(a, f)[:n], getattr(b, f)[:n]) for f in fields))


def _handle_kinds(world) -> dict:
    return {row: shape._kind for row, shape in world._shape_handles.items()}


def same_layout(dst, src) -> bool:
    """True when ``assign(dst, src)`` can copy: both worlds hold the same bodies, shapes
    and joints in the same slots (generations, owners, vertex ranges, creation order and
    capacities), the same pair rules, no systems and no character state."""
    bd, bs = dst._bodies, src._bodies
    sd, ss = dst._shapes, src._shapes
    jd, js = dst._joints.store, src._joints.store
    return (not dst._systems and not src._systems
            and _same_slots(bd, bs, ("generation", "order", "kind"))
            and np.array_equal(bd.flags[:bd.count] & S.B_ALIVE, bs.flags[:bs.count] & S.B_ALIVE)
            and _same_slots(sd, ss, ("generation", "owner", "body", "vstart", "vcount"))
            and np.array_equal(sd.flags[:sd.count] & S.S_ALIVE, ss.flags[:ss.count] & S.S_ALIVE)
            and sd.vlocal.shape == ss.vlocal.shape and sd.vcount_used == ss.vcount_used
            and _handle_kinds(dst) == _handle_kinds(src)
            and _same_slots(jd, js, ("generation", "order", "kind", "body_a", "body_b"))
            and np.array_equal(jd.keys, js.keys)
            and dst._rules.types == src._rules.types and dst._rules.bodies == src._rules.bodies
            and dst._characters.pristine() and src._characters.pristine())


def assign(dst, src, same: bool = False, arrays: bool = True) -> bool:
    """Copy world ``src``'s state into world ``dst`` in place, so that ``dst`` continues
    exactly as ``src`` would (``World.restore(src.snapshot())`` bit for bit), when the two
    have the same layout (:func:`same_layout`), ``src`` has no contact, sensor or ended
    rows (a world not yet stepped, or one where nothing touches) and ``dst`` has no
    callbacks (a batch's worlds have none); False, and ``dst`` unchanged, otherwise. No
    array of ``dst`` is replaced, so views of them stay valid: a batch resets a world this
    way without making its views again. ``dst`` keeps its handles (they stand for the same
    slots). Raises ``RuntimeError`` while either world is stepping. ``same`` True: the caller
    knows the layouts are the same (it checked, and neither world changed since).
    ``arrays`` False: the caller copies every array of the body, shape and joint views
    itself (a batch, in one compiled call for many worlds)."""
    dst._check_unlocked()  # not from a callback of either world's step
    src._check_unlocked()
    buffers = src._step_buffers
    if (src._contacts.count or src._sensors.count or buffers.contacts.count
            or buffers.sensors.count or buffers.asleep.count or any(dst._callbacks.values())
            or dst._joints.on_break
            or not (same or same_layout(dst, src))):
        return False
    for a, b in ((dst._bodies, src._bodies), (dst._shapes, src._shapes),
                 (dst._joints.store, src._joints.store)):
        if arrays:  # every array of the store's view
            for name, value in zip(b.View._fields, b.view(), strict=True):
                np.copyto(getattr(a, name), value)
        a.free = list(b.free)
    dst._shapes.vdead = src._shapes.vdead
    for name in _ASSIGNED:
        value = getattr(src, name)
        setattr(dst, name, value.copy() if isinstance(value, np.ndarray) else value)
    # The settings row, but dst's dt, counts and pre-solve flag stay: its _record (and a
    # batch's) says they were written, and the layouts are the same.
    record = [dst._params[0][name] for name in RECORDED]
    dst._params[0] = src._params[0]
    for name, value in zip(RECORDED, record, strict=True):
        dst._params[0][name] = value
    dst._params[0]["pairs_kept"] = 0  # dst's buffers hold its own pairs, not src's
    # and its own event flags, which a settled step clears unless src's step cleared them
    # (settled 2: run_step)
    dst._params[0]["settled"] = min(int(dst._params[0]["settled"]), 1)
    dst._unsettle()
    dst._contacts.count = dst._sensors.count = 0
    dst._step_buffers.contacts.count = dst._step_buffers.sensors.count = 0
    dst._step_buffers.asleep.count = 0
    dst._params[0]["n_asleep"] = 0
    dst._joints.broken = []
    return True
