"""Resetting a world in place (``snapshot.assign``, ``WorldBatch.reset``): the oracle is
``World.restore`` of the same bytes, which rebuilds the world from scratch. Snapshots must
agree byte for byte, and keep agreeing while both step."""

from __future__ import annotations

import numpy as np
import pytest

# A ground, a stack of four boxes, a ball, and a motor-driven arm on a revolute joint.
from test_batch_worlds import _scene  # noqa: E402

import collide2d as c2d
from collide2d import batch_worlds, snapshot

DT = 1 / 60
nojit = pytest.mark.nojit


@nojit
def test_assign_makes_a_world_continue_as_its_snapshot():
    world, bodies = _scene()
    data = world.snapshot()
    played = c2d.World.restore(data)
    played.gravity = (1.0, -12.0)  # a setting the template's replaces
    for _ in range(25):
        played.step(DT)
    assert played._contacts.count > 0  # touching: rows the reset must drop
    template = c2d.World.restore(data)
    assert snapshot.assign(played, template)
    assert played.snapshot() == data
    fresh = c2d.World.restore(data)
    for _ in range(20):
        played.step(DT)
        fresh.step(DT)
    assert played.snapshot() == fresh.snapshot()
    assert template.snapshot() == data  # the template is only read


@nojit
def test_assign_refuses_another_layout_and_changes_nothing():
    world, bodies = _scene()
    data = world.snapshot()
    template = c2d.World.restore(data)

    fewer = c2d.World.restore(data)
    fewer.remove(fewer.body(bodies[1].id))
    more = c2d.World.restore(data)
    more.body(bodies[0].id).add_circle(0.2)
    other_kind = c2d.World.restore(data)
    other_kind.body(bodies[0].id).kind = "kinematic"
    for dst in (fewer, more, other_kind):
        before = dst.snapshot()
        assert not snapshot.assign(dst, template)
        assert dst.snapshot() == before

    # A template with contacts (its warm start) is not copied in place.
    touching = c2d.World.restore(data)
    for _ in range(30):
        touching.step(DT)
    dst = c2d.World.restore(data)
    before = dst.snapshot()
    assert not snapshot.assign(dst, touching)
    assert dst.snapshot() == before


def _drive(batch, ids, steps, seed):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        batch.apply_impulses(ids, rng.uniform(-2, 2, (len(batch), len(ids), 2)))
        batch.step(DT)


def _drive_lone(data, ids, steps, seed, n):
    """The oracle: n worlds rebuilt from ``data`` and driven as ``_drive`` drives a batch."""
    rng = np.random.default_rng(seed)
    worlds = [c2d.World.restore(data) for _ in range(n)]
    for _ in range(steps):
        imps = rng.uniform(-2, 2, (n, len(ids), 2))
        for i, w in enumerate(worlds):
            for k, body_id in enumerate(ids):
                w.body(int(body_id)).apply_impulse(imps[i, k])
            w.step(DT)
    return worlds


@nojit
@pytest.mark.parametrize("in_place", [True, False])
def test_batch_reset_gives_the_bits_of_a_rebuilt_world(monkeypatch, in_place):
    """Reset in place or rebuilt, a reset row continues as a world restored from the bytes;
    a row whose layout its caller changed is rebuilt."""
    world, bodies = _scene()
    data = world.snapshot()
    ids = np.array([b.id for b in bodies])
    if not in_place:
        monkeypatch.setattr(batch_worlds._snapshot, "assign", lambda *args, **kwargs: False)
    batch = c2d.WorldBatch(world, 3)
    _drive(batch, ids, 20, 1)
    row1 = batch.world(1)
    row1.remove(row1.body(int(ids[2])))
    batch.reset([0, 1])
    _drive(batch, ids[[0, 1, 3, 4]], 15, 2)
    lone = _drive_lone(data, ids[[0, 1, 3, 4]], 15, 2, 3)
    for i in (0, 1):
        assert batch.world(i).snapshot() == lone[i].snapshot()
    batch.reset([0, 1, 2])  # again: every row from where it was
    _drive(batch, ids, 15, 3)
    state = batch.body_states(ids)
    lone = _drive_lone(data, ids, 15, 3, 3)
    want = np.array([[w.body(int(b)).position for b in ids] for w in lone])
    assert np.array_equal(state.position, want)
    for i in range(3):
        assert batch.world(i).snapshot() == lone[i].snapshot()


@nojit
def test_batch_reset_in_place_keeps_taking_the_short_cut():
    """A row reset and stepped, untouched, is reset again in place, still bit for bit."""
    world, bodies = _scene()
    data = world.snapshot()
    ids = np.array([b.id for b in bodies])
    batch = c2d.WorldBatch(world, 2)
    for seed in (5, 6, 7):
        batch.reset([0, 1])
        _drive(batch, ids, 12, seed)
    assert batch._same_as.get(0) is not None  # the layout check was remembered
    lone = _drive_lone(data, ids, 12, 7, 2)
    state = batch.body_states(ids)
    want = np.array([[w.body(int(b)).position for b in ids] for w in lone])
    assert np.array_equal(state.position, want)


@nojit
def test_batch_reset_after_a_joint_broke():
    world, bodies = _scene()
    world.joints[0].break_torque = 1.0  # the motor's 50 N m breaks it at once
    data = world.snapshot()
    batch = c2d.WorldBatch(world, 2)
    _drive(batch, np.array([bodies[0].id]), 5, 4)
    assert not batch.world(0).joints[0].enabled  # broken: the reset mends it
    batch.reset([0, 1])
    assert batch.world(0).snapshot() == data
    assert batch.world(1).snapshot() == data


@nojit
def test_batch_reset_raises_before_changing_any_world():
    """A world read from the batch and given a callback makes the next call raise; a reset
    raises before it resets anything."""
    world, bodies = _scene()
    batch = c2d.WorldBatch(world, 2)
    _drive(batch, np.array([bodies[0].id]), 5, 8)
    before = batch.world(0).snapshot()
    batch.world(1).on_contact_begin(lambda event: None)
    with pytest.raises(ValueError, match="callbacks"):
        batch.reset([0, 1])
    assert batch.world(0).snapshot() == before


@nojit
def test_a_world_kept_from_an_earlier_read_and_changed_is_rebuilt():
    """The remembered layout check notices a body added through a World kept from before
    the last reset: the next reset rebuilds that world rather than copying into it."""
    world, bodies = _scene()
    data = world.snapshot()
    batch = c2d.WorldBatch(world, 2)
    kept = batch.world(0)
    batch.reset([0, 1])
    batch.reset([0, 1])  # the layout check is remembered now
    kept.add_body(position=(6, 6)).add_circle(0.3)
    batch.reset([0, 1])
    assert batch.world(0).snapshot() == data
    assert len(batch.world(0).bodies) == len(world.bodies)


@nojit
def test_assign_refuses_a_stepping_world():
    world, bodies = _scene()
    template = c2d.World.restore(world.snapshot())
    errors = []

    def during(contact):
        try:
            snapshot.assign(world, template)
        except RuntimeError as exc:
            errors.append(exc)

    world.on_pre_solve(during)  # runs inside the step, the world locked
    for _ in range(30):
        world.step(DT)
    assert errors
