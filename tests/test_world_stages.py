"""The step as named stages: ``profile`` runs the same stages as ``step`` one by one, the
stores' schemas drive snapshots, and each solver extra is a setting that snapshots keep."""

from __future__ import annotations

import json
import zlib

import numpy as np
import pytest

import collide2d as c2d
from collide2d import _store as S
from collide2d import snapshot
from collide2d._kernels import step as K

DT = 1.0 / 60.0


def pile(seed: int = 3) -> c2d.World:
    rng = np.random.default_rng(seed)
    w = c2d.World(gravity=(0.0, -10.0))
    ground = w.add_body(kind="static")
    ground.add_box(20.0, 1.0, offset=(0.0, -0.5))
    ground.add_box(1.0, 10.0, offset=(-6.0, 5.0), sensor=True)
    for i in range(30):
        b = w.add_body(position=(rng.uniform(-4, 4), 1.0 + 0.7 * i), angle=rng.uniform(0, 3))
        if i % 3 == 0:
            b.add_circle(0.3, elasticity=0.4)
        else:
            b.add_box(0.6, 0.4)
    w.add_body(position=(-9.0, 2.0), velocity=(200.0, 0.0), bullet=True).add_circle(0.05)
    return w


def test_profile_runs_the_same_stages_as_step():
    stepped, profiled = pile(), pile()
    for i in range(90):
        stepped.step(DT)
        if i % 3 == 0:
            prof = profiled.profile(DT)
        else:
            profiled.step(DT)
    assert stepped.snapshot() == profiled.snapshot()
    assert list(prof.stages) == [name for name, _, _ in K.STAGES]
    assert prof.substeps == 4
    assert all(t >= 0.0 for t in prof.stages.values())
    assert prof.total >= sum(prof.stages.values())
    assert prof.stages["solve"] > 0.0    # the pile is in contact: substeps ran


def test_tables_grow_when_a_step_finds_more_pairs_than_they_hold():
    """The step buffers start at 16 pairs: the settled pile of 31 bodies has about 48, and
    the stage that asks is run again after the tables grow, with the same result as a
    world whose tables were large from the start."""
    small, large = pile(), pile()
    large._step_buffers.fit(0, 4096)
    large._step_buffers.fit_sensors(4096)
    for _ in range(150):
        small.step(DT)
        large.step(DT)
    assert small.snapshot() == large.snapshot()
    assert small._step_buffers.pair_capacity > 16


def test_a_new_store_field_is_saved_and_restored_by_the_schema(monkeypatch):
    fields = dict(S.BodyStore.FIELDS)
    fields["test_only"] = ((2,), np.float64, 0.0)
    monkeypatch.setattr(S.BodyStore, "FIELDS", fields)
    w = c2d.World()
    body = w.add_body(position=(1.0, 2.0))
    body.add_circle(0.5)
    w._bodies.test_only[body._slot] = (3.5, -1.25)
    twin = c2d.World.restore(w.snapshot())
    assert twin._bodies.test_only[body._slot].tolist() == [3.5, -1.25]


@pytest.mark.parametrize("name", ["mass_ratio_passes", "shed_weight"])
def test_solver_extras_are_settings_that_snapshots_keep(name):
    w = pile()
    assert getattr(w, name) is True
    setattr(w, name, False)
    for _ in range(20):
        w.step(DT)
    twin = c2d.World.restore(w.snapshot())
    assert getattr(twin, name) is False
    w.step(DT)
    twin.step(DT)
    assert twin.snapshot() == w.snapshot()
    with pytest.raises((TypeError, ValueError), match=name):
        setattr(w, name, "yes")


def test_boxes_created_inside_each_other_separate_without_a_setting():
    """Two boxes created 5 cm inside each other with no gravity: the soft contact pushes
    them apart at no more than the push-out speed and the relax pass takes that velocity
    back out, so they stop apart (the base solver, as Box2D v3: no switch)."""
    w = c2d.World(gravity=(0.0, 0.0))
    assert not hasattr(w, "push_out")
    a = w.add_body(position=(0.0, 0.0))
    a.add_box(1.0, 1.0)
    b = w.add_body(position=(0.95, 0.0))
    b.add_box(1.0, 1.0)
    for _ in range(120):
        w.step(DT)
    gap = (b.position[0] - a.position[0]) - 1.0
    assert gap > -0.006            # within the linear slop
    assert abs(a.velocity[0]) < 0.2 and abs(b.velocity[0]) < 0.2


@pytest.mark.nojit
def test_a_snapshot_with_the_retired_push_out_switch_off_restores():
    """Files written when push-out was an extra may list it in extras_off: it is ignored
    (the push-out is the base solver's now), and the other extras listed still apply."""
    w = pile()
    w.shed_weight = False
    data = w.snapshot()
    prefix = snapshot._PREFIX
    magic, version, r1, hlen, plen, _, r2 = prefix.unpack_from(data, 0)
    head = json.loads(data[prefix.size:prefix.size + hlen])
    assert head["settings"]["extras_off"] == ["shed_weight"]
    head["settings"]["extras_off"] = ["push_out", "shed_weight"]
    text = json.dumps(head, separators=(",", ":")).encode()
    payload = data[prefix.size + hlen:]
    crc = zlib.crc32(payload, zlib.crc32(text))
    old = prefix.pack(magic, version, r1, len(text), plen, crc, r2) + text + payload
    twin = c2d.World.restore(old)
    assert twin.shed_weight is False and twin.mass_ratio_passes is True
    assert twin.snapshot() == data


def test_contact_settings_are_validated_when_set():
    w = c2d.World()
    with pytest.raises(TypeError, match="restitution_threshold"):
        w.restitution_threshold = "x"
    with pytest.raises(ValueError, match="contact_hertz"):
        w.contact_hertz = float("nan")
    with pytest.raises(ValueError, match="time"):
        w.time = float("nan")
    assert w.restitution_threshold == 1.0 and w.contact_hertz == 50.0


# ---------------------------------------------------------------------------- what each extra buys
def _heavy_on_light(passes: bool):
    w = c2d.World(gravity=(0.0, -10.0), sleeping=False)
    w.mass_ratio_passes = passes
    w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5))
    light = w.add_body(position=(0.0, 0.5))
    light.add_box(1.0, 1.0, density=1.0)
    heavy = w.add_body(position=(0.0, 1.5))
    heavy.add_box(1.0, 1.0, density=100.0)
    for _ in range(240):
        w.step(DT)
    return light, heavy


def test_mass_ratio_passes_hold_a_box_100_times_heavier_on_a_light_one():
    """By symmetry the pair rests upright and centred: no tilt, no sideways drift."""
    light, heavy = _heavy_on_light(True)
    assert abs(heavy.angle) < 0.01 and abs(heavy.position[0]) < 0.01
    assert abs(light.angle) < 0.01
    light, heavy = _heavy_on_light(False)
    assert abs(heavy.angle) > 0.01 or abs(heavy.position[0]) > 0.01 or abs(light.angle) > 0.01


def _gravity_off_speed(shed: bool) -> float:
    w = c2d.World(gravity=(0.0, -10.0), sleeping=False)
    w.shed_weight = shed
    w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5))
    boxes = [w.add_body(position=(0.0, 0.5 + i)) for i in range(3)]
    for b in boxes:
        b.add_box(1.0, 1.0)
    for _ in range(120):
        w.step(DT)
    w.gravity = (0.0, 0.0)
    for _ in range(60):
        w.step(DT)
    return max(float(np.hypot(*b.velocity)) for b in boxes)


def test_shed_weight_keeps_a_settled_stack_still_when_gravity_goes_off():
    """A stack at rest whose weight disappears has nothing to move it: it stays put, but
    for the few millimetres its soft contacts rested deep, which the springs push back out
    (as Box2D v3's would; the bound was 1e-3 m/s when a load-based hold stopped them)."""
    assert _gravity_off_speed(True) < 1e-2
    assert _gravity_off_speed(False) > 3e-2


def _corner_energy(cap: bool) -> tuple[float, float]:
    w = c2d.World(gravity=(0.0, 0.0))
    w.restitution_energy_cap = cap
    a = w.add_body(position=(0.0, 1.1), angle=-1.044, velocity=(0.0, -1.19),
                   angular_velocity=0.3)
    a.add_box(0.5, 1.0, friction=0.0, elasticity=1.0)
    b = w.add_body(position=(0.0, 0.0), angle=1.0, velocity=(0.0, 1.0))
    b.add_box(0.5, 1.0, friction=0.0)

    def energy():
        return sum(0.5 * body.mass * float(body.velocity @ body.velocity)
                   + 0.5 * body.inertia * body.angular_velocity ** 2 for body in (a, b))

    e0, top = energy(), 0.0
    for _ in range(30):
        w.step(DT)
        top = max(top, energy())
    return e0, top


def test_restitution_energy_cap_keeps_an_elastic_corner_impact_from_gaining_energy():
    e0, top = _corner_energy(True)
    assert top <= e0 * (1.0 + 1e-9)
    e0, top = _corner_energy(False)
    assert top > e0 * (1.0 + 1e-6)


def _flat_landing_spin(block: bool) -> float:
    w = c2d.World(gravity=(0.0, -10.0))
    w.block_impacts = block
    w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5))
    plank = w.add_body(position=(0.0, 1.5), velocity=(0.0, -20.0))
    plank.add_box(2.0, 0.5, elasticity=0.0, friction=0.5)
    spin = 0.0
    for _ in range(60):
        w.step(DT)
        spin = max(spin, abs(plank.angular_velocity))
    return spin


def test_block_impacts_let_a_plank_landing_flat_stop_without_spinning():
    """A level plank hitting level ground at 20 m/s: the impact is symmetric, so it gives
    no torque. Point by point, the first point stops alone and the plank spins."""
    assert _flat_landing_spin(True) < 1e-2
    assert _flat_landing_spin(False) > 0.5
