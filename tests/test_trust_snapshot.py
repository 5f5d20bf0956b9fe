"""Snapshots: ``world.snapshot()`` / ``World.restore(data)`` / ``copy.deepcopy(world)``.

The oracle for "restores exactly" is the original world itself: both are stepped with the
same inputs and every position, velocity and angle must match bit for bit (warm-start
impulses, sleep timers and free slots all feed into those bits). The oracle for "rejects
bad data" is that ``restore`` raises ``ValueError`` / ``TypeError`` for damaged bytes, for
each broken invariant written in by hand, and for payloads that would run code if
unpickled, and that it never allocates much more memory than the bytes it was given.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import struct
import tracemalloc
import zlib

import numpy as np
import pytest

import collide2d as c2d
from collide2d import snapshot as snap

DT = 1.0 / 60.0


def rich_world(steps=100):
    """Every kind of body and shape, removals (free slots, stale generations), sensors,
    changed settings, contacts with warm-start impulses, some sleeping bodies."""
    w = c2d.World(gravity=(0.5, -9.0), substeps=5, damping=0.97)
    w.contact_hertz = 25.0
    w.restitution_threshold = 0.7
    ground = w.add_body(kind="static")
    ground.add_box(30.0, 1.0, offset=(0.0, -0.5))
    ground.add_segment((-15.0, 0.0), (-15.0, 10.0))
    ground.add_segment((15.0, 0.0), (15.0, 10.0), radius=0.1)
    doomed = w.add_body(position=(-8.0, 6.0))
    doomed.add_circle(0.3)
    for i in range(6):
        b = w.add_body(position=(-5.0 + 1.7 * i, 0.5 + 0.3 * i), angle=0.1 * i)
        if i % 3 == 0:
            b.add_box(1.0, 0.8, density=2.0, friction=0.3)
        elif i % 3 == 1:
            b.add_circle(0.45, elasticity=0.4)
        else:
            b.add_polygon([(0, 0), (1.2, 0), (1.2, 0.9), (0.6, 0.3), (0, 0.9)])  # concave
    capsule = w.add_body(position=(4.0, 3.0), bullet=True)
    capsule.add_segment((-0.5, 0.0), (0.5, 0.0), radius=0.2)
    extra = capsule.add_circle(0.2, offset=(0.0, 0.5))
    kin = w.add_body(
        kind="kinematic", position=(0.0, 6.0), velocity=(0.3, 0.0), angular_velocity=0.2
    )
    kin.add_box(2.0, 0.2)
    heavy = w.add_body(position=(8.0, 4.0), fixed_rotation=True)
    heavy.add_box(1.0, 1.0)
    heavy.mass = 7.5
    sensor = w.add_body(kind="static", position=(-3.0, 1.0))
    sensor.add_box(2.0, 2.0, sensor=True)
    arcade = w.add_body(position=(10.0, 2.0), arcade=True)
    arcade.add_circle(0.4, category=2, mask=0xFFFF, group=-3)
    for _ in range(steps // 2):
        w.step(DT)
    w.remove(doomed)
    w.remove(extra)
    w.bodies[3].apply_force((5.0, 2.0), point=(0.0, 1.0))
    for _ in range(steps - steps // 2):
        w.step(DT)
    return w


def state_bytes(w):
    return (
        w.positions().tobytes(),
        w.velocities().tobytes(),
        w.angles().tobytes(),
        np.array([b.angular_velocity for b in w.bodies]).tobytes(),
    )


def tamper(data, edit):
    """Decode, let ``edit(header, arrays)`` break something, re-encode with a valid checksum
    (the hostile case: whoever wrote the bytes also fixed the checksum)."""
    header, arrays = snap._decode(data)
    del header["arrays"]
    edit(header, arrays)
    return snap._encode(header, arrays)


def raw_snapshot(header_obj, payload=b"", version=snap.VERSION, magic=snap.MAGIC):
    text = json.dumps(header_obj).encode()
    crc = zlib.crc32(payload, zlib.crc32(text))
    return (
        struct.pack("<8sHHIQII", magic, version, 0, len(text), len(payload), crc, 0)
        + text
        + payload
    )


@pytest.fixture(scope="module")
def world_data():
    w = rich_world()
    return w, w.snapshot()


# ---------------------------------------------------------------------------- round trip
def test_restore_then_snapshot_gives_the_same_bytes(world_data):
    w, data = world_data
    assert isinstance(data, bytes) and data[:8] == b"C2DSNAP\x00"
    again = c2d.World.restore(data)
    assert again.snapshot() == data
    assert type(again) is c2d.World


def test_restored_world_continues_bit_identically():
    w = rich_world(steps=100)
    twin = c2d.World.restore(w.snapshot())
    assert state_bytes(twin) == state_bytes(w)
    for i in range(200):
        w.step(DT)
        twin.step(DT)
        if i == 50:  # the same edits on both keep them identical
            for world in (w, twin):
                world.bodies[4].apply_impulse((1.0, 3.0))
                b = world.add_body(position=(2.0, 8.0))
                b.add_box(0.5, 0.5)
    assert state_bytes(twin) == state_bytes(w)
    assert twin.snapshot() == w.snapshot()


def _column(n=30):
    """A column that takes 5 substeps of up to 8 (worked out in test_world_stacks.py)."""
    w = c2d.World(max_substeps=8, sleeping=False)
    w.add_body(kind="static").add_box(40.0, 1.0, offset=(0.0, -0.5))
    for i in range(n):
        w.add_body(position=(0.0, 0.5 + i)).add_box(1.0, 1.0)
    return w


def test_adaptive_substeps_continue_bit_identically():
    # The substep count of the last step is state: the warm start's impulses are per
    # substep, and the count only drops back past a band.
    w = _column()
    for _ in range(20):
        w.step(DT)
    assert w.substeps_used == 5
    twin = c2d.World.restore(w.snapshot())
    assert (twin.max_substeps, twin.substeps_used) == (8, 5)
    for world in (w, twin):
        world.remove(world.bodies[-1])  # 29 boxes: 5 by the band
        for _ in range(50):
            world.step(DT)
    assert twin.substeps_used == w.substeps_used == 5
    assert state_bytes(twin) == state_bytes(w)


def test_snapshot_from_before_adaptive_substeps_reads_as_fixed():
    w = rich_world(steps=30)

    def old(header, payload):
        del header["settings"]["max_substeps"]
        del header["settings"]["substeps_used"]

    twin = c2d.World.restore(_directory_edit(w.snapshot(), old))
    assert (twin.substeps, twin.max_substeps, twin.substeps_used) == (5, None, 5)
    for world in (w, twin):
        for _ in range(30):
            world.step(DT)
    assert state_bytes(twin) == state_bytes(w)


def test_gravity_changed_since_the_last_step_continues_bit_identically():
    # The gravity the warm start was solved under is state: the next step sheds the
    # weight the new gravity takes off each contact.
    w = _column(3)
    for _ in range(60):
        w.step(DT)
    w.gravity = (0.0, -2.0)
    twin = c2d.World.restore(w.snapshot())
    for world in (w, twin):
        for _ in range(30):
            world.step(DT)
    assert state_bytes(twin) == state_bytes(w)


def test_snapshot_from_before_weight_shedding_reads_as_solved_under_its_gravity():
    w = rich_world(steps=30)

    def old(header, payload):
        del header["settings"]["solved_gravity"]

    twin = c2d.World.restore(_directory_edit(w.snapshot(), old))
    for world in (w, twin):
        for _ in range(30):
            world.step(DT)
    assert state_bytes(twin) == state_bytes(w)


def test_warm_start_and_events_survive(world_data):
    w, data = world_data
    twin = c2d.World.restore(data)
    for got, want in zip(twin.contacts(), w.contacts(), strict=True):
        np.testing.assert_array_equal(got, want)
    assert len(w.contacts().shape_a) > 0
    # (The rows as the world holds them: its table and its sleeping rows, merged.)
    np.testing.assert_array_equal(twin._contact_rows().nimp, w._contact_rows().nimp)
    assert np.any(w._contact_rows().nimp != 0.0)
    for got, want in zip(twin.contact_begin_events(), w.contact_begin_events(), strict=True):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(twin.sensor_overlaps(), w.sensor_overlaps())


def test_settings_survive(world_data):
    w, data = world_data
    twin = c2d.World.restore(data)
    for name in (
        "damping",
        "substeps",
        "max_substeps",
        "substeps_used",
        "sleeping",
        "integrator",
        "dynamic_response",
        "contact_hertz",
        "contact_damping_ratio",
        "contact_push_speed",
        "restitution_threshold",
        "arcade_static_speed",
        "time",
    ):
        assert getattr(twin, name) == getattr(w, name), name
    np.testing.assert_array_equal(twin.gravity, w.gravity)


@pytest.mark.nojit
def test_other_settings_survive():
    w = c2d.World(gravity=(0.0, 0.0), integrator="euler", dynamic_response="sensor", sleeping=False)
    w.arcade_static_speed = 0.25
    twin = c2d.World.restore(w.snapshot())
    assert (twin.integrator, twin.dynamic_response, twin.sleeping) == ("euler", "sensor", False)
    assert twin.arcade_static_speed == 0.25


def test_handles_ids_and_order_survive(world_data):
    w, data = world_data
    twin = c2d.World.restore(data)
    assert [b.id for b in twin.bodies] == [b.id for b in w.bodies]
    assert [b.index for b in twin.bodies] == list(range(len(w.bodies)))
    assert [b.kind for b in twin.bodies] == [b.kind for b in w.bodies]
    for bo, bt in zip(w.bodies, twin.bodies, strict=True):
        assert bt.world is twin
        assert [s.id for s in bt.shapes] == [s.id for s in bo.shapes]
        assert [s.kind for s in bt.shapes] == [s.kind for s in bo.shapes]
        for so, st in zip(bo.shapes, bt.shapes, strict=True):
            assert st.body is bt
            assert twin.shape(st.id) is st
            assert len(st.parts) == len(so.parts)
            for po, pt in zip(so.parts, st.parts, strict=True):
                np.testing.assert_array_equal(po, pt)
            assert (
                st.density,
                st.friction,
                st.elasticity,
                st.sensor,
                st.category,
                st.mask,
                st.group,
            ) == (so.density, so.friction, so.elasticity, so.sensor, so.category, so.mask, so.group)
        assert (bt.mass, bt.inertia, bt.bullet, bt.fixed_rotation, bt.arcade, bt.awake) == (
            bo.mass,
            bo.inertia,
            bo.bullet,
            bo.fixed_rotation,
            bo.arcade,
            bo.awake,
        )


def test_free_slots_are_reused_the_same_way():
    w = rich_world(steps=10)
    twin = c2d.World.restore(w.snapshot())
    a = w.add_body()
    b = twin.add_body()
    assert a.id == b.id
    sa, sb = a.add_circle(1.0), b.add_circle(1.0)
    assert sa.id == sb.id
    w.remove(a)
    twin.remove(b)


def test_restored_world_is_independent(world_data):
    w, data = world_data
    twin = c2d.World.restore(data)
    twin.bodies[3].position = (100.0, 100.0)
    twin.step(DT)
    twin.remove(twin.bodies[2])
    assert w.snapshot() == data


def test_snapshot_right_after_removing_a_touching_body():
    """Regression (found by the fuzzer): removal filters the contact rows but not their
    began flags; a snapshot taken then must still restore, and step on identically."""
    w = rich_world(steps=20)
    touching = {int(r) for r in w._shapes.body[w._contacts.rows().a]}
    victim = next(b for b in w.bodies if b._slot in touching and b.kind == "dynamic")
    w.remove(victim)
    twin = c2d.World.restore(w.snapshot())
    for _ in range(20):
        w.step(DT)
        twin.step(DT)
    assert twin.snapshot() == w.snapshot()


def test_empty_world_round_trip():
    w = c2d.World()
    data = w.snapshot()
    twin = c2d.World.restore(data)
    assert twin.bodies == [] and twin.snapshot() == data
    twin.step(DT)


def test_snapshot_accepts_bytearray_and_memoryview(world_data):
    _, data = world_data
    assert c2d.World.restore(bytearray(data)).snapshot() == data
    assert c2d.World.restore(memoryview(data)).snapshot() == data


def test_callbacks_are_not_saved_but_deepcopy_keeps_them():
    w = rich_world(steps=4)
    seen = []
    w.on_contact_persist(seen.append)
    assert c2d.World.restore(w.snapshot())._callbacks["contact_persist"] == []
    assert copy.deepcopy(w)._callbacks["contact_persist"] == [(seen.append, None)]


# ---------------------------------------------------------------------------- deepcopy
def test_deepcopy_is_independent_and_identical():
    w = rich_world(steps=60)
    twin = copy.deepcopy(w)
    assert twin is not w and twin._bodies is not w._bodies
    assert twin.snapshot() == w.snapshot()
    for b in twin.bodies:
        assert b.world is twin
        for s in b.shapes:
            assert s.body is b and twin.shape(s.id) is s
    before = w.snapshot()
    twin.bodies[3].velocity = (9.0, 9.0)
    for _ in range(10):
        twin.step(DT)
    assert w.snapshot() == before
    for _ in range(10):
        w.step(DT)
    twin2 = copy.deepcopy(w)
    for _ in range(30):
        w.step(DT)
        twin2.step(DT)
    assert state_bytes(twin2) == state_bytes(w)


def test_deepcopy_maps_handles_to_the_copy():
    w = rich_world(steps=4)
    body = w.bodies[2]
    shape = body.shapes[0]
    w2, b2, s2 = copy.deepcopy((w, body, shape))
    assert b2 is w2.bodies[2] and s2 is b2.shapes[0]


def test_deepcopy_copies_extra_attributes_and_systems():
    class Counter:
        def __init__(self, world):
            self.world = world
            self.steps = [0]

        def _step(self, dt):
            self.steps[0] += 1

    w = c2d.World()
    w.user_data = {"level": [1, 2]}
    w._systems.append(Counter(w))
    twin = copy.deepcopy(w)
    assert twin.user_data == w.user_data and twin.user_data is not w.user_data
    assert twin._systems[0].world is twin and twin._systems[0] is not w._systems[0]
    twin.step(DT)
    assert (twin._systems[0].steps, w._systems[0].steps) == ([1], [0])
    with pytest.raises(TypeError, match="snapshot protocol"):
        w.snapshot()


# ---------------------------------------------------------------------------- systems protocol
class Tracer:
    """A toy system: a trail of points, stepped with the world."""

    _snapshot_kind = "test_tracer"

    def __init__(self, world, points=None, ticks=0):
        self.world = world
        self.points = np.zeros((0, 2)) if points is None else points
        self.ticks = ticks

    def _step(self, dt):
        self.ticks += 1
        self.points = np.vstack((self.points, self.world.positions()[:1]))

    def _snapshot_arrays(self):
        return {"points": self.points, "ticks": np.array(self.ticks, dtype=np.int64)}

    @classmethod
    def _snapshot_restore(cls, world, arrays):
        if set(arrays) != {"points", "ticks"}:
            raise ValueError("tracer: wrong arrays")
        pts, ticks = arrays["points"], arrays["ticks"]
        if pts.dtype != np.float64 or pts.ndim != 2 or pts.shape[1] != 2 or ticks.shape != ():
            raise ValueError("tracer: bad layout")
        return cls(world, pts, int(ticks))


@pytest.fixture
def tracer_registered(monkeypatch):
    monkeypatch.setitem(snap._SYSTEMS, "test_tracer", Tracer)


def test_system_protocol_round_trip(tracer_registered):
    w = c2d.World()
    w.add_body(position=(1.0, 2.0)).add_circle(0.5)
    w._systems.append(Tracer(w))
    for _ in range(5):
        w.step(DT)
    twin = c2d.World.restore(w.snapshot())
    (tr,) = twin._systems
    assert isinstance(tr, Tracer) and tr.world is twin and tr.ticks == 5
    np.testing.assert_array_equal(tr.points, w._systems[0].points)
    twin.step(DT)
    w.step(DT)
    assert twin.snapshot() == w.snapshot()


@pytest.mark.nojit
def test_register_system_checks_the_protocol():
    class NoKind:
        pass

    with pytest.raises(ValueError, match="_snapshot_kind"):
        snap.register_system(NoKind)

    class NoMethods:
        _snapshot_kind = "x"

    with pytest.raises(TypeError, match="_snapshot_arrays"):
        snap.register_system(NoMethods)


def test_unknown_system_kind_is_rejected(tracer_registered):
    w = c2d.World()
    w._systems.append(Tracer(w))
    data = w.snapshot()
    del snap._SYSTEMS["test_tracer"]
    with pytest.raises(ValueError, match="not registered"):
        c2d.World.restore(data)


def test_system_restore_errors_propagate_as_value_error(tracer_registered):
    w = c2d.World()
    w._systems.append(Tracer(w))
    data = tamper(w.snapshot(), lambda h, a: a.__setitem__("system.0.points", np.zeros((3, 3))))
    with pytest.raises(ValueError, match="tracer"):
        c2d.World.restore(data)


# World attributes that are not saved, and why.
NOT_SAVED = {
    "_callbacks": "functions are not data",
    "_query_tree": "a cache of the query BVH, rebuilt from the shape boxes on demand",
    "_rot": "a cache of the bodies' (cos, sin), recomputed whenever a pose changes",
    "_characters": "saved by its own section (see the tile map tests)",
}


def test_every_attribute_of_a_used_world_is_saved():
    """Guard: state added to World later (by any mixin) must be added to the snapshot or
    listed above as a cache. Exercise every feature, then look at what the world holds."""
    w, hero = tile_world()
    drive_hero(w, hero, 3)
    w.raycast((0.0, 5.0), (0.0, -5.0))
    w.query_aabb((-1.0, -1.0), (1.0, 1.0))
    w.query_point((0.0, 0.2))
    w.sensor_overlaps()
    w.contacts()
    unknown = set(vars(w)) - snap._OWNED - set(NOT_SAVED)
    assert not unknown, f"World attributes {sorted(unknown)} are not covered by snapshots"


# ---------------------------------------------------------------------------- damaged bytes
def test_truncation_at_any_offset_is_rejected(world_data):
    _, data = world_data
    hlen = struct.unpack_from("<I", data, 12)[0]
    cuts = set(range(0, 32 + hlen + 40)) | set(range(0, len(data), 97)) | {len(data) - 1}
    for cut in sorted(cuts):
        with pytest.raises(ValueError, match="not a valid collide2d snapshot"):
            c2d.World.restore(data[:cut])
    with pytest.raises(ValueError, match="do not match"):
        c2d.World.restore(data + b"\x00")


def test_bit_flips_in_prefix_and_header_are_rejected(world_data):
    _, data = world_data
    hlen = struct.unpack_from("<I", data, 12)[0]
    for pos in range(32 + hlen):
        for bit in (0, 5):
            bad = bytearray(data)
            bad[pos] ^= 1 << bit
            with pytest.raises(ValueError):
                c2d.World.restore(bytes(bad))


def test_bit_flips_in_payload_are_rejected(world_data):
    _, data = world_data
    for pos in range(len(data) - 1, len(data) // 2, -13):
        bad = bytearray(data)
        bad[pos] ^= 0x10
        with pytest.raises(ValueError, match="checksum"):
            c2d.World.restore(bytes(bad))


def test_wrong_magic_and_version(world_data):
    _, data = world_data
    with pytest.raises(ValueError, match="magic"):
        c2d.World.restore(b"PK\x03\x04" + data[4:])
    future = bytearray(data)
    struct.pack_into("<H", future, 8, snap.VERSION + 1)
    with pytest.raises(ValueError, match="version 2 is not supported"):
        c2d.World.restore(bytes(future))


@pytest.mark.nojit
@pytest.mark.parametrize("value", ["snapshot", None, 42, [1, 2], np.zeros(40, np.uint8)])
def test_non_bytes_input_is_a_type_error(value):
    with pytest.raises(TypeError, match="data: expected bytes"):
        c2d.World.restore(value)


@pytest.mark.nojit
def test_pickle_and_npy_payloads_execute_nothing(tmp_path):
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    for payload in (pickle.dumps(Evil()), pickle.dumps({"bodies": Evil()}, protocol=2)):
        with pytest.raises(ValueError):
            c2d.World.restore(payload)
    npy = tmp_path / "obj.npy"
    np.save(npy, np.array([Evil()], dtype=object), allow_pickle=True)
    marker.unlink(missing_ok=True)
    with pytest.raises(ValueError):
        c2d.World.restore(npy.read_bytes())
    assert not os.path.exists(marker)


# ---------------------------------------------------------------------------- hostile content
def _directory_edit(data, fn):
    """Rewrite the header's JSON (directory included) and fix the checksum."""
    hlen, plen = struct.unpack_from("<IQ", data, 12)
    header = json.loads(data[32 : 32 + hlen])
    payload = data[32 + hlen :]
    fn(header, payload)
    return raw_snapshot(header, payload)


def test_object_dtype_in_directory_is_rejected(world_data):
    _, data = world_data

    def to_object(header, payload):
        for entry in header["arrays"]:
            if entry[0] == "body.vel":
                entry[1] = "|O"

    with pytest.raises(ValueError, match="never object arrays"):
        c2d.World.restore(_directory_edit(data, to_object))


@pytest.mark.parametrize("dtype", ["<f4", ">f8", "<U8", "|V16", "<M8[s]", "|O8"])
def test_dtypes_outside_the_format_are_rejected(world_data, dtype):
    _, data = world_data

    def edit(header, payload):
        header["arrays"][0][1] = dtype

    with pytest.raises(ValueError, match="dtype"):
        c2d.World.restore(_directory_edit(data, edit))


def test_huge_declared_sizes_allocate_nothing(world_data):
    _, data = world_data
    cases = []
    # A directory entry that claims 2**40 rows.
    cases.append(_directory_edit(data, lambda h, p: h["arrays"][0].__setitem__(2, [2**40, 2])))
    # Counts that claim a huge world (arrays stay small).
    cases.append(_directory_edit(data, lambda h, p: h["bodies"].__setitem__("count", 2**40)))
    # Prefix lengths that claim huge header / payload.
    for off, fmt, value in ((12, "<I", 2**32 - 1), (16, "<Q", 2**63), (12, "<I", 2**19)):
        bad = bytearray(data)
        struct.pack_into(fmt, bad, off, value)
        cases.append(bytes(bad))
    # Negative and non-integer shapes.
    cases.append(_directory_edit(data, lambda h, p: h["arrays"][0].__setitem__(2, [-1, 2])))
    cases.append(_directory_edit(data, lambda h, p: h["arrays"][0].__setitem__(2, [1.5])))
    cases.append(_directory_edit(data, lambda h, p: h["arrays"][0].__setitem__(2, [1] * 9)))
    tracemalloc.start()
    try:
        for bad in cases:
            tracemalloc.reset_peak()
            with pytest.raises(ValueError):
                c2d.World.restore(bad)
            peak = tracemalloc.get_traced_memory()[1]
            assert peak < 20 * len(data) + (1 << 20), peak
    finally:
        tracemalloc.stop()


def test_header_schema_is_strict(world_data):
    _, data = world_data
    edits = [
        lambda h, p: h.__setitem__("extra", 1),
        lambda h, p: h.pop("systems"),
        lambda h, p: h["settings"].__setitem__("gravity", [0.0, "x"]),
        lambda h, p: h["settings"].__setitem__("solved_gravity", [0.0, 1e400]),
        lambda h, p: h["settings"].__setitem__("solved_gravity", [0.0]),
        lambda h, p: h["settings"].__setitem__("substeps", 0),
        lambda h, p: h["settings"].__setitem__("substeps", True),
        lambda h, p: h["settings"].__setitem__("max_substeps", -1),
        lambda h, p: h["settings"].__setitem__("max_substeps", None),
        lambda h, p: h["settings"].__setitem__("substeps_used", 0),
        lambda h, p: h["settings"].pop("substeps_used"),
        lambda h, p: h["settings"].__setitem__("sleeping", 1),
        lambda h, p: h["settings"].__setitem__("damping", 2.0),
        lambda h, p: h["settings"].__setitem__("contact_hertz", 0.0),
        lambda h, p: h["settings"].__setitem__("integrator", "rk4"),
        lambda h, p: h["settings"].__setitem__("dynamic_response", 3),
        lambda h, p: h["settings"].__setitem__("time", 1e400),  # json -> inf
        lambda h, p: h["shapes"].__setitem__("count", -1),
        lambda h, p: h.__setitem__("events", {"_contacts": 99}),
        lambda h, p: h.__setitem__("systems", ["../os"]),
        lambda h, p: h.__setitem__("arrays", h["arrays"] + [h["arrays"][0]]),
        lambda h, p: h["arrays"][0].__setitem__(0, "body.unknown"),
        lambda h, p: h["arrays"].pop(),
    ]
    for edit in edits:
        with pytest.raises(ValueError, match="not a valid collide2d snapshot"):
            c2d.World.restore(_directory_edit(data, edit))


def test_json_nan_duplicates_and_deep_nesting_are_rejected(world_data):
    _, data = world_data
    hlen = struct.unpack_from("<I", data, 12)[0]
    text = data[32 : 32 + hlen].decode()
    payload = data[32 + hlen :]

    def with_text(t):
        t = t.encode() if isinstance(t, str) else t
        crc = zlib.crc32(payload, zlib.crc32(t))
        return (
            struct.pack("<8sHHIQII", snap.MAGIC, 1, 0, len(t), len(payload), crc, 0) + t + payload
        )

    nan_text = text.replace('"time":', '"time":NaN,"x":', 1)
    dup_text = text.replace('{"settings":', '{"systems":[],"settings":', 1)
    deep = "[" * 100_000 + "]" * 100_000
    for t in (
        nan_text,
        dup_text,
        deep,
        text[:-1],
        text.replace("{", "\x00", 1),
        b"\xff\xfe" + text.encode(),
    ):
        with pytest.raises(ValueError):
            c2d.World.restore(with_text(t))
    with pytest.raises(ValueError):
        c2d.World.restore(raw_snapshot([1, 2, 3]))


def _set(name, fn):
    def edit(header, arrays):
        arrays[name] = fn(arrays[name].copy())

    return edit


def _poke(name, index, value):
    def fn(a):
        a[index] = value
        return a

    return _set(name, fn)


def _live_body(arrays):
    return int(np.flatnonzero(arrays["body.flags"] & 1)[-1])


HOSTILE = {
    "body count disagrees": lambda h, a: h["bodies"].__setitem__("count", h["bodies"]["count"] + 1),
    "array missing": lambda h, a: a.pop("body.torque"),
    "unexpected array": lambda h, a: a.__setitem__("body.extra", np.zeros(3)),
    "wrong dtype": _set("body.kind", lambda x: x.astype(np.int64)),
    "wrong trailing shape": _set("body.pos", lambda x: np.zeros((x.shape[0], 3))),
    "unknown body kind": _poke("body.kind", 1, 7),
    "unknown flag bits": _poke("body.flags", 1, 1 | 1024),
    "nan position": lambda h, a: _poke("body.pos", (_live_body(a), 0), np.nan)(h, a),
    "inf velocity": lambda h, a: _poke("body.vel", (_live_body(a), 1), np.inf)(h, a),
    "negative mass": lambda h, a: _poke("body.mass", _live_body(a), -1.0)(h, a),
    "damping above 1": lambda h, a: _poke("body.damping", _live_body(a), 1.5)(h, a),
    "duplicate creation order": lambda h, a: _poke("body.order", _live_body(a), 0)(h, a),
    "free list wrong": _set("body.free", lambda x: np.array([0], np.int64)),
    "shape free list wrong": _set("shape.free", lambda x: x[:-1]),
    "shape body out of range": _poke("shape.body", 0, 10**9),
    "shape body negative": _poke("shape.body", 0, -5),
    "shape on removed body": lambda h, a: _poke(
        "shape.body", 0, int(np.flatnonzero((a["body.flags"] & 1) == 0)[0])
    )(h, a),
    "vertex range past pool": _poke("shape.vstart", 0, 10**6),
    "vertex count zero": _poke("shape.vcount", 0, 0),
    "negative vertex start": _poke("shape.vstart", 0, -3),
    "nan vertex": _poke("shape.vlocal", (0, 0), np.nan),
    "vdead inconsistent": lambda h, a: h["shapes"].__setitem__("vdead", h["shapes"]["vdead"] + 1),
    "zero density": _poke("shape.density", 0, 0.0),
    "mask over 32 bits": _poke("shape.mask", 0, 2**40),
    "owner out of range": _poke("shape.owner", 0, 999),
    "concave part": _poke("shape.vlocal", (1, 0), -20.0),
    "contact row out of range": _poke("event.contacts.1", 0, 10**6),
    "contact pair unordered": lambda h, a: (
        _poke("event.contacts.0", 0, int(a["event.contacts.1"][0]))(h, a),
        _poke("event.contacts.1", 0, int(a["event.contacts.0"][0]))(h, a),
    ),
    # Both key columns reversed: the rows (a, b) then run backwards whatever the scene's
    # contacts are (column a alone may be constant, e.g. when every contact is with the ground).
    "contact rows unsorted": lambda h, a: (
        _set("event.contacts.0", lambda x: x[::-1])(h, a),
        _set("event.contacts.1", lambda x: x[::-1])(h, a),
    ),
    "contact point count 3": _poke("event.contacts.3", 0, 3),
    "contact ragged": _set("event.contacts.4", lambda x: x[:-1]),
    "impulses misaligned": _set("event.impulses", lambda x: x[:-1]),
    # began flags for rows that are not there: contact_begin_events() used to raise a
    # NumPy broadcast error on such a restored world
    "began misaligned": _set("event.began", lambda x: np.append(x, True)),
    "sensor began misaligned": _set("event.sensor_began", lambda x: np.append(x, True)),
    "nan impulse": _poke("event.contacts.8", (0, 0), np.nan),
    "ended row out of range": _set(
        "event.ended_rows.0", lambda x: np.append(x, 10**6).astype(np.int64)
    ),
    "handle kind unknown": _poke("handle.kind", 0, 9),
    "handle rows missing": _set("handle.rows", lambda x: x[:-1]),
    "handle owner wrong": _set("handle.owner", lambda x: x[::-1]),
    "circle with 3 rows": _set("handle.kind", lambda x: np.zeros_like(x)),
    "event tuple wrong length": lambda h, a: h["events"].__setitem__("_contacts", 10),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_inconsistent_content_is_rejected(world_data, case):
    w, data = world_data
    assert w.contacts().shape_a.size > 0  # the contact cases have rows to break
    bad = tamper(data, HOSTILE[case])
    assert bad != data
    with pytest.raises(ValueError, match="not a valid collide2d snapshot"):
        c2d.World.restore(bad)


def test_tamper_without_edits_round_trips(world_data):
    _, data = world_data
    assert tamper(data, lambda h, a: None) == data


@pytest.mark.nojit
def test_non_finite_settings_are_refused_when_set():
    w = c2d.World()
    with pytest.raises(ValueError, match="contact_hertz"):
        w.contact_hertz = float("nan")
    c2d.World.restore(w.snapshot())


# ---------------------------------------------------------------------------- tile maps, movers
def tile_world():
    w = c2d.World(gravity=(0.0, -10.0))
    grid = np.zeros((6, 40), dtype=np.int64)
    grid[0, :] = 1
    grid[2, 10:14] = 2  # a one-way ledge
    grid[1:4, 30] = 3  # water: crossed
    tiles = w.add_tilemap(grid, tile_size=0.5, origin=(-2.0, 0.0), friction=0.4)
    tiles.set_response(2, "oneway")
    tiles.set_response(3, "cross")
    tiles.set_tile(0, 5, 0)  # a hole, rebuilds a chunk
    hero = w.add_body(kind="kinematic", position=(0.0, 1.0))
    hero.add_box(0.4, 0.8)
    w.set_character(hero)
    platform = w.add_body(kind="kinematic", position=(6.0, 2.0), velocity=(0.5, 0.0))
    ledge = platform.add_box(2.0, 0.2)
    w.set_response(ledge, "oneway")
    crate = w.add_body(position=(3.0, 2.0))
    crate.add_box(0.5, 0.5)
    w.character_response = "push"
    w.oneway_margin = 0.07
    return w, hero


def drive_hero(w, hero, frames):
    out = []
    for i in range(frames):
        vx = 3.0 if (i // 40) % 2 == 0 else -2.0
        r = w.move_and_slide(hero, (vx, -6.0 if i % 50 else 8.0), DT, up=(0.0, 1.0))
        out.append((r.position.tobytes(), r.velocity.tobytes(), r.on_floor))
        w.step(DT)
    return out


def test_tile_maps_and_movers_round_trip_and_continue_identically():
    w, hero = tile_world()
    drive_hero(w, hero, 70)
    data = w.snapshot()
    twin = c2d.World.restore(data)
    assert twin.snapshot() == data
    (tm0,), (tm1,) = w.tilemaps, twin.tilemaps
    assert set(vars(tm1)) == set(vars(tm0))  # every TileMap attribute restored
    assert tm1.body is twin.bodies[tm0.body.index] and tm1._world is twin
    np.testing.assert_array_equal(tm1.grid, tm0.grid)
    assert tm1.response(2) == "oneway" and tm1.response(3) == "cross"
    assert twin.character_response == "push" and twin.oneway_margin == 0.07
    hero1 = twin.bodies[hero.index]
    assert twin.is_character(hero1)
    assert twin.response(twin.bodies[2].shapes[0]) == "oneway"
    for world in (w, twin):
        world.tilemaps[0].set_tile(0, 8, 0)
        world.tilemaps[0].set_tile(3, 3, 1)
    assert drive_hero(twin, hero1, 120) == drive_hero(w, hero, 120)
    assert twin.snapshot() == w.snapshot()


def test_character_state_is_fully_saved():
    from collide2d._store import CharacterStore
    from collide2d.character import Characters

    # The store's schema is the saved arrays; the settings record is saved by name; the
    # tile view and the move buffers are caches, rebuilt on demand.
    assert set(snap._CHAR_ARRAYS) == set(CharacterStore.FIELDS)
    handled = {"_world", "store", "params", "maps", "buffers", "_tiles", "_tiles_dead"}
    assert set(vars(Characters(c2d.World()))) == handled


def test_deepcopy_with_tile_maps():
    w, hero = tile_world()
    drive_hero(w, hero, 30)
    twin = copy.deepcopy(w)
    assert twin.tilemaps[0]._world is twin and twin.tilemaps[0].body.world is twin
    assert twin.tilemaps[0] is not w.tilemaps[0]
    hero1 = twin.bodies[hero.index]
    assert drive_hero(twin, hero1, 60) == drive_hero(w, hero, 60)
    twin.tilemaps[0].set_tile(0, 9, 0)
    assert w.tilemaps[0][0, 9] == 1


def _char_edit(fn):
    def edit(header, arrays):
        fn(header["characters"], arrays)

    return edit


CHAR_HOSTILE = {
    "mode unknown": _char_edit(lambda c, a: c.__setitem__("mode", "teleport")),
    "skin too big": _char_edit(lambda c, a: c.__setitem__("skin", 1.0)),
    "floor out of range": _char_edit(lambda c, a: a["char.floor"].__setitem__(0, 10**6)),
    "floor pose nan": _char_edit(lambda c, a: a["char.floor_pose"].__setitem__((0, 0), np.nan)),
    "resp code": _char_edit(lambda c, a: a["char.resp"].__setitem__(0, 99)),
    "ragged slot arrays": _char_edit(
        lambda c, a: a.__setitem__("char.floor", a["char.floor"][:-1])
    ),
    "grid and classes disagree": _char_edit(
        lambda c, a: a["char.tilemap.0.grid"].__setitem__((0, 0), 0)
    ),
    "chunk of another body": _char_edit(
        lambda c, a: c["tilemaps"][0]["chunks"][0].__setitem__(
            2,
            int(
                np.flatnonzero(
                    (a["shape.body"] != c["tilemaps"][0]["body"][0]) & (a["shape.body"] >= 0)
                )[0]
            ),
        )
    ),
    "chunk listed twice": _char_edit(
        lambda c, a: c["tilemaps"][0]["chunks"][1].__setitem__(2, c["tilemaps"][0]["chunks"][0][2])
    ),
    "chunk out of grid": _char_edit(lambda c, a: c["tilemaps"][0]["chunks"][0].__setitem__(0, 99)),
    "tile body out of range": _char_edit(
        lambda c, a: c["tilemaps"][0].__setitem__("body", [10**6, 0])
    ),
    "material unknown key": _char_edit(
        lambda c, a: c["tilemaps"][0]["material"].__setitem__("stickiness", 1.0)
    ),
    "material negative friction": _char_edit(
        lambda c, a: c["tilemaps"][0]["material"].__setitem__("friction", -1.0)
    ),
    "response for tile 0": _char_edit(lambda c, a: c["tilemaps"][0]["responses"].append([0, 1])),
    "tile size zero": _char_edit(lambda c, a: c["tilemaps"][0].__setitem__("tile_size", 0.0)),
}


@pytest.fixture(scope="module")
def tile_data():
    w, hero = tile_world()
    drive_hero(w, hero, 20)
    return w.snapshot()


@pytest.mark.parametrize("case", sorted(CHAR_HOSTILE))
def test_inconsistent_character_state_is_rejected(tile_data, case):
    bad = tamper(tile_data, CHAR_HOSTILE[case])
    assert bad != tile_data
    with pytest.raises(ValueError, match="not a valid collide2d snapshot"):
        c2d.World.restore(bad)


# ---------------------------------------------------------------------------- particles
def particle_world():
    w = c2d.World(gravity=(0.0, -10.0))
    w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5))
    ship = w.add_body(position=(3.0, 2.0), angular_velocity=0.5)
    ship.add_box(2.0, 0.5)
    rng = np.random.default_rng(3)
    w.add_particles(rng.uniform(-5, 5, (40, 2)) + (0, 6), rng.uniform(-30, 30, (40, 2)),
                    on_hit="bounce", elasticity=0.6)
    w.add_particles([(-4.0, 3.0)], [(50.0, 0.0)], on_hit="stop")
    return w


def test_particles_round_trip_and_continue_identically():
    w = particle_world()
    for _ in range(30):
        w.step(DT)
    data = w.snapshot()
    twin = c2d.World.restore(data)
    assert twin.snapshot() == data
    assert [type(s) for s in twin._systems] == [type(s) for s in w._systems]
    for _ in range(60):
        w.step(DT)
        twin.step(DT)
    for a, b in zip(w._systems, twin._systems, strict=True):
        assert a.positions.tobytes() == b.positions.tobytes()
        assert a.velocities.tobytes() == b.velocities.tobytes()
        np.testing.assert_array_equal(a.alive, b.alive)
    assert twin.snapshot() == w.snapshot()


@pytest.mark.parametrize("edit", [
    _poke("system.0.positions", (0, 0), np.nan),
    _poke("system.0.on_hit", (), 9),
    _set("system.0.velocities", lambda x: x[:-1]),
    lambda h, a: a.pop("system.1.alive"),
], ids=["nan position", "unknown on_hit", "ragged velocities", "missing array"])
def test_bad_particle_state_is_rejected(edit):
    w = particle_world()
    w.step(DT)
    with pytest.raises(ValueError, match="not a valid collide2d snapshot"):
        c2d.World.restore(tamper(w.snapshot(), edit))


def test_reading_character_settings_does_not_change_the_snapshot():
    w = rich_world(steps=5)
    before = w.snapshot()
    assert (w.character_response, w.tilemaps, w.is_character(w.bodies[1])) == ("cross", [],
                                                                               False)
    assert w.snapshot() == before
    w.character_skin = 0.002   # a real change is saved
    assert c2d.World.restore(w.snapshot()).character_skin == 0.002
