"""``broadphase.find_pairs`` against an O(n^2) brute force written here in NumPy.

The oracle restates the contract independently of the kernel: every pair of rows a < b below
``n_shapes`` that are alive (and not sensors, in the solid sweep), whose boxes overlap as
closed intervals on both axes, and whose response (same body, static/kinematic, group,
category/mask and sensor rules, as documented on ``Shape.group`` and ``World``) equals
``want``; sorted by (a, b), responses as int8.

Scenes: boxes of widely mixed sizes (tiny, unit, 200 m ground, 150 m walls), points and
zero-width boxes, coordinates snapped to a coarse lattice so that exact touches (min == max)
and boxes on cell boundaries are common, dense clusters (more pairs than the first buffer),
one long row, one tall column, far outliers; dead rows, sensors, same-body shapes, static
and kinematic bodies, filters; rows past ``n_shapes`` holding junk; n = 0, 1, 2.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from kernel_calls import compiled

import collide2d as c2d
from collide2d._kernels import broadphase as bp
from collide2d._kernels import poses
from collide2d._kernels.views import PairRuleView, PairShapes
from collide2d._store import DYNAMIC, KINEMATIC, S_ALIVE, S_SENSOR, STATIC

find_pairs = compiled(bp.find_pairs)
small_pairs = compiled(bp.small_pairs)
index_shapes = compiled(poses.index_shapes)

nojit = pytest.mark.nojit

IGNORE, SOLID, SENSOR = 0, 1, 2  # the responses World documents ("ignore", "solid", ...)
ALL_BITS = 0xFFFFFFFF
NO_RULES = PairRuleView(np.zeros(0, np.int64), np.zeros(0, np.int8), np.zeros(0, np.int64))


# ----------------------------------------------------------------------------- oracle
def brute_pairs(ps, n_shapes, dynamic_response, want):
    """(pa, pb, pr) by testing every pair of rows. ``ps.rules``: a PairRuleView, read here
    as a dict of type pairs and a set of body pairs."""
    aabb, s_body, s_flags, s_category, s_mask, s_group, s_type, kind, rules = ps[:9]
    by_types = {(int(k) >> 32, int(k) & 0xFFFFFFFF): int(r)
                for k, r in zip(rules.type_keys, rules.type_resp, strict=True)}
    ignored = {(int(k) >> 32, int(k) & 0xFFFFFFFF) for k in rules.body_keys}
    rows = np.arange(n_shapes)
    flags = s_flags[:n_shapes]
    use = (flags & S_ALIVE) != 0
    if want == SOLID:
        use &= (flags & S_SENSOR) == 0
    rows = rows[use]
    ia, ib = np.triu_indices(len(rows), 1)  # lexicographic, so already sorted by (a, b)
    a = rows[ia]
    b = rows[ib]
    box_a = aabb[a]
    box_b = aabb[b]
    overlap = ~((box_a[:, 0] > box_b[:, 2]) | (box_b[:, 0] > box_a[:, 2])
                | (box_a[:, 1] > box_b[:, 3]) | (box_b[:, 1] > box_a[:, 3]))

    body_a = s_body[a]
    body_b = s_body[b]
    kind_a = kind[body_a]
    kind_b = kind[body_b]
    sensor = ((s_flags[a] | s_flags[b]) & S_SENSOR) != 0
    dyn_a = kind_a == DYNAMIC
    dyn_b = kind_b == DYNAMIC
    kin = (kind_a == KINEMATIC) | (kind_b == KINEMATIC)
    # Without a dynamic body only a sensor meeting a kinematic body reports.
    moving = dyn_a | dyn_b | (sensor & kin)
    ga = s_group[a]
    gb = s_group[b]
    same_group = (ga != 0) & (ga == gb)
    filtered = np.where(same_group, ga > 0,
                        ((s_category[a] & s_mask[b]) != 0) & ((s_category[b] & s_mask[a]) != 0))
    ta = s_type[a]
    tb = s_type[b]
    rule = np.array([by_types.get((min(x, y), max(x, y)), -1) for x, y in zip(ta, tb, strict=True)],
                    dtype=np.int64)
    apart = np.array([(min(x, y), max(x, y)) in ignored for x, y in
                      zip(body_a, body_b, strict=True)],
                     dtype=bool)
    # Two dynamic bodies take dynamic_response, unless they share a positive group.
    response = np.where(dyn_a & dyn_b & ~(same_group & (ga > 0)), dynamic_response, SOLID)
    response = np.where(rule >= 0, rule, response)  # a type rule wins over the default
    response = np.where(sensor, SENSOR, response)   # a sensor shape never collides
    response = np.where((body_a != body_b) & ~apart & moving & filtered, response, IGNORE)

    keep = overlap & (response == want)
    return (a[keep].astype(np.int64), b[keep].astype(np.int64),
            response[keep].astype(np.int8))


# ----------------------------------------------------------------------------- scenes
class Scene:
    """The kernel's inputs, with ``extra`` junk rows past n_shapes (as a store's capacity)."""

    def __init__(self, aabb, s_body, s_flags, s_category, s_mask, s_group, kind, extra=3,
                 seed=0, s_type=None, rules=NO_RULES):
        n = len(aabb)
        self.n_shapes = n
        cap = n + extra
        self.aabb = np.empty((cap, 4))
        self.aabb[:n] = aabb
        # Junk past n_shapes: alive-looking rows overlapping everything.
        self.aabb[n:] = (-1e9, -1e9, 1e9, 1e9)
        self.s_body = np.concatenate([np.asarray(s_body, np.int64), np.zeros(extra, np.int64)])
        self.s_flags = np.concatenate([np.asarray(s_flags, np.int32),
                                       np.full(extra, S_ALIVE | (S_SENSOR * (seed % 2)),
                                               np.int32)])
        self.s_category = np.concatenate([np.asarray(s_category, np.int64),
                                          np.full(extra, ALL_BITS, np.int64)])
        self.s_mask = np.concatenate([np.asarray(s_mask, np.int64),
                                      np.full(extra, ALL_BITS, np.int64)])
        self.s_group = np.concatenate([np.asarray(s_group, np.int64),
                                       np.zeros(extra, np.int64)])
        self.kind = np.asarray(kind, np.int8)
        types = np.zeros(n, np.int64) if s_type is None else np.asarray(s_type, np.int64)
        self.s_type = np.concatenate([types, np.zeros(extra, np.int64)])
        self.rules = rules

    def args(self, dynamic_response, want):
        """Arguments of find_pairs and of the brute-force oracle alike, with the shape
        index of the boxes (poses.index_shapes, built afresh)."""
        cap = len(self.aabb)
        order = np.full(cap, -1, np.int64)
        reach = np.zeros(cap)
        movers, statics = index_shapes(self.kind, self.s_body, self.s_flags, self.aabb, order,
                                       reach, self.n_shapes, -1, -1, True)
        return (PairShapes(self.aabb, self.s_body, self.s_flags, self.s_category, self.s_mask,
                           self.s_group, self.s_type, self.kind, self.rules, order, reach,
                           movers, statics),
                self.n_shapes, dynamic_response, want)


def check(scene, dynamic_response=SOLID, want=SOLID):
    got = find_pairs(*scene.args(dynamic_response, want))
    expect = brute_pairs(*scene.args(dynamic_response, want))
    assert len(got) == 3
    for g, e, name in zip(got, expect, ("pa", "pb", "pr"), strict=True):
        assert g.dtype == e.dtype, name
        assert g.shape == e.shape, (name, g.shape, e.shape)
        np.testing.assert_array_equal(g, e, err_msg=name)
    check_small(scene, dynamic_response, want, expect)
    return len(expect[0])


def check_small(scene, dynamic_response, want, expect):
    """small_pairs: the oracle's pairs (written while they fit the room, counted all the
    same) for a world of at most SMALL_WORLD live shapes, or of at most that many on
    bodies that are not static with at most MOVER_PAIRS pairs; -1 for any other."""
    args = scene.args(dynamic_response, want)
    flags = scene.s_flags[:scene.n_shapes]
    live = (flags & S_ALIVE) != 0
    movers = live & (scene.kind[scene.s_body[:scene.n_shapes]] != STATIC)
    n = len(expect[0])
    for room in (n + 2, n // 2):
        out = (np.full(n + 2, -7, np.int64), np.full(n + 2, -7, np.int64),
               np.full(n + 2, -7, np.int8))
        k = small_pairs(*args, out, room)
        if live.sum() > bp.SMALL_WORLD and (movers.sum() > bp.SMALL_WORLD
                                            or n > bp.MOVER_PAIRS):
            assert k == -1
            return
        assert k == n
        w = min(n, room)
        # The movers' path sorts only what fits (a caller with too little room runs it
        # again with more): with less, the first pairs found, in no set order.
        sorted_out = live.sum() <= bp.SMALL_WORLD or n <= room
        for o, e in zip(out, expect, strict=True):
            if sorted_out:
                np.testing.assert_array_equal(o[:w], e[:w])
            assert (o[w:] == -7).all()


def check_all_modes(scene):
    """Solid and sensor sweeps under every dynamic response; the number of pairs seen."""
    seen = 0
    for dynamic_response in (IGNORE, SOLID, SENSOR):
        for want in (SOLID, SENSOR):
            seen += check(scene, dynamic_response, want)
    return seen


def boxes_from(centres, sizes):
    c = np.asarray(centres, float)
    h = 0.5 * np.asarray(sizes, float)
    return np.hstack([c - h, c + h])


LAYOUTS = ["mixed", "dense", "row", "column", "sparse", "stack", "points"]


def random_scene(rng, n, layout="mixed", lattice=None, seed=0):
    """n boxes of mixed sizes in one of several layouts, with random flags and filters."""
    if layout == "mixed":
        centres = rng.uniform(-30, 30, (n, 2))
        sizes = rng.choice([1e-3, 0.5, 1.0, 1.0, 1.0, 2.0, 5.0], (n, 2))
    elif layout == "dense":  # everything overlaps nearly everything
        centres = rng.uniform(-1, 1, (n, 2))
        sizes = rng.uniform(2.0, 4.0, (n, 2))
    elif layout == "row":  # one long row: a single grid row holds every box
        centres = np.column_stack([rng.uniform(-100, 100, n), rng.uniform(-0.2, 0.2, n)])
        sizes = rng.uniform(0.5, 1.5, (n, 2))
    elif layout == "column":  # one tall tower
        centres = np.column_stack([rng.uniform(-0.2, 0.2, n), rng.uniform(-100, 100, n)])
        sizes = rng.uniform(0.5, 1.5, (n, 2))
    elif layout == "sparse":  # crowd-like: small boxes far apart (10,000 in 2 km square)
        half = 10.0 * np.sqrt(n)
        centres = rng.uniform(-half, half, (n, 2))
        sizes = rng.uniform(2.0, 4.0, (n, 2))
    elif layout == "stack":  # pyramid-like rows of unit boxes, touching
        width = max(1, int(np.sqrt(n)))
        k = np.arange(n)
        centres = np.column_stack([k % width + 0.5 * ((k // width) % 2), k // width + 0.5])
        sizes = np.ones((n, 2))
    elif layout == "points":  # zero-size boxes, many on shared coordinates
        centres = rng.integers(-3, 4, (n, 2)).astype(float)
        sizes = np.zeros((n, 2))
        sizes[: n // 3, 0] = rng.integers(0, 3, n // 3)  # some zero-height segments
    else:
        raise ValueError(layout)
    aabb = boxes_from(centres, sizes)
    if lattice is not None:  # exact touches: coordinates on a coarse lattice
        aabb = np.round(aabb / lattice) * lattice
        aabb[:, 2] = np.maximum(aabb[:, 2], aabb[:, 0])
        aabb[:, 3] = np.maximum(aabb[:, 3], aabb[:, 1])
    # Very large static shapes: a ground and two walls (as the pyramid and rain scenes).
    if n >= 8:
        aabb[0] = (-100.0, -1.0, 100.0, 0.0)
        aabb[1] = (-31.0, -1.0, -30.0, 150.0)
        aabb[2] = (30.0, -1.0, 31.0, 150.0)
    if n >= 12 and layout == "mixed":
        aabb[3] = (1e6, 1e6, 1e6 + 1.0, 1e6 + 1.0)  # a far outlier
        aabb[4] = aabb[5] = aabb[6]  # coincident boxes

    n_bodies = max(1, n // 2)
    s_body = rng.integers(0, n_bodies, n)  # shared bodies: same-body pairs
    if n >= 8:
        s_body[:3] = 0
    kind = rng.choice([STATIC, KINEMATIC, DYNAMIC, DYNAMIC, DYNAMIC], n_bodies)
    if n >= 8:
        kind[0] = STATIC
    s_flags = np.where(rng.random(n) < 0.9, S_ALIVE, 0)
    s_flags |= np.where(rng.random(n) < 0.2, S_SENSOR, 0)
    s_category = rng.choice([1, 2, 4, 0xFFFF], n)
    s_mask = rng.choice([ALL_BITS, ALL_BITS, ALL_BITS, 1, 6, 0], n)
    s_group = rng.choice([0, 0, 0, 0, 1, -1, 2, -2], n)
    s_type, rules = None, NO_RULES
    if seed % 3 == 0:  # collision types with pair responses, and bodies that never collide
        s_type = rng.integers(0, 4, n)
        pairs = sorted({(int(x), int(y)) for x, y in np.sort(rng.integers(0, 4, (4, 2)))})
        body_pairs = sorted({(int(x), int(y)) for x, y in
                             np.sort(rng.integers(0, n_bodies, (n_bodies, 2))) if x != y})
        rules = PairRuleView(np.array([x << 32 | y for x, y in pairs], np.int64),
                             rng.choice([IGNORE, SOLID, SENSOR], len(pairs)).astype(np.int8),
                             np.array([x << 32 | y for x, y in body_pairs], np.int64))
    return Scene(aabb, s_body, s_flags, s_category, s_mask, s_group, kind, seed=seed,
                 s_type=s_type, rules=rules)


# ----------------------------------------------------------------------------- tests
@nojit
@pytest.mark.parametrize("n", [0, 1, 2])
def test_tiny_counts(n):
    rng = np.random.default_rng(n)
    for seed in range(20):
        scene = random_scene(rng, n, "dense", seed=seed)
        check_all_modes(scene)


@nojit
def test_two_boxes_touching_exactly():
    # Closed intervals: sharing an edge or a corner overlaps, one ulp apart does not.
    a = (0.0, 0.0, 1.0, 1.0)
    after = np.nextafter(1.0, 2.0)
    cases = {
        (1.0, 0.0, 2.0, 1.0): True,           # edge on x
        (0.0, 1.0, 1.0, 2.0): True,           # edge on y
        (1.0, 1.0, 2.0, 2.0): True,           # corner
        (after, 0.0, 2.0, 1.0): False,
        (0.0, after, 1.0, 2.0): False,
        (-1.0, -1.0, -np.nextafter(0.0, 1.0), 0.0): False,
        (0.5, 0.5, 0.5, 0.5): True,           # a point inside
        (1.0, 0.5, 1.0, 0.5): True,           # a point on the edge
        (-5.0, 0.25, 5.0, 0.25): True,        # a zero-height segment across
    }
    for b, touching in cases.items():
        for order in ((a, b), (b, a)):
            scene = Scene(np.array(order), [0, 1], [S_ALIVE, S_ALIVE], [1, 1],
                          [ALL_BITS, ALL_BITS], [0, 0], [DYNAMIC, DYNAMIC])
            got = find_pairs(*scene.args(SOLID, SOLID))
            assert len(got[0]) == (1 if touching else 0), (order, got)
            check_all_modes(scene)


@nojit
def test_responses_of_one_overlapping_pair():
    # Worked out by hand from the documented rules.
    box = [(0.0, 0.0, 1.0, 1.0), (0.5, 0.5, 1.5, 1.5)]
    d, k, s = DYNAMIC, KINEMATIC, STATIC
    cases = [
        # kinds, flags b, category/mask/group of (a, b), dynamic_response, expected
        ((d, d), 0, (1, ALL_BITS, 0, 1, ALL_BITS, 0), SOLID, SOLID),
        ((d, d), 0, (1, ALL_BITS, 0, 1, ALL_BITS, 0), SENSOR, SENSOR),
        ((d, d), 0, (1, ALL_BITS, 0, 1, ALL_BITS, 0), IGNORE, IGNORE),
        ((d, s), 0, (1, ALL_BITS, 0, 1, ALL_BITS, 0), SENSOR, SOLID),
        ((k, s), 0, (1, ALL_BITS, 0, 1, ALL_BITS, 0), SOLID, IGNORE),
        ((k, s), S_SENSOR, (1, ALL_BITS, 0, 1, ALL_BITS, 0), SOLID, SENSOR),
        ((s, s), S_SENSOR, (1, ALL_BITS, 0, 1, ALL_BITS, 0), SOLID, IGNORE),
        ((k, k), S_SENSOR, (1, ALL_BITS, 0, 1, ALL_BITS, 0), SOLID, SENSOR),
        ((d, d), S_SENSOR, (1, ALL_BITS, 0, 1, ALL_BITS, 0), SOLID, SENSOR),
        ((d, d), 0, (1, 2, 0, 1, ALL_BITS, 0), SOLID, IGNORE),       # a's mask misses b
        ((d, d), 0, (2, 2, 0, 1, 2, 0), SOLID, IGNORE),              # b's mask misses a
        ((d, d), 0, (1, 2, 3, 1, 2, 3), SOLID, SOLID),               # same positive group
        ((d, d), 0, (1, 2, 3, 1, 2, 3), SENSOR, SOLID),              # beats dynamic_response
        ((d, d), 0, (1, 2, 3, 1, 2, 3), IGNORE, SOLID),
        ((d, d), 0, (1, ALL_BITS, -3, 1, ALL_BITS, -3), SOLID, IGNORE),  # same negative
        ((d, d), 0, (1, 0, -3, 1, 0, 4), SOLID, IGNORE),             # groups differ: masks
        ((s, s), S_SENSOR, (1, 2, 3, 1, 2, 3), SOLID, IGNORE),       # group can't move them
    ]
    for kinds, flag_b, (ca, ma, ga, cb, mb, gb), dyn, expected in cases:
        scene = Scene(np.array(box), [0, 1], [S_ALIVE, S_ALIVE | flag_b], [ca, cb], [ma, mb],
                      [ga, gb], list(kinds))
        for want in (SOLID, SENSOR):
            got = find_pairs(*scene.args(dyn, want))
            if want == SOLID and flag_b:
                expect = []  # sensors are left out of the solid sweep
            else:
                expect = [expected] if expected == want else []
            assert got[2].tolist() == expect, (kinds, flag_b, ca, ma, ga, dyn, want)
            if expect:
                assert (got[0].tolist(), got[1].tolist()) == ([0], [1])
        check_all_modes(scene)
    # One body: never a pair.
    scene = Scene(np.array(box), [0, 0], [S_ALIVE, S_ALIVE], [1, 1], [ALL_BITS, ALL_BITS],
                  [0, 0], [DYNAMIC])
    assert check_all_modes(scene) == 0


@nojit
def test_dead_rows_and_rows_past_count_are_ignored():
    # Row 1 is dead, row 3 lies past n_shapes; both overlap everything.
    aabb = np.array([(0.0, 0.0, 1.0, 1.0), (-9.0, -9.0, 9.0, 9.0), (0.5, 0.5, 2.0, 2.0)])
    scene = Scene(aabb, [0, 1, 2], [S_ALIVE, 0, S_ALIVE], [1, 1, 1], [ALL_BITS] * 3, [0, 0, 0],
                  [DYNAMIC] * 3, extra=2)
    pa, pb, pr = find_pairs(*scene.args(SOLID, SOLID))
    assert (pa.tolist(), pb.tolist(), pr.tolist()) == ([0], [2], [SOLID])
    check_all_modes(scene)


@nojit
@pytest.mark.parametrize("layout", LAYOUTS)
def test_small_random_scenes(layout):
    rng = np.random.default_rng(LAYOUTS.index(layout))
    seen = 0
    for seed in range(12):
        n = int(rng.integers(3, 40))
        lattice = 0.5 if seed % 2 else None
        seen += check_all_modes(random_scene(rng, n, layout, lattice, seed=seed))
    assert seen > 0


@pytest.mark.parametrize("layout", LAYOUTS)
def test_random_scenes(layout):
    rng = np.random.default_rng(1000 + LAYOUTS.index(layout))
    seen = 0
    for seed in range(40):
        n = int(rng.integers(3, 400))
        lattice = (None, 0.5, 0.25, 1.0)[seed % 4]
        seen += check_all_modes(random_scene(rng, n, layout, lattice, seed=seed))
    assert seen > 0


@nojit
@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # inf - inf, pure Python
def test_infinite_boxes():
    # A world never makes them (its inputs are checked finite), but they are well defined:
    # a box reaching infinity overlaps whatever its span covers. Many infinitely tall boxes
    # among boxes spread over many rows also take the grid's one-row fallback.
    rng = np.random.default_rng(5)
    n = 80
    aabb = boxes_from(np.column_stack([rng.uniform(-20, 20, n), rng.uniform(-400, 400, n)]),
                      rng.uniform(0.5, 2.0, (n, 2)))
    inf = np.inf
    aabb[:30, 1] = -inf  # infinitely tall downwards
    aabb[30:33, 3] = inf
    aabb[33] = (-inf, -inf, inf, inf)
    aabb[34] = (-inf, 0.0, inf, 0.0)
    aabb[35] = (5.0, -inf, 5.0, inf)
    aabb[36] = (inf, inf, inf, inf)
    aabb[37] = (-inf, -inf, -inf, -inf)
    s_body = np.arange(n)
    kind = np.full(n, DYNAMIC)
    ones = np.ones(n, np.int64)
    scene = Scene(aabb, s_body, np.full(n, S_ALIVE), ones, np.full(n, ALL_BITS), 0 * ones, kind)
    assert check(scene) > n
    scene = Scene(aabb[30:], s_body[30:] - 30, np.full(n - 30, S_ALIVE), ones[30:],
                  np.full(n - 30, ALL_BITS), 0 * ones[30:], kind[30:])
    assert check(scene) > 0


def test_many_pairs_grow_the_buffers():
    # 300 boxes all overlapping: 44,850 pairs, far more than the first buffer holds.
    rng = np.random.default_rng(7)
    n = 300
    aabb = boxes_from(rng.uniform(-0.5, 0.5, (n, 2)), np.full((n, 2), 3.0))
    scene = Scene(aabb, np.arange(n), np.full(n, S_ALIVE), np.ones(n, np.int64),
                  np.full(n, ALL_BITS), np.zeros(n, np.int64), np.full(n, DYNAMIC))
    assert check(scene) == n * (n - 1) // 2
    # And with a long row of entries behind a box spanning it (ground under a crowd).
    aabb[0] = (-1000.0, -10.0, 1000.0, 10.0)
    aabb[1:, 0] = np.linspace(-999.0, 998.0, n - 1)
    aabb[1:, 2] = aabb[1:, 0] + 1.0
    check_all_modes(scene)


def test_scene_sizes_like_the_benchmarks():
    # A B = 30 pyramid of unit boxes on a 200 m ground, and a crowd of sensor circles.
    rows = []
    for level in range(30):
        for i in range(30 - level):
            rows.append((i - (30 - level) / 2 + 0.5, level + 0.5))
    n = len(rows) + 1
    aabb = np.vstack([[(-100.0, -1.0, 100.0, 0.0)], boxes_from(rows, np.full((n - 1, 2), 1.04))])
    kind = np.array([STATIC] + [DYNAMIC] * (n - 1))
    scene = Scene(aabb, np.arange(n), np.full(n, S_ALIVE), np.ones(n, np.int64),
                  np.full(n, ALL_BITS), np.zeros(n, np.int64), kind)
    assert check(scene) > 2 * n

    rng = np.random.default_rng(4)
    n = 1500
    r = rng.uniform(1.0, 2.0, n)
    aabb = boxes_from(rng.uniform(-500, 500, (n, 2)), np.column_stack([2 * r, 2 * r]))
    scene = Scene(aabb, np.arange(n), np.full(n, S_ALIVE | S_SENSOR), np.ones(n, np.int64),
                  np.full(n, ALL_BITS), np.zeros(n, np.int64), np.full(n, DYNAMIC))
    assert check(scene, SOLID, SENSOR) > 0
    assert check(scene, SOLID, SOLID) == 0


lattice_coord = st.integers(-12, 12).map(lambda v: v * 0.5)


@st.composite
def lattice_scenes(draw):
    n = draw(st.integers(0, 24))
    aabb = np.zeros((n, 4))
    for i in range(n):
        x0, y0 = draw(lattice_coord), draw(lattice_coord)
        w, h = draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 4.0, 40.0])), draw(
            st.sampled_from([0.0, 0.5, 1.0, 2.0, 30.0]))
        aabb[i] = (x0, y0, x0 + w, y0 + h)
    n_bodies = max(1, n)
    s_body = draw(st.lists(st.integers(0, n_bodies - 1), min_size=n, max_size=n))
    kind = draw(st.lists(st.sampled_from([STATIC, KINEMATIC, DYNAMIC]), min_size=n_bodies,
                         max_size=n_bodies))
    s_flags = draw(st.lists(st.sampled_from([0, S_ALIVE, S_ALIVE, S_ALIVE | S_SENSOR]),
                            min_size=n, max_size=n))
    cat = draw(st.lists(st.sampled_from([1, 2, 3]), min_size=n, max_size=n))
    mask = draw(st.lists(st.sampled_from([ALL_BITS, 1, 2, 0]), min_size=n, max_size=n))
    group = draw(st.lists(st.sampled_from([0, 0, 1, -1]), min_size=n, max_size=n))
    return Scene(aabb, s_body, s_flags, cat, mask, group, kind)


@nojit
@given(lattice_scenes())
def test_lattice_scenes_property(scene):
    check_all_modes(scene)


def test_world_stores_after_steps():
    # Inputs exactly as World passes them: a pile of mixed shapes, some sensors and filters.
    w = c2d.World(gravity=(0.0, -10.0))
    w.sleeping = False
    ground = w.add_body(kind="static")
    ground.add_box(60.0, 1.0, offset=(0.0, -0.5))
    ground.add_box(1.0, 40.0, offset=(-30.0, 20.0))
    mover = w.add_body(kind="kinematic", position=(0.0, 3.0), velocity=(1.0, 0.0))
    mover.add_box(4.0, 0.5)
    rng = np.random.default_rng(11)
    for i in range(150):
        b = w.add_body(position=(rng.uniform(-10, 10), rng.uniform(0.5, 12.0)))
        if i % 3:
            shape = b.add_box(rng.uniform(0.3, 1.5), rng.uniform(0.3, 1.5), density=1.0)
        else:
            shape = b.add_circle(rng.uniform(0.2, 0.8), density=1.0, sensor=i % 9 == 0)
        if i % 7 == 0:
            shape.group = -1
    for _ in range(30):
        w.step(1 / 60)
    s, b = w._shapes, w._bodies
    scene = Scene.__new__(Scene)
    scene.aabb, scene.s_body, scene.s_flags = s.aabb, s.body, s.flags
    scene.s_category, scene.s_mask, scene.s_group = s.category, s.mask, s.group
    scene.kind, scene.n_shapes = b.kind, s.count
    scene.s_type, scene.rules = s.collision_type, w._rules.view()
    assert check_all_modes(scene) > 0


@nojit
@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 64, 1000])
def test_argsort_of_distinct_keys_is_numpys(n):
    # The few-pairs branch of the pair sort orders distinct keys: the one order np.argsort
    # gives too.
    key = np.random.default_rng(n).permutation(20 * n + 3)[:n].astype(np.int64)
    sort = getattr(bp._argsort_distinct, "py_func", bp._argsort_distinct)
    assert sort(key).tolist() == np.argsort(key).tolist()


@nojit
@pytest.mark.parametrize("m", [1, 2, 9, 64, 65, 300])
def test_typical_extent_is_the_sample_median(m):
    # The grid's cell size: the middle value (as np.sort orders them, NaN last) of an evenly
    # strided sample of at most SIZE_SAMPLE boxes' extents.
    rng = np.random.default_rng(m)
    aabb = rng.uniform(-5.0, 5.0, (m, 4))
    aabb[:, 2:] = aabb[:, :2] + rng.uniform(0.0, 3.0, (m, 2))
    aabb[0, 2] = np.nan
    live = np.arange(m, dtype=np.int64)
    stride = max(1, m // bp.SIZE_SAMPLE)
    sample = live[::stride]
    extent = getattr(bp._typical_extent, "py_func", bp._typical_extent)
    for axis in (0, 1):
        want = np.sort(aabb[sample, axis + 2] - aabb[sample, axis])[len(sample) // 2]
        got = extent(aabb, live, axis)
        assert got == want or (np.isnan(got) and np.isnan(want))


@nojit
@pytest.mark.parametrize("layout", ["mixed", "row", "stack", "dense"])
def test_few_movers_among_fixed_shapes(layout):
    # A terrain or a tile map under a few bodies: more than SMALL_WORLD live shapes, at
    # most that many on bodies that are not static. small_pairs tests the movers against
    # every box and sorts: the oracle's pairs in its order (check_small), or -1 past
    # MOVER_PAIRS pairs (the dense layout, where every box overlaps every other).
    rng = np.random.default_rng(len(layout))
    ran = 0
    for seed in range(12):
        scene = random_scene(rng, int(rng.integers(40, 160)), layout, seed=seed)
        kind = np.full_like(scene.kind, STATIC)
        bodies = rng.permutation(len(kind))
        movers = 0
        for body in bodies:  # a few bodies move, up to SMALL_WORLD shapes on them
            shapes = int((scene.s_body[:scene.n_shapes] == body).sum())
            if movers + shapes > bp.SMALL_WORLD or rng.random() < 0.2:
                continue
            kind[body] = rng.choice([KINEMATIC, DYNAMIC, DYNAMIC])
            movers += shapes
        scene.kind = kind
        check_all_modes(scene)
        out = (np.empty(4 * scene.n_shapes, np.int64), np.empty(4 * scene.n_shapes, np.int64),
               np.empty(4 * scene.n_shapes, np.int8))
        ran += small_pairs(*scene.args(SOLID, SOLID), out, len(out[0])) >= 0
    if layout != "dense":
        assert ran > 6  # the movers' path answered, not the grid


@nojit
@pytest.mark.parametrize("layout", ["mixed", "row", "stack", "dense", "points"])
def test_few_movers_over_a_small_static_level(layout):
    # At most SMALL_WORLD live shapes, fewer than a third of them on bodies that are not
    # static (a lander over its moon): small_pairs tests the movers against the index, and
    # gives the oracle's pairs in its order (check_small), the first ones in order when
    # the room is short, whatever the path.
    rng = np.random.default_rng(7 + len(layout))
    for seed in range(12):
        scene = random_scene(rng, int(rng.integers(12, bp.SMALL_WORLD + 1)), layout,
                             seed=seed)
        kind = np.full_like(scene.kind, STATIC)
        live_bodies = np.unique(scene.s_body[:scene.n_shapes])
        for body in rng.choice(live_bodies, max(1, len(live_bodies) // 5), replace=False):
            kind[body] = rng.choice([KINEMATIC, DYNAMIC])
        scene.kind = kind
        check_all_modes(scene)


# ----------------------------------------------------------------------------- shape index
def brute_index(kind, s_body, s_flags, boxes, n):
    """The shape index worked out in NumPy: movers by row, statics by (lower x, row), and
    the running largest upper x over the statics in that order."""
    rows = np.arange(n)
    live = (s_flags[:n] & S_ALIVE) != 0
    static = kind[s_body[:n]] == STATIC
    movers = rows[live & ~static]
    statics = rows[live & static]
    statics = statics[np.lexsort((statics, boxes[statics, 0]))]
    return movers, statics, np.maximum.accumulate(boxes[statics, 2])


def built_index(kind, s_body, s_flags, boxes, n, order, reach, counts, moved):
    m, k = index_shapes(kind, s_body, s_flags, boxes, order, reach, n, counts[0], counts[1],
                        moved)
    return order[:m].copy(), order[m:m + k].copy(), reach[m:m + k].copy()


@nojit
def test_shape_index_sorts_the_statics_and_sorts_again_only_when_they_change():
    rng = np.random.default_rng(5)
    n = 300
    boxes = boxes_from(rng.uniform(-50, 50, (n, 2)), rng.uniform(0.1, 3.0, (n, 2)))
    boxes[::17, 0] = boxes[1, 0]  # ties: by row
    s_body = rng.integers(0, 40, n)
    kind = np.where(rng.random(40) < 0.8, STATIC, DYNAMIC).astype(np.int8)
    s_flags = np.where(rng.random(n) < 0.9, S_ALIVE, 0).astype(np.int32)
    order = np.full(n, -1, np.int64)
    reach = np.zeros(n)

    def counts():
        return (len(got[0]), len(got[1]))

    got = built_index(kind, s_body, s_flags, boxes, n, order, reach, (-1, -1), True)
    for g, e in zip(got, brute_index(kind, s_body, s_flags, boxes, n), strict=True):
        assert np.array_equal(g, e)
    # Nothing moved and the same shapes: the static part is kept as it is, unsorted
    # though a box changed (the caller says whether any did).
    boxes2 = boxes.copy()
    boxes2[got[1][0], 0] = 1e6
    kept = built_index(kind, s_body, s_flags, boxes2, n, order, reach, counts(), False)
    for g, e in zip(kept, got, strict=True):
        assert np.array_equal(g, e)
    # Moved: sorted again.
    again = built_index(kind, s_body, s_flags, boxes2, n, order, reach, counts(), True)
    for g, e in zip(again, brute_index(kind, s_body, s_flags, boxes2, n), strict=True):
        assert np.array_equal(g, e)
    # The same counts, other shapes (one static shape dead, a dead one on a static body
    # alive): rebuilt though no box moved.
    got = again
    dead = np.flatnonzero((s_flags == 0) & (kind[s_body] == STATIC))[0]
    s_flags[got[1][3]] = 0
    s_flags[dead] = S_ALIVE
    swapped = built_index(kind, s_body, s_flags, boxes2, n, order, reach, counts(), False)
    for g, e in zip(swapped, brute_index(kind, s_body, s_flags, boxes2, n), strict=True):
        assert np.array_equal(g, e)


def test_static_level_moved_between_steps_collides_where_it_is():
    # A box resting on one of 60 static tiles (more than SMALL_WORLD shapes: the shape
    # index's path). Between steps that tile is taken away and the far end's tile put
    # under the box 0.5 m lower, then raised 0.3 m into it; each time a raycast runs
    # before the next step (it places the shapes for the query). A world restored from a
    # snapshot taken right after each move places and indexes everything afresh: the two
    # must go on bit for bit, and the box must rest on the tile where it now is.
    w = c2d.World(gravity=(0.0, -10.0))
    w.sleeping = False
    tiles = []
    for i in range(60):
        t = w.add_body(kind="static", position=(i - 30.0, 0.0))
        t.add_box(1.0, 1.0)
        tiles.append(t)
    box = w.add_body(position=(0.0, 1.0))
    box.add_box(0.6, 0.6)
    for _ in range(30):
        w.step(1 / 60)
    assert abs(box.position[1] - 0.8) < 0.01  # on tile 30, whose top is at 0.5
    moves = (((tiles[30], (100.0, 0.0)), (tiles[0], (0.0, -0.5))),
             ((tiles[0], (0.0, -0.2)),))
    for move, top in zip(moves, (0.0, 0.3), strict=True):
        for tile, where in move:
            tile.position = where
        w.raycast((0.0, 5.0), (0.0, -5.0))
        twin = c2d.World.restore(w.snapshot())
        for _ in range(60):
            w.step(1 / 60)
            twin.step(1 / 60)
        assert w.snapshot() == twin.snapshot()
        assert abs(box.position[0]) < 0.02  # still over the tile
        assert abs(box.position[1] - (top + 0.3)) < 0.01
