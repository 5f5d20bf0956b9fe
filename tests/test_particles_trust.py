"""Particles and the step refuse what would leave a world whose snapshot does not restore."""

from __future__ import annotations

import numpy as np
import pytest

import collide2d as c2d


def world_with_particles():
    w = c2d.World()
    w.add_body(kind="static").add_box(10.0, 1.0)
    p = w.add_particles([(0.0, 2.0), (1.0, 2.0)], [(1.0, 0.0), (0.0, 0.0)])
    return w, p


@pytest.mark.nojit
@pytest.mark.parametrize("name", ["positions", "velocities"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, 1e300])
def test_bad_values_written_into_live_arrays_stop_step_and_snapshot(name, bad):
    w, p = world_with_particles()
    before = w.snapshot()
    getattr(p, name)[1, 0] = bad
    with pytest.raises(ValueError, match=f"particles.{name}"):
        w.step(1 / 60)
    with pytest.raises(ValueError, match=f"particles.{name}"):
        w.snapshot()
    assert w.time == 0.0 and w.positions().tolist() == [[0.0, 0.0]]
    getattr(p, name)[1, 0] = 0.0 if name == "velocities" else 1.0
    assert w.snapshot() == before            # fixed: the world is as it was
    w.step(1 / 60)


@pytest.mark.nojit
def test_particle_settings_are_checked_when_set():
    w, p = world_with_particles()
    other = c2d.World().add_body()
    other.add_circle(1.0)
    before = w.snapshot()
    with pytest.raises(ValueError, match="gravity_scale"):
        p.gravity_scale = 1e308
    with pytest.raises(ValueError, match="max_bounces"):
        p.max_bounces = 10**30
    with pytest.raises(TypeError, match="max_bounces"):
        p.max_bounces = 2.5
    with pytest.raises(ValueError, match="another world"):
        p.filter = c2d.QueryFilter(exclude=[other])
    assert w.snapshot() == before
    w.step(1 / 60)                           # and every later step still works


@pytest.mark.nojit
def test_a_step_longer_than_a_day_is_refused():
    w, _ = world_with_particles()
    before = w.snapshot()
    with pytest.raises(ValueError, match="dt: at most"):
        w.step(1e300)
    assert w.snapshot() == before
    w.step(86400.0)
    c2d.World.restore(w.snapshot())
