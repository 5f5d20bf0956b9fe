"""A settled world's step skips the compiled call while nothing has been written since
(World._still_step): the result must be bit for bit the compiled step's, after every kind
of write a user can make to a settled world.

The oracle is the same world with the short cut turned off (its ``_still_step`` always
False), which runs the compiled step every time: both are compared by their snapshot bytes
after each step. A write the short cut missed would leave the fast
world unmoved while the other moves, so each case can fail."""

import copy

import numpy as np
import pytest

import collide2d as c2d
from collide2d import world as world_module

DT = 1.0 / 60.0

pytestmark = pytest.mark.nojit


def build():
    """Boxes stacked and side by side, a ball, a pendulum hanging at rest from a revolute
    joint with a motor (speed 0), a kinematic platform at rest."""
    w = c2d.World(gravity=(0.0, -10.0))
    ground = w.add_body(kind="static")
    ground.add_box(30.0, 1.0, offset=(0.0, -0.5))
    for k in range(3):
        w.add_body(position=(0.0, 0.5 + k)).add_box(1.0, 1.0)
    w.add_body(position=(2.0, 0.5)).add_box(1.0, 1.0)
    w.add_body(position=(4.0, 0.5)).add_circle(0.5)
    bob = w.add_body(position=(8.0, 3.0))
    bob.add_circle(0.25)
    w.add_revolute_joint(ground, bob, (8.0, 4.0), max_motor_torque=0.5)
    w.add_body(kind="kinematic", position=(-6.0, 2.0)).add_box(2.0, 0.2)
    return w


@pytest.fixture(scope="module")
def settled():
    w = build()
    for _ in range(1200):
        w.step(DT)
        if w._still is not None:
            return w
    raise AssertionError("the scene never settled")


def pair(settled):
    """The settled world twice: the first takes the short cut, the second never does; both
    stepped until the first takes it again (a copy starts with a compiled step)."""
    fast = copy.deepcopy(settled)
    ref = copy.deepcopy(settled)
    ref._still_step = lambda dt: False
    for _ in range(3):
        fast.step(DT)
        ref.step(DT)
    assert fast._still is not None
    assert fast.snapshot() == ref.snapshot()
    return fast, ref


def dynamic(w):
    return [b for b in w.bodies if b.kind == "dynamic"]


def _set_tile(w):
    tm = w.add_tilemap(np.zeros((2, 2), dtype=int), origin=(-3.0, 0.0))
    tm.set_tile(0, 0, 1)


def _character(w):
    hero = w.add_body(kind="kinematic", position=(2.0, 1.5))
    hero.add_box(0.5, 0.5)
    w.set_character(hero)
    return hero


# Each write, applied to both worlds at the same point; the names say what it touches.
WRITES = {
    "velocity": lambda w: setattr(dynamic(w)[3], "velocity", (1.0, 0.0)),
    "angular_velocity": lambda w: setattr(dynamic(w)[4], "angular_velocity", 3.0),
    "apply_force": lambda w: dynamic(w)[2].apply_force((0.0, 400.0)),
    "apply_force_at_point": lambda w: dynamic(w)[2].apply_force((30.0, 0.0), (0.4, 3.0)),
    "apply_torque": lambda w: dynamic(w)[4].apply_torque(5.0),
    "apply_impulse": lambda w: dynamic(w)[3].apply_impulse((0.0, 3.0)),
    "awake": lambda w: setattr(dynamic(w)[0], "awake", True),
    "asleep": lambda w: setattr(dynamic(w)[0], "awake", False),
    "fixed_rotation": lambda w: setattr(dynamic(w)[4], "fixed_rotation", True),
    "kind": lambda w: setattr(dynamic(w)[3], "kind", "kinematic"),
    "position": lambda w: setattr(dynamic(w)[3], "position", (2.0, 3.0)),
    "angle": lambda w: setattr(dynamic(w)[3], "angle", 0.3),
    "kinematic_velocity": lambda w: setattr(w.bodies[-1], "velocity", (0.5, 0.0)),
    "gravity": lambda w: setattr(w, "gravity", (3.0, -10.0)),
    "sleeping_off": lambda w: setattr(w, "sleeping", False),
    "substeps": lambda w: setattr(w, "substeps", 6),
    "contact_hertz": lambda w: setattr(w, "contact_hertz", 20.0),
    "set_velocities": lambda w: w.set_velocities([dynamic(w)[4].id], [[2.0, 0.0]]),
    "set_angular_velocities": lambda w: w.set_angular_velocities([dynamic(w)[4].id], [1.0]),
    "set_positions": lambda w: w.set_positions([dynamic(w)[3].id], [[2.0, 2.0]]),
    "apply_forces": lambda w: w.apply_forces([dynamic(w)[2].id], [[0.0, 400.0]]),
    "apply_impulses": lambda w: w.apply_impulses([dynamic(w)[3].id], [[0.0, 3.0]]),
    "apply_torques": lambda w: w.apply_torques([dynamic(w)[4].id], [5.0]),
    "motor": lambda w: setattr(w.joints[0], "motor_speed", 2.0),
    "set_motors": lambda w: w.set_motors(w.joints, [2.0], [0.5]),
    "mouse_joint": lambda w: w.add_mouse_joint(dynamic(w)[4], (4.0, 0.5), max_force=100.0),
    "joint_off": lambda w: setattr(w.joints[0], "enabled", False),
    "friction": lambda w: setattr(dynamic(w)[0].shapes[0], "friction", 0.0),
    "density": lambda w: setattr(dynamic(w)[2].shapes[0], "density", 5.0),
    "sensor": lambda w: setattr(dynamic(w)[3].shapes[0], "sensor", True),
    "add_body": lambda w: w.add_body(position=(0.0, 5.0)).add_circle(0.3),
    "add_shape": lambda w: dynamic(w)[2].add_circle(0.3, offset=(0.0, 0.6)),
    "remove_body": lambda w: w.remove(dynamic(w)[0]),
    "remove_shape": lambda w: w.remove(dynamic(w)[3].shapes[0]),
    "ignore_collisions": lambda w: w.ignore_collisions(dynamic(w)[1], dynamic(w)[2]),
    "set_tile": _set_tile,
    "move_and_slide": lambda w: w.move_and_slide(_character(w), (2.0, 0.0), DT),
    "particles": lambda w: w.add_particles([[4.0, 3.0]], [[0.0, -1.0]]),
    "time": lambda w: setattr(w, "time", 100.0),
}


@pytest.mark.parametrize("name", sorted(WRITES))
def test_a_write_to_a_settled_world_steps_as_the_compiled_step(settled, name):
    fast, ref = pair(settled)
    for w in (fast, ref):
        WRITES[name](w)
    for k in range(120):
        fast.step(DT)
        ref.step(DT)
        if k % 10 == 9 or k < 3:
            assert fast.snapshot() == ref.snapshot(), f"step {k + 1} after {name}"
    assert fast.time == ref.time


def test_moves_after_a_write(settled):
    """Why every surface write marks the world: a velocity written past the surface goes
    unseen by the still steps (so a write the short cut missed would fail the cases above),
    the same velocity through ``Body.velocity`` moves the ball."""
    fast, ref = pair(settled)
    ball = dynamic(fast)[4]
    start = ball.position.copy()
    fast._bodies.vel[ball._slot] = (1.0, 0.0)  # written past the surface: no wake
    for _ in range(10):
        fast.step(DT)
    np.testing.assert_array_equal(ball.position, start)  # skipped: nothing woke it
    dynamic(fast)[4].velocity = (1.0, 0.0)
    for _ in range(10):
        fast.step(DT)
    assert ball.position[0] > start[0] + 0.1


def test_a_still_world_skips_the_compiled_call(settled, monkeypatch):
    fast, ref = pair(settled)
    calls = []
    real = world_module._run_step

    def counted(*args):
        calls.append(args[3])
        return real(*args)

    monkeypatch.setattr(world_module, "_run_step", counted)
    t0 = fast.time
    for _ in range(50):
        fast.step(DT)
    assert calls == []
    assert fast.time == pytest.approx(t0 + 50 * DT, abs=1e-12)
    for _ in range(50):
        ref.step(DT)
    assert len(calls) == 50
    assert fast.snapshot() == ref.snapshot()
    # another dt: the compiled step runs (its record holds the dt)
    fast.step(DT / 2)
    assert len(calls) == 51


def test_callbacks_on_a_still_world_are_called_every_step(settled):
    fast, ref = pair(settled)
    seen = {id(fast): [], id(ref): []}
    for w in (fast, ref):
        w.on_contact_persist(lambda ev, w=w: seen[id(w)].append(ev.shape_a.id))
    for _ in range(5):
        fast.step(DT)
        ref.step(DT)
    assert seen[id(fast)] == seen[id(ref)]
    assert len(seen[id(fast)]) > 0


def test_step_from_a_callback_of_a_still_world_raises(settled):
    fast, _ = pair(settled)
    errors = []

    def again(ev):
        try:
            fast.step(DT)
        except RuntimeError as exc:
            errors.append(exc)

    fast.on_contact_persist(again)
    fast.step(DT)
    assert errors


def test_bad_dt_on_a_still_world_raises(settled):
    fast, _ = pair(settled)
    t0 = fast.time
    for dt in (0.0, -DT, float("nan"), 1e6):
        with pytest.raises(ValueError, match="dt"):
            fast.step(dt)
    assert fast.time == t0


def test_restored_and_copied_still_worlds_continue_bit_identically(settled):
    fast, ref = pair(settled)
    data = fast.snapshot()
    twin = c2d.World.restore(data)
    clone = copy.deepcopy(fast)
    dynamic(fast)[3].velocity = (1.0, 0.0)
    dynamic(ref)[3].velocity = (1.0, 0.0)
    dynamic(twin)[3].velocity = (1.0, 0.0)
    dynamic(clone)[3].velocity = (1.0, 0.0)
    for _ in range(30):
        for w in (fast, ref, twin, clone):
            w.step(DT)
    assert fast.snapshot() == ref.snapshot() == twin.snapshot() == clone.snapshot()


# Writes that can be repeated on the same world and leave it to settle again (none that
# sets the ball rolling or the motor turning for good).
REPEATABLE = ("velocity", "apply_force", "apply_force_at_point", "apply_impulse", "awake",
              "asleep", "position", "angle", "apply_forces", "apply_impulses", "friction",
              "density", "time")


def test_writes_at_random_times_step_as_the_compiled_step(settled):
    """Writes at random steps, each world left to settle again in between (so the short
    cut is taken, dropped and taken again): the same snapshots throughout."""
    fast, ref = pair(settled)
    rng = np.random.default_rng(7)
    still_steps = 0
    writes = 0
    for k in range(2000):
        if rng.random() < 0.006:
            writes += 1
            name = REPEATABLE[int(rng.integers(len(REPEATABLE)))]
            for w in (fast, ref):
                WRITES[name](w)
        still_steps += fast._still is not None
        fast.step(DT)
        ref.step(DT)
        if k % 50 == 49:
            assert fast.snapshot() == ref.snapshot(), f"step {k + 1}"
    assert fast.snapshot() == ref.snapshot()
    assert writes >= 8
    assert still_steps > 600  # the short cut was taken, dropped and taken again
