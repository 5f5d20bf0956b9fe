"""Particles on the state model: the store's schema drives snapshots, settings live in one
record written by the setters, and the hit table grows when a step needs more rows (the
step resumes where it stopped, with the same bits as a table large from the start)."""

from __future__ import annotations

import numpy as np
import pytest

import collide2d as c2d
from collide2d import _store as S
from collide2d import particles as particles_surface
from collide2d._kernels import particles as K
from collide2d._kernels import views as KV

nojit = pytest.mark.nojit
DT = 1.0 / 60.0


def channel(n: int = 400, mode: str = "bounce", seed: int = 4):
    """Particles in a narrow box: many hits per step, several bounces per particle."""
    w = c2d.World(gravity=(0.0, -10.0))
    box = w.add_body(kind="static")
    box.add_box(4.0, 0.2, offset=(0.0, -0.1))
    box.add_box(4.0, 0.2, offset=(0.0, 1.1))
    box.add_box(0.2, 1.4, offset=(-2.1, 0.5))
    box.add_box(0.2, 1.4, offset=(2.1, 0.5))
    w.add_body(position=(0.5, 0.5), angular_velocity=2.0).add_circle(0.2)
    rng = np.random.default_rng(seed)
    pos = rng.uniform((-1.9, 0.1), (1.9, 0.9), (n, 2))
    vel = rng.uniform(-200.0, 200.0, (n, 2))
    return w, w.add_particles(pos, vel, on_hit=mode, elasticity=0.9)


@nojit
@pytest.mark.parametrize("mode", ["bounce", "pass"])
def test_hit_table_grows_and_the_step_resumes_with_the_same_bits(mode):
    small_w, small = channel(60, mode)
    large_w, large = channel(60, mode)
    small._hits = S.ParticleHitStore(1)        # grows at nearly every leg of the first step
    large._hits.fit(100_000)
    for _ in range(3):
        small_w.step(DT)
        large_w.step(DT)
        a, b = small.hits, large.hits
        assert len(a.particle) == len(b.particle) > 1
        for x, y in zip(a, b, strict=True):
            assert x.tobytes() == y.tobytes()
    assert small.positions.tobytes() == large.positions.tobytes()
    assert small.velocities.tobytes() == large.velocities.tobytes()
    assert small._hits.capacity < large._hits.capacity
    assert small_w.snapshot() == large_w.snapshot()


@nojit
def test_step_reports_the_rows_it_needs_and_applies_nothing_of_that_leg(monkeypatch):
    w, p = channel(50, "stop")
    p._hits = S.ParticleHitStore(1)
    before = p.positions.copy()
    calls = []
    kernels = particles_surface._kp  # what the surface calls the kernels through
    real = kernels.step_particles

    def spy(*args):
        status = real(*args)
        st = args[-1][0]
        calls.append((int(status), int(st["need"]), int(st["leg"]),
                      p.positions.tobytes() == before.tobytes()))
        return status

    monkeypatch.setattr(kernels, "step_particles", spy)
    w.step(DT)
    # The first leg's hits did not fit: nothing moved, the step kept its place (leg 0).
    assert calls[0][:1] == (1,) and calls[0][1] > 1 and calls[0][2:] == (0, True)
    assert calls[-1][:3] == (0, 0, -1)
    assert p._hits.capacity >= p._hits.count == calls[0][1]
    assert not p.alive.all()


def test_a_new_particle_field_is_saved_and_restored_by_the_schema(monkeypatch):
    fields = dict(S.ParticleStore.FIELDS)
    fields["test_only"] = ((2,), np.float64, 0.0)
    monkeypatch.setattr(S.ParticleStore, "FIELDS", fields)
    w = c2d.World()
    p = w.add_particles([(0.0, 1.0), (2.0, 3.0)])
    p._store.test_only[1] = (3.5, -1.25)
    twin = c2d.World.restore(w.snapshot())
    (q,) = twin._systems
    assert q._store.test_only[:2].tolist() == [[0.0, 0.0], [3.5, -1.25]]


def test_settings_live_in_one_record_written_by_the_setters():
    w = c2d.World()
    p = w.add_particles([(0.0, 0.0)], on_hit="pass", elasticity=0.25, gravity_scale=-2.0,
                        drag=0.5, filter=c2d.QueryFilter(category=2, mask=6, sensors=True))
    p.max_bounces = 7
    rec = p._params[0]
    assert rec.dtype == KV.PARTICLE_PARAMS_DTYPE
    assert (rec["mode"], rec["max_bounces"], rec["category"], rec["mask"], rec["sensors"]) == (
        K.PASS, 7, 2, 6, 1)
    assert (rec["elasticity"], rec["gravity_scale"], rec["drag"]) == (0.25, -2.0, 0.5)
    p.on_hit = "bounce"
    p.drag = 1.5
    assert (p.on_hit, p.drag, rec["mode"], rec["drag"]) == ("bounce", 1.5, K.BOUNCE, 1.5)
    with pytest.raises(ValueError):
        p.elasticity = -1.0
    assert p.elasticity == 0.25
    # The snapshot keeps its saved names.
    names = set(p._snapshot_arrays())
    assert names == {"positions", "velocities", "alive", "on_hit", "settings", "max_bounces",
                     "filter_bits", "filter_exclude", "hit_particle", "hit_body",
                     "hit_shape", "hit_point", "hit_normal", "hit_fraction", "frame_com",
                     "frame_angle", "frame_generation"}


def test_store_grows_and_compacts_keeping_order():
    store = S.ParticleStore(2)
    pos, vel = S.ParticleStore.check_new([(0, 0), (1, 0), (2, 0)], (1.0, 2.0))
    store.append(pos, vel)
    assert store.capacity >= 3 and store.count == 3
    assert store.legs.particle.shape[0] == store.capacity
    view = store.view()
    assert view.positions is store.positions
    store.keep(np.array([True, False, True]))
    assert store.count == 2
    assert store.positions[:2, 0].tolist() == [0.0, 2.0]
    assert store.velocities[:2].tolist() == [[1.0, 2.0], [1.0, 2.0]]
    with pytest.raises(ValueError):
        S.ParticleStore.check_new([(0, 0)], [(1, 2), (3, 4)])
