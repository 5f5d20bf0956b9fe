"""One caller steps a world at a time, and callbacks see the step as it ended."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import collide2d as c2d

DT = 1.0 / 60.0


def stack(n: int = 4) -> c2d.World:
    w = c2d.World(gravity=(0.0, -10.0), sleeping=False)   # awake: contacts carry load
    w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5))
    for i in range(n):
        w.add_body(position=(0.0, 0.5 + i)).add_box(1.0, 1.0)
    return w


def test_step_from_a_callback_raises_and_changes_nothing():
    w = stack()
    for _ in range(30):
        w.step(DT)
    seen = []

    @w.on_contact_persist
    def again(event):
        seen.append(event)
        w.step(DT)

    before = w.time
    with pytest.raises(RuntimeError, match="stepping"):
        w.step(DT)
    # The outer step happened (once), the inner ones did not.
    assert w.time == pytest.approx(before + DT, abs=0.0)
    assert len(seen) >= 1
    w._callbacks["contact_persist"].clear()
    w.step(DT)                       # the world steps on normally afterwards
    assert w.time == pytest.approx(before + 2 * DT, abs=0.0)


def test_a_second_thread_cannot_step_while_a_step_runs():
    w = stack()
    started, release = threading.Event(), threading.Event()
    errors = []

    @w.on_contact_persist
    def hold(event):
        started.set()
        release.wait(10.0)

    def other():
        started.wait(10.0)
        try:
            w.step(DT)
        except RuntimeError as exc:
            errors.append(exc)
        finally:
            release.set()

    thread = threading.Thread(target=other)
    thread.start()
    for _ in range(5):               # contacts persist from the second step on
        w.step(DT)
    thread.join(10.0)
    assert len(errors) == 1 and "stepping" in str(errors[0])
    assert w.time == pytest.approx(5 * DT)


def test_callbacks_see_the_step_as_it_ended_whatever_others_do():
    """A callback that removes every body it hears of does not change what the next
    callbacks and events report: impulses, shapes and normals of the step."""
    plain, edited = stack(), stack()
    for w in (plain, edited):
        for _ in range(40):
            w.step(DT)
    got = {"plain": [], "edited": []}
    plain.on_contact_persist(lambda e: got["plain"].append((e.impulse, tuple(e.normal))))

    def remover(e):
        for shape in (e.shape_a, e.shape_b):
            if shape.body.alive and shape.body.kind == "dynamic":
                edited.remove(shape.body)

    edited.on_contact_persist(remover)
    edited.on_contact_persist(lambda e: got["edited"].append((e.impulse, tuple(e.normal))))
    plain.step(DT)
    edited.step(DT)
    assert len(got["plain"]) == 4 and all(imp > 0.0 for imp, _ in got["plain"])
    assert got["edited"] == got["plain"]
    assert edited.bodies == edited.bodies[:1]   # every dynamic body was removed


def test_an_exception_in_one_callback_loses_no_events_of_the_others():
    w = stack()
    for _ in range(40):
        w.step(DT)
    seen = []

    @w.on_contact_persist
    def broken(event):
        raise KeyError("boom")

    w.on_contact_persist(lambda e: seen.append(e.shape_a.id))
    with pytest.raises(KeyError, match="boom"):
        w.step(DT)
    assert len(seen) == 4            # every persisting contact reached the second callback
    assert np.isfinite(w.positions()).all()
