"""Body settings and loads are bounded as coordinates are (``COORD_MAX``, 1e75): a value
beyond it is refused, naming the argument, and the world is unchanged."""

import numpy as np
import pytest

import collide2d as c2d

pytestmark = pytest.mark.nojit


def _world():
    w = c2d.World()
    b = w.add_body(position=(0.0, 1.0))
    b.add_box(1.0, 1.0)
    return w, b


@pytest.mark.parametrize("call", [
    lambda w, b: setattr(b, "gravity_scale", 1e80),
    lambda w, b: setattr(b, "gravity_scale", -1e80),
    lambda w, b: w.add_body(gravity_scale=1e80),
    lambda w, b: b.apply_force((1e80, 0.0)),
    lambda w, b: b.apply_force((1.0, 0.0), point=(0.0, 1e80)),
    lambda w, b: b.apply_impulse((0.0, -1e80)),
    lambda w, b: b.apply_torque(1e80),
    lambda w, b: w.apply_forces([b.id], [(1e80, 0.0)]),
    lambda w, b: w.apply_impulses([b.id], [(0.0, 1.0)], points=[(1e80, 0.0)]),
    lambda w, b: w.apply_torques([b.id], [-1e80]),
])
def test_a_load_or_gravity_scale_beyond_the_bound_is_refused_and_changes_nothing(call):
    w, b = _world()
    before = w.snapshot()
    with pytest.raises(ValueError, match="exceeds the supported"):
        call(w, b)
    assert w.snapshot() == before


def test_loads_at_the_bound_are_accepted():
    w, b = _world()
    b.gravity_scale = 1e75
    b.apply_force((1e75, 0.0))
    assert b.gravity_scale == 1e75
    assert np.isfinite(w.positions()).all()
