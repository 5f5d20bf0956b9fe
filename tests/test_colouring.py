"""Graph colouring of the constraint rows: rows of one colour share no movable body, every
row keeps its place in exactly one colour, and the colouring is the greedy one, checked
against a brute-force recolouring written here."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kernel_calls import compiled

import collide2d as c2d
from collide2d._kernels import colouring as col
from collide2d._kernels.constants import COLOURS

colour_rows = compiled(col.colour_rows)


def _greedy(pairs, movable):
    """Brute force: each row in turn takes the lowest colour no earlier row of that colour
    shares a movable body with; None past the last colour (overflow)."""
    colours = []
    for a, b in pairs:
        bodies = {x for x in (a, b) if movable[x]}
        c = 0
        while c < COLOURS and any(
            colours[r] == c and bodies & {x for x in pairs[r] if movable[x]}
            for r in range(len(colours))
        ):
            c += 1
        colours.append(c)
    return colours


def _colour(pairs, movable):
    n_bodies = len(movable)
    rows = np.arange(100, 100 + len(pairs), dtype=np.int64)
    ba = np.array([a for a, _ in pairs], dtype=np.int64)
    bb = np.array([b for _, b in pairs], dtype=np.int64)
    inv_m = np.where(movable, 1.0, 0.0)
    inv_i = np.zeros(n_bodies)
    start = np.zeros(COLOURS + 2, dtype=np.int64)
    n = colour_rows(rows, ba, bb, inv_m, inv_i, n_bodies, start)
    return rows - 100, ba, bb, start[: n + 1]


@pytest.mark.nojit
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_colours_share_no_movable_body_and_match_brute_force(data):
    n_bodies = data.draw(st.integers(2, 12))
    movable = np.array(data.draw(st.lists(st.booleans(), min_size=n_bodies,
                                          max_size=n_bodies)))
    body = st.integers(0, n_bodies - 1)
    pairs = data.draw(st.lists(st.tuples(body, body).filter(lambda p: p[0] != p[1]),
                               max_size=40))
    order, ba, bb, start = _colour(pairs, movable)
    assert sorted(order.tolist()) == list(range(len(pairs)))
    expected = _greedy(pairs, movable)
    for c in range(len(start) - 1):
        block = order[start[c]:start[c + 1]].tolist()
        assert block == sorted(block)  # row order kept within a colour
        assert all(expected[r] == c for r in block)
        seen = [x for r in block for x in pairs[r] if movable[x]]
        assert len(seen) == len(set(seen))
    # The bodies travel with their rows.
    assert ba.tolist() == [pairs[r][0] for r in order]
    assert bb.tolist() == [pairs[r][1] for r in order]


@pytest.mark.nojit
def test_immovable_bodies_are_shared_and_overflow_comes_last():
    # Body 0 is the ground: ten boxes on it take one colour. Body 1 then meets 65 others:
    # 64 colours, and the 65th row overflows.
    movable = np.ones(80, dtype=bool)
    movable[0] = False
    pairs = [(0, b) for b in range(2, 12)] + [(1, b) for b in range(12, 77)]
    order, _, _, start = _colour(pairs, movable)
    assert start.tolist()[:3] == [0, 11, 12]  # colour 0: ten on the ground, 1-12
    assert len(start) == COLOURS + 2
    assert order[-1] == len(pairs) - 1  # the overflow row


def test_a_pyramid_is_solved_colour_by_colour():
    """A 4-box pyramid's contacts, colour order on: rows of each colour share no box, and the
    colours the step recorded cover every solved row."""
    world = c2d.World()
    world._params[0]["colour_rows"] = 1  # off by default (see solver.prepare_contacts)
    world.add_body(kind="static").add_box(20, 1, offset=(0, -0.5))
    for row in range(4):
        for k in range(4 - row):
            world.add_body(position=(k - (3 - row) / 2, 0.5 + row)).add_box(1, 1)
    world.step(1 / 60)
    t = world._step_buffers.view()
    n_rows = int(t.state[0]["n_rows"])
    n = int(t.state[0]["n_colours"])
    start = t.colour_start[: n + 1]
    assert n_rows > 0 and start[0] == 0 and start[n] == n_rows
    for c in range(n):
        bodies = [x for q in range(start[c], start[c + 1]) for x in (t.ba[q], t.bb[q])
                  if x != 0]  # body slot 0 is the ground
        assert len(bodies) == len(set(bodies))
