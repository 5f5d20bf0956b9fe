"""One-way shapes for rigid bodies: blocked from the side the direction points to, passed
from every other, the decision held while the two stay in contact."""

import copy

import numpy as np
import pytest

import collide2d as c2d

DT = 1.0 / 60.0

pytestmark = pytest.mark.nojit
TOP = 1.1  # the ledge's top face: a 0.2 m thick box centred at y = 1


def _ledge(direction=(0.0, 1.0), gravity=(0.0, -10.0)):
    w = c2d.World(gravity=gravity)
    ledge = w.add_body(kind="static").add_box(4.0, 0.2, offset=(0.0, 1.0))
    ledge.one_way = direction
    return w, ledge


def test_a_crate_falling_onto_a_one_way_ledge_lands_and_stays():
    w, _ = _ledge()
    crate = w.add_body(position=(0.0, 3.0))
    crate.add_box(0.5, 0.5)
    for _ in range(180):
        w.step(DT)
    # Resting on the top face: centre half its height above it (soft contacts rest within
    # a few millimetres).
    assert crate.position[1] == pytest.approx(TOP + 0.25, abs=0.01)
    assert abs(crate.velocity[1]) < 1e-3


def test_a_crate_thrown_up_from_below_passes_through_and_lands_on_top():
    w, _ = _ledge()
    crate = w.add_body(position=(0.0, 0.0), velocity=(0.0, 7.0))
    crate.add_box(0.5, 0.5)
    top = 0.0
    for _ in range(180):
        w.step(DT)
        top = max(top, crate.position[1])
    # Free flight: apex 7^2 / (2 g) = 2.45 m above the start, unhindered by the ledge.
    assert top == pytest.approx(2.45, abs=0.02)
    assert crate.position[1] == pytest.approx(TOP + 0.25, abs=0.01)


def test_a_ball_rolling_in_from_the_side_passes_and_no_contact_event_fires():
    w, ledge = _ledge(gravity=(0.0, 0.0))
    ball = w.add_body(position=(-3.0, 1.0), velocity=(5.0, 0.0))
    ball.add_circle(0.1)
    events = []
    w.on_contact_begin(events.append)
    for _ in range(120):  # 10 m at 5 m/s: through the 4 m ledge and out
        w.step(DT)
    assert ball.position[0] == pytest.approx(-3.0 + 5.0 * 120 * DT, abs=1e-9)
    assert ball.velocity.tolist() == [5.0, 0.0]
    assert events == []
    assert len(w.contacts().shape_a) == 0


def test_the_direction_turns_with_its_body():
    # A kinematic ledge turned upside down (pi) blocks from below: a crate thrown up at it
    # stops under it; the getter reports the turned direction.
    w = c2d.World(gravity=(0.0, 0.0))
    body = w.add_body(kind="kinematic", position=(0.0, 1.0))
    ledge = body.add_box(4.0, 0.2)
    ledge.one_way = (0.0, 1.0)
    body.angle = np.pi
    np.testing.assert_allclose(ledge.one_way, (0.0, -1.0), atol=1e-12)
    crate = w.add_body(position=(0.0, 0.0), velocity=(0.0, 3.0))
    crate.add_box(0.5, 0.5)
    for _ in range(60):
        w.step(DT)
    # Blocked at the bottom face (y = 0.9): the crate's top at most a few mm past it.
    assert crate.position[1] + 0.25 <= 0.9 + 0.01
    assert crate.velocity[1] <= 1e-6


def test_a_solid_shape_still_blocks_from_below():
    w = c2d.World(gravity=(0.0, -10.0))
    w.add_body(kind="static").add_box(4.0, 0.2, offset=(0.0, 1.0))
    crate = w.add_body(position=(0.0, 0.0), velocity=(0.0, 7.0))
    crate.add_box(0.5, 0.5)
    top = 0.0
    for _ in range(30):
        w.step(DT)
        top = max(top, crate.position[1])
    assert top + 0.25 <= 0.9 + 0.01


@pytest.mark.parametrize("value, error", [((0.0, 0.0), ValueError), ((np.nan, 1.0), ValueError),
                                          ("up", TypeError), ((1.0,), ValueError)])
def test_a_bad_direction_is_refused_and_changes_nothing(value, error):
    w, ledge = _ledge()
    before = w.snapshot()
    with pytest.raises(error, match="one_way"):
        ledge.one_way = value
    assert w.snapshot() == before


def test_one_way_is_unit_saved_copied_and_cleared():
    w, ledge = _ledge(direction=(0.0, 5.0))
    np.testing.assert_allclose(ledge.one_way, (0.0, 1.0))
    crate = w.add_body(position=(0.0, 0.0), velocity=(0.0, 7.0))
    crate.add_box(0.5, 0.5)
    for _ in range(10):  # inside the ledge, passing: the decision must survive a restore
        w.step(DT)
    back = c2d.World.restore(w.snapshot())
    twin = copy.deepcopy(w)
    for _ in range(100):
        for x in (w, back, twin):
            x.step(DT)
    assert back.snapshot() == w.snapshot() == twin.snapshot()
    ledge.one_way = None
    assert ledge.one_way is None
    plain = c2d.World()
    plain.add_body().add_box(1.0, 1.0)
    assert b"one_way" not in plain.snapshot()


def test_a_character_jumps_up_through_a_one_way_shape_and_lands_on_it():
    # No set_response: the shape's one_way makes it a jump-through platform for movers too.
    w, _ = _ledge(gravity=(0.0, 0.0))
    hero = w.add_body(kind="kinematic", position=(0.0, 0.0))
    hero.add_box(0.5, 0.5)
    v = np.array([0.0, 7.0])
    top = 0.0
    for _ in range(120):
        v[1] -= 10.0 * DT
        r = w.move_and_slide(hero, v, DT, up=(0.0, 1.0))
        v = r.velocity
        top = max(top, r.position[1])
    assert top > TOP + 0.25  # went up through it
    # Resting on the top face, less the mover's skin at most.
    assert hero.position[1] == pytest.approx(TOP + 0.25, abs=w.character_skin + 1e-9)
    assert r.on_floor
