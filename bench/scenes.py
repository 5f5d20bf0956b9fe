"""Benchmark scenes of ``bench/scenes.md`` as plain numpy data.

Every engine adapter builds its world from these arrays, so all engines see exactly the same
bodies. Random numbers come from ``np.random.default_rng(seed)`` in the order scenes.md writes
them, always for the full-size scene; a smaller size takes the first N of that sequence
(``rain(500)`` is the first 500 bodies of ``rain(2000)``).

Conventions: metres, radians, y up, polygons counter-clockwise. Ragged polygon data is a flat
vertex pool ``(V, 2)`` plus ``offsets`` ``(n + 1,)``: polygon k is
``pool[offsets[k]:offsets[k + 1]]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TAU = 2.0 * np.pi

# Full sizes, steps and the tiny sizes of ``--quick`` (step counts there are the runner's).
SIZES = {
    "pyramid": (20, 40, 100),
    "rain": (500, 1000, 2000),
    "bullets": (10_000, 100_000),
    "crowd": (2_500, 10_000),
    "slide": (2_000,),
    "joint_grid": (20, 50, 100),
    "ragdolls": (50, 100, 200),
}
QUICK_SIZES = {
    "pyramid": (10,),
    "rain": (200,),
    "bullets": (10_000,),
    "crowd": (2_500,),
    "slide": (200,),
    "joint_grid": (20,),
    "ragdolls": (20,),
}
RAIN_MAX = 2_000
BULLETS_MAX = 100_000
HULL_COUNT = 64
CROWD_MAX = 10_000
SLIDE_MAX = 2_000
SLIDE_MAP = 256
SLIDE_PERIOD = 60  # steps between changes of a character's wanted velocity
RAGDOLL_MAX = 200
RAGDOLL_SCALE = 2.0


def steps_for(scene: str, size: int) -> int:
    """Steps scenes.md runs a scene for (0 for bullets, which is not stepped)."""
    if scene == "pyramid":
        return 500 if size >= 100 else 600
    return {"rain": 600, "bullets": 0, "crowd": 300, "slide": 600, "joint_grid": 500,
            "ragdolls": 600}[scene]


@dataclass(frozen=True)
class StaticBoxes:
    """Axis-aligned static boxes: floors and walls."""

    centres: np.ndarray  # (k, 2)
    half_extents: np.ndarray  # (k, 2)


@dataclass(frozen=True)
class PyramidScene:
    size: int  # base B
    ground: StaticBoxes
    centres: np.ndarray  # (n, 2) box centres, row by row from the bottom
    box_size: float = 1.0
    density: float = 1.0
    friction: float = 0.6
    restitution: float = 0.0


@dataclass(frozen=True)
class RainScene:
    size: int
    container: StaticBoxes  # floor, left wall, right wall
    positions: np.ndarray  # (N, 2)
    angles: np.ndarray  # (N,)
    radii: np.ndarray  # (N,)
    vertices: np.ndarray  # (V, 2) body-frame vertex pool
    offsets: np.ndarray  # (N + 1,)
    inner_x: float = 30.0  # inner faces of the walls at x = -inner_x and x = +inner_x
    wall_top: float = 150.0
    density: float = 1.0
    friction: float = 0.5
    restitution: float = 0.0

    def polygon(self, k: int) -> np.ndarray:
        """Body-frame vertices of body k, counter-clockwise."""
        return self.vertices[self.offsets[k] : self.offsets[k + 1]]


@dataclass(frozen=True)
class PileScene:
    """Columns of boxes dropped with gaps between rows (Box2D v3's large pyramid's 1 m boxes)."""

    columns: int
    rows: int
    ground: StaticBoxes
    centres: np.ndarray  # (columns * rows, 2), row by row from the bottom
    box_size: float = 1.0
    gap: float = 0.15  # between rows; neighbouring columns' faces touch
    density: float = 1.0
    friction: float = 0.6
    restitution: float = 0.0

    @property
    def top(self) -> float:
        """The highest point of any box at the start (m)."""
        return float(self.centres[:, 1].max()) + 0.5 * self.box_size


@dataclass(frozen=True)
class BulletsScene:
    size: int
    centres: np.ndarray  # (64, 2) hull body positions
    angles: np.ndarray  # (64,)
    local_vertices: np.ndarray  # (V, 2) body-frame pool
    world_vertices: np.ndarray  # (V, 2) the same vertices in world space
    offsets: np.ndarray  # (65,)
    starts: np.ndarray  # (M, 2)
    ends: np.ndarray  # (M, 2)

    def hull_local(self, h: int) -> np.ndarray:
        return self.local_vertices[self.offsets[h] : self.offsets[h + 1]]

    def hull_world(self, h: int) -> np.ndarray:
        return self.world_vertices[self.offsets[h] : self.offsets[h + 1]]


@dataclass(frozen=True)
class CrowdScene:
    size: int
    walls: StaticBoxes
    centres: np.ndarray  # (N, 2)
    radii: np.ndarray  # (N,)
    velocities: np.ndarray  # (N, 2)
    density: float = 1.0


@dataclass(frozen=True)
class SlideScene:
    size: int
    solid: np.ndarray  # (256, 256) bool, solid[iy, ix] is the tile [ix, ix+1] x [iy, iy+1]
    starts: np.ndarray  # (N, 2) character centres, each at the centre of a free tile
    headings: np.ndarray  # (periods, N) wanted direction per 60-step period, radians
    speeds: np.ndarray  # (periods, N) wanted speed per period, m/s in [0, 8)
    half_size: float = 0.4  # characters are 0.8 x 0.8 m boxes
    max_slides: int = 4
    period: int = SLIDE_PERIOD

    def wanted_velocity(self, step: int) -> np.ndarray:
        """(N, 2) velocity every character wants during step ``step`` (from 0)."""
        p = min(step // self.period, len(self.speeds) - 1)
        return self.speeds[p, :, None] * np.stack(
            [np.cos(self.headings[p]), np.sin(self.headings[p])], axis=1
        )


@dataclass(frozen=True)
class JointScene:
    """Bodies joined by revolute joints; what the joint scenes share.

    Bodies start at angle 0, so a joint's local anchor on body a is ``anchor - position[a]``.
    """

    positions: np.ndarray  # (n, 2) body origins
    joint_bodies: np.ndarray  # (J, 2) int: body a, body b of each joint, in creation order
    anchors: np.ndarray  # (J, 2) each joint's anchor in world space at creation

    def local_anchors(self) -> tuple[np.ndarray, np.ndarray]:
        """(J, 2) anchors in body a's frame and in body b's frame."""
        return (self.anchors - self.positions[self.joint_bodies[:, 0]],
                self.anchors - self.positions[self.joint_bodies[:, 1]])


@dataclass(frozen=True)
class JointGridScene(JointScene):
    """Box2D v3's ``joint_grid`` benchmark: an N x N grid of circles 1 m apart joined to
    their neighbours by revolute joints; seven bodies in the middle of the top row static."""

    size: int = 0  # N
    static: np.ndarray = None  # (n,) bool
    radius: float = 0.4
    density: float = 1.0


@dataclass(frozen=True)
class RagdollScene(JointScene):
    """Ragdolls (capsule bones, revolute joints with limits) dropped into a walled bin."""

    size: int = 0  # ragdolls
    container: StaticBoxes = None
    bone_a: np.ndarray = None  # (n, 2) capsule ends in the body frame
    bone_b: np.ndarray = None
    bone_radius: np.ndarray = None  # (n,)
    group: np.ndarray = None  # (n,) ragdoll index + 1: bones of one ragdoll never collide
    velocities: np.ndarray = None  # (n, 2)
    lower: np.ndarray = None  # (J,) joint limits (rad) on angle_b - angle_a
    upper: np.ndarray = None
    bones_per_ragdoll: int = 11
    inner_x: float = 15.0
    wall_top: float = 100.0
    density: float = 1.0
    friction: float = 0.4
    restitution: float = 0.0


def _boxes(*boxes: tuple[float, float, float, float]) -> StaticBoxes:
    """Static boxes from (x_min, y_min, x_max, y_max) rectangles."""
    r = np.array(boxes, dtype=np.float64)
    return StaticBoxes(
        centres=0.5 * (r[:, :2] + r[:, 2:]), half_extents=0.5 * (r[:, 2:] - r[:, :2])
    )


def _rotate(points: np.ndarray, angles: np.ndarray) -> np.ndarray:
    c, s = np.cos(angles), np.sin(angles)
    return np.stack([c * points[:, 0] - s * points[:, 1], s * points[:, 0] + c * points[:, 1]], 1)


def pyramid(base: int) -> PyramidScene:
    """Pyramid of unit boxes on a 200 m ground whose top is at y = 0."""
    rows = [(i - (base - r - 1) / 2.0, 0.5 + r) for r in range(base) for i in range(base - r)]
    return PyramidScene(
        size=base,
        ground=_boxes((-100.0, -1.0, 100.0, 0.0)),
        centres=np.array(rows, dtype=np.float64),
    )


def rain(n: int) -> RainScene:
    """N regular polygons on a 40-column grid above a walled container (seed 1)."""
    if not 0 < n <= RAIN_MAX:
        raise ValueError(f"rain: size must be in 1..{RAIN_MAX} (got {n})")
    rng = np.random.default_rng(1)
    counts = np.empty(RAIN_MAX, dtype=np.int64)
    radii = np.empty(RAIN_MAX)
    angles = np.empty(RAIN_MAX)
    for k in range(RAIN_MAX):  # per-body draws, in the order scenes.md lists them
        counts[k] = rng.integers(3, 9)
        radii[k] = rng.uniform(0.4, 0.6)
        angles[k] = rng.uniform(0.0, TAU)
    counts, radii, angles = counts[:n], radii[:n], angles[:n]
    offsets = np.concatenate([[0], np.cumsum(counts)])
    owner = np.repeat(np.arange(n), counts)
    j = np.arange(offsets[-1]) - offsets[owner]
    phi = TAU * j / counts[owner]
    vertices = radii[owner, None] * np.stack([np.cos(phi), np.sin(phi)], axis=1)
    k = np.arange(n)
    positions = np.stack([-29.25 + 1.5 * (k % 40), 2.0 + 1.5 * (k // 40)], axis=1)
    container = _boxes(
        (-31.0, -1.0, 31.0, 0.0),  # floor, top at y = 0
        (-31.0, 0.0, -30.0, 150.0),  # left wall, inner face x = -30
        (30.0, 0.0, 31.0, 150.0),  # right wall, inner face x = 30
    )
    return RainScene(
        size=n,
        container=container,
        positions=positions.astype(np.float64),
        angles=angles,
        radii=radii,
        vertices=vertices,
        offsets=offsets,
    )


def _outside_all(points: np.ndarray, world_vertices: np.ndarray, offsets: np.ndarray):
    """True where a point is strictly outside every convex counter-clockwise hull."""
    outside = np.ones(len(points), dtype=bool)
    for h in range(len(offsets) - 1):
        v = world_vertices[offsets[h] : offsets[h + 1]]
        e = np.roll(v, -1, axis=0) - v
        # cross(edge, p - v) >= 0 for every edge means inside or on the boundary.
        cross = e[:, 0] * (points[:, None, 1] - v[:, 1]) - e[:, 1] * (points[:, None, 0] - v[:, 0])
        outside &= (cross < 0.0).any(axis=1)
    return outside


def bullets(n_segments: int) -> BulletsScene:
    """64 static convex hulls (seed 2) and cannonball segments starting outside them (seed 3)."""
    if not 0 < n_segments <= BULLETS_MAX:
        raise ValueError(f"bullets: size must be in 1..{BULLETS_MAX} (got {n_segments})")
    rng = np.random.default_rng(2)
    local, centres, angles = [], [], []
    for _ in range(HULL_COUNT):
        n = rng.integers(6, 11)
        phi = np.sort(rng.uniform(0.0, TAU, n))  # on a circle, sorted angles: convex and CCW
        radius = rng.uniform(10.0, 30.0)
        angles.append(rng.uniform(0.0, TAU))
        centres.append(rng.uniform(-1000.0, 1000.0, 2))
        local.append(radius * np.stack([np.cos(phi), np.sin(phi)], axis=1))
    counts = np.array([len(v) for v in local])
    offsets = np.concatenate([[0], np.cumsum(counts)])
    centres, angles = np.array(centres), np.array(angles)
    local_pool = np.concatenate(local)
    owner = np.repeat(np.arange(HULL_COUNT), counts)
    world_pool = centres[owner] + _rotate(local_pool, angles[owner])

    rng = np.random.default_rng(3)
    kept, missing = [], BULLETS_MAX
    while missing > 0:  # rejection: keep only starts strictly outside every hull
        draw = rng.uniform(-1000.0, 1000.0, (missing, 2))
        draw = draw[_outside_all(draw, world_pool, offsets)]
        kept.append(draw)
        missing -= len(draw)
    starts = np.concatenate(kept)
    directions = rng.uniform(0.0, TAU, BULLETS_MAX)
    lengths = rng.uniform(10.0, 50.0, BULLETS_MAX)
    ends = starts + lengths[:, None] * np.stack([np.cos(directions), np.sin(directions)], 1)
    return BulletsScene(
        size=n_segments,
        centres=centres,
        angles=angles,
        local_vertices=local_pool,
        world_vertices=world_pool,
        offsets=offsets,
        starts=starts[:n_segments].copy(),
        ends=ends[:n_segments].copy(),
    )


def crowd(n: int) -> CrowdScene:
    """Sensor circles drifting in a 2 km square (seed 4); no gravity."""
    if not 0 < n <= CROWD_MAX:
        raise ValueError(f"crowd: size must be in 1..{CROWD_MAX} (got {n})")
    rng = np.random.default_rng(4)
    centres = rng.uniform(-1000.0, 1000.0, (CROWD_MAX, 2))
    radii = rng.uniform(1.0, 2.0, CROWD_MAX)
    speeds = rng.uniform(0.0, 5.0, CROWD_MAX)
    directions = rng.uniform(0.0, TAU, CROWD_MAX)
    velocities = speeds[:, None] * np.stack([np.cos(directions), np.sin(directions)], 1)
    # Walls 1 m thick with inner faces 2 m outside the square, so no circle (radius < 2)
    # touches a wall at the start; circles are sensors and may drift through them.
    a, b = 1002.0, 1003.0
    walls = _boxes((-b, -b, b, -a), (-b, a, b, b), (-b, -a, -a, a), (a, -a, b, a))
    return CrowdScene(
        size=n,
        walls=walls,
        centres=centres[:n].copy(),
        radii=radii[:n].copy(),
        velocities=velocities[:n].copy(),
    )


def joint_grid(n: int) -> JointGridScene:
    """Box2D v3's joint grid: body k * N + i at (k, -i); a joint to the body above (i > 0)
    and to the body on the left (k > 0), anchored half way; top-row bodies with
    N/2 - 3 <= k <= N/2 + 3 static."""
    if n < 8:
        raise ValueError(f"joint_grid: size must be at least 8 (got {n})")
    k, i = np.divmod(np.arange(n * n), n)
    positions = np.stack([k, -i], axis=1).astype(np.float64)
    static = (i == 0) & (k >= n // 2 - 3) & (k <= n // 2 + 3)
    pairs, anchors = [], []
    for b in range(n * n):  # Box2D's creation order: the joint above, then the one on the left
        if i[b] > 0:
            pairs.append((b - 1, b))
            anchors.append((k[b], -i[b] + 0.5))
        if k[b] > 0:
            pairs.append((b - n, b))
            anchors.append((k[b] - 0.5, -i[b]))
    return JointGridScene(positions=positions, joint_bodies=np.array(pairs, dtype=np.int64),
                          anchors=np.array(anchors, dtype=np.float64), size=n, static=static)


#: Box2D v3's sample human without feet, standing with its feet at the origin at scale 1:
#: (centre height, capsule's lower and upper end above the centre, radius, parent bone,
#: pivot height, lower and upper limit (rad)).
RAGDOLL_BONES = (
    (0.95, -0.02, 0.02, 0.095, -1, 0.0, 0.0, 0.0),                            # hip
    (1.2, -0.135, 0.135, 0.09, 0, 1.0, -0.25 * np.pi, 0.0),                   # torso
    (1.475, -0.038, 0.039, 0.075, 1, 1.4, -0.3 * np.pi, 0.1 * np.pi),         # head
    (0.775, -0.125, 0.125, 0.06, 0, 0.9, -0.05 * np.pi, 0.4 * np.pi),         # upper leg
    (0.475, -0.155, 0.125, 0.045, 3, 0.625, -0.5 * np.pi, -0.02 * np.pi),     # lower leg
    (0.775, -0.125, 0.125, 0.06, 0, 0.9, -0.05 * np.pi, 0.4 * np.pi),         # upper leg
    (0.475, -0.155, 0.125, 0.045, 5, 0.625, -0.5 * np.pi, -0.02 * np.pi),     # lower leg
    (1.225, -0.125, 0.125, 0.035, 1, 1.35, -0.1 * np.pi, 0.8 * np.pi),        # upper arm
    (0.975, -0.125, 0.125, 0.03, 7, 1.1, -0.2 * np.pi, 0.3 * np.pi),          # lower arm
    (1.225, -0.125, 0.125, 0.035, 1, 1.35, -0.1 * np.pi, 0.8 * np.pi),        # upper arm
    (0.975, -0.125, 0.125, 0.03, 9, 1.1, -0.2 * np.pi, 0.3 * np.pi),          # lower arm
)


def ragdolls(n: int) -> RagdollScene:
    """N ragdolls at scale 2 on a 20-column grid above a walled bin (seed 6)."""
    if not 0 < n <= RAGDOLL_MAX:
        raise ValueError(f"ragdolls: size must be in 1..{RAGDOLL_MAX} (got {n})")
    rng = np.random.default_rng(6)
    vx = rng.uniform(-1.0, 1.0, RAGDOLL_MAX)[:n]
    s = RAGDOLL_SCALE
    bones = np.array(RAGDOLL_BONES)
    m = len(bones)
    r = np.arange(n)
    feet = np.stack([-14.25 + 1.5 * (r % 20), 0.5 + 3.5 * (r // 20)], axis=1)
    positions = (feet[:, None, :] + s * np.stack([np.zeros(m), bones[:, 0]], 1)).reshape(-1, 2)
    zeros = np.zeros(m)
    bone_a = np.tile(s * np.stack([zeros, bones[:, 1]], 1), (n, 1))
    bone_b = np.tile(s * np.stack([zeros, bones[:, 2]], 1), (n, 1))
    child = np.flatnonzero(bones[:, 4] >= 0)
    parent = bones[child, 4].astype(np.int64)
    base = (m * r)[:, None]
    pairs = np.stack([(base + parent).ravel(), (base + child).ravel()], axis=1)
    anchors = (feet[:, None, :] + s * np.stack([np.zeros(len(child)), bones[child, 5]], 1)
               ).reshape(-1, 2)
    a, b = 1.0, 15.0
    container = _boxes((-b - a, -1.0, b + a, 0.0), (-b - a, 0.0, -b, 100.0), (b, 0.0, b + a, 100.0))
    return RagdollScene(
        positions=positions, joint_bodies=pairs.astype(np.int64), anchors=anchors,
        size=n, container=container, bone_a=bone_a, bone_b=bone_b,
        bone_radius=np.tile(s * bones[:, 3], n), group=np.repeat(r + 1, m),
        velocities=np.stack([np.repeat(vx, m), np.zeros(n * m)], axis=1),
        lower=np.tile(bones[child, 6], n), upper=np.tile(bones[child, 7], n),
        bones_per_ragdoll=m,
    )


def joint_errors(scene: JointScene, positions: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """(J,) distance (m) between each joint's two anchors at these body poses."""
    la, lb = scene.local_anchors()
    a, b = scene.joint_bodies[:, 0], scene.joint_bodies[:, 1]
    return np.hypot(*(_rotate(la, angles[a]) + positions[a]
                      - _rotate(lb, angles[b]) - positions[b]).T)


def _box_blur(field: np.ndarray, radius: int) -> np.ndarray:
    """Separable box filter with wrap-around edges (the border is overwritten anyway)."""
    out = field
    for axis in (0, 1):
        out = sum(np.roll(out, s, axis=axis) for s in range(-radius, radius + 1))
    return out / (2 * radius + 1) ** 2


def slide(n: int = SLIDE_MAX) -> SlideScene:
    """256 x 256 tile map with clustered solid tiles, and characters in free cells (seed 5).

    Map generator (the definition leaves it open; scenes.md records this one): white noise
    ``random((256, 256))``, smoothed by two passes of a 7 x 7 box filter so that neighbouring
    tiles correlate over a few metres; the top 25 % of the smoothed interior becomes solid
    (blobs of a few to a few dozen tiles), then the one-tile border is made solid. After the
    map, in this order: 2,000 distinct free start cells (``choice`` without replacement,
    characters centred in their cell), then per 60-step period (10 periods for 600 steps) a
    heading ``uniform(0, 2 pi)`` and a speed ``uniform(0, 8)`` m/s for every character, as
    (10, 2000) arrays.
    """
    if not 0 < n <= SLIDE_MAX:
        raise ValueError(f"slide: size must be in 1..{SLIDE_MAX} (got {n})")
    rng = np.random.default_rng(5)
    field = _box_blur(_box_blur(rng.random((SLIDE_MAP, SLIDE_MAP)), 3), 3)
    inner = field[1:-1, 1:-1]
    solid = np.ones((SLIDE_MAP, SLIDE_MAP), dtype=bool)
    solid[1:-1, 1:-1] = inner > np.quantile(inner, 0.75)
    free = np.flatnonzero(~solid)
    cells = rng.choice(free, SLIDE_MAX, replace=False)
    iy, ix = np.divmod(cells, SLIDE_MAP)
    starts = np.stack([ix + 0.5, iy + 0.5], axis=1).astype(np.float64)
    periods = -(-steps_for("slide", SLIDE_MAX) // SLIDE_PERIOD)
    headings = rng.uniform(0.0, TAU, (periods, SLIDE_MAX))
    speeds = rng.uniform(0.0, 8.0, (periods, SLIDE_MAX))
    return SlideScene(
        size=n,
        solid=solid,
        starts=starts[:n].copy(),
        headings=headings[:, :n].copy(),
        speeds=speeds[:, :n].copy(),
    )


def pile(columns: int = 100, rows: int = 200) -> PileScene:
    """``columns`` x ``rows`` unit boxes, columns side by side (faces touching), rows 1.15 m
    apart (0.15 m gaps), the lowest row 0.15 m above a 1,000 m ground whose top is at y = 0,
    centred on x = 0."""
    pitch = 1.0 + PileScene.gap
    i, j = np.meshgrid(np.arange(columns), np.arange(rows))
    x = i.ravel() - 0.5 * (columns - 1)
    y = PileScene.gap + 0.5 + j.ravel() * pitch
    return PileScene(columns=columns, rows=rows,
                     ground=_boxes((-500.0, -1.0, 500.0, 0.0)),
                     centres=np.stack([x, y], axis=1).astype(np.float64))


def build(scene: str, size: int):
    """Scene data by name."""
    return {"pyramid": pyramid, "rain": rain, "bullets": bullets, "crowd": crowd, "slide": slide,
            "joint_grid": joint_grid, "ragdolls": ragdolls}[scene](size)


# ---------------------------------------------------------------------------------------------
# Brute-force references (float64, independent of every engine)


@dataclass(frozen=True)
class RayHits:
    """First hit of each segment. ``body`` is -1 and the rest NaN where nothing is hit."""

    hit: np.ndarray  # (M,) bool
    body: np.ndarray  # (M,) int, hull index
    fraction: np.ndarray  # (M,) of the segment, start to end
    point: np.ndarray  # (M, 2)
    normal: np.ndarray  # (M, 2) outward unit normal of the hull at the hit


def bullets_reference(scene: BulletsScene, chunk: int = 2048) -> RayHits:
    """First hit of every segment against every hull edge, vectorised over edges.

    Starts lie strictly outside every hull, so the first hit enters a hull through an edge
    facing the segment: ``cross(d, e) < 0`` for a counter-clockwise edge ``e``. Only those
    edges are tested, which also drops parallel edges (zero denominator).
    """
    v = scene.world_vertices
    counts = np.diff(scene.offsets)
    owner = np.repeat(np.arange(len(counts)), counts)
    nxt = np.arange(len(v)) + 1
    nxt[scene.offsets[1:] - 1] = scene.offsets[:-1]  # last vertex of a hull wraps to its first
    a, e = v, v[nxt] - v
    normals = np.stack([e[:, 1], -e[:, 0]], 1) / np.hypot(e[:, 0], e[:, 1])[:, None]

    m = len(scene.starts)
    fraction = np.full(m, np.nan)
    body = np.full(m, -1, dtype=np.int64)
    edge = np.full(m, -1, dtype=np.int64)
    for lo in range(0, m, chunk):
        p = scene.starts[lo : lo + chunk, None, :]
        d = scene.ends[lo : lo + chunk, None, :] - p
        w = a[None] - p  # (c, E, 2)
        denom = d[..., 0] * e[:, 1] - d[..., 1] * e[:, 0]  # cross(d, e)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (w[..., 0] * e[:, 1] - w[..., 1] * e[:, 0]) / denom  # cross(w, e) / cross(d, e)
            u = (w[..., 0] * d[..., 1] - w[..., 1] * d[..., 0]) / denom  # cross(w, d) / ...
        ok = (denom < 0.0) & (t >= 0.0) & (t <= 1.0) & (u >= 0.0) & (u <= 1.0)
        t = np.where(ok, t, np.inf)
        best = np.argmin(t, axis=1)
        tb = t[np.arange(len(t)), best]
        hit = np.isfinite(tb)
        fraction[lo : lo + chunk][hit] = tb[hit]
        edge[lo : lo + chunk][hit] = best[hit]
        body[lo : lo + chunk][hit] = owner[best[hit]]
    hit = body >= 0
    point = scene.starts + fraction[:, None] * (scene.ends - scene.starts)
    normal = np.full((m, 2), np.nan)
    normal[hit] = normals[edge[hit]]
    return RayHits(hit=hit, body=body, fraction=fraction, point=point, normal=normal)


def crowd_pair_count(centres: np.ndarray, radii: np.ndarray, chunk: int = 1024) -> int:
    """Number of unordered circle pairs with centre distance < r_i + r_j (float64)."""
    c = np.asarray(centres, dtype=np.float64)
    r = np.asarray(radii, dtype=np.float64)
    n = len(c)
    total = 0
    for lo in range(0, n, chunk):
        hi = min(lo + chunk, n)
        # Rows lo..hi against columns lo..n only: each unordered pair is seen once.
        d = c[lo:hi, None, :] - c[None, lo:, :]
        dist2 = d[..., 0] ** 2 + d[..., 1] ** 2
        reach = r[lo:hi, None] + r[None, lo:]
        upper = np.arange(lo, hi)[:, None] < np.arange(lo, n)[None, :]
        total += int(np.count_nonzero((dist2 < reach * reach) & upper))
    return total


def slide_violations(scene: SlideScene, centres: np.ndarray) -> tuple[float, int]:
    """(deepest overlap of any character with a solid tile in m, characters outside the map).

    The overlap of a box with a tile is the smaller of its x and y overlaps (the distance
    it would have to move to separate); the 3 x 3 tiles around each character's centre
    cover every tile a 0.8 m box can touch.
    """
    c = np.asarray(centres, dtype=np.float64)
    h = scene.half_size
    size = scene.solid.shape[0]
    outside = ~np.all((c - h >= 0.0) & (c + h <= size), axis=1)
    outside |= ~np.isfinite(c).all(axis=1)
    cell = np.floor(np.nan_to_num(c)).astype(np.int64)
    deepest = 0.0
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            tx = np.clip(cell[:, 0] + dx, 0, size - 1)
            ty = np.clip(cell[:, 1] + dy, 0, size - 1)
            ox = np.minimum(c[:, 0] + h, tx + 1.0) - np.maximum(c[:, 0] - h, tx)
            oy = np.minimum(c[:, 1] + h, ty + 1.0) - np.maximum(c[:, 1] - h, ty)
            depth = np.where(scene.solid[ty, tx] & ~outside, np.minimum(ox, oy), 0.0)
            deepest = max(deepest, float(depth.max(initial=0.0)))
    return deepest, int(outside.sum())
