"""The contact solver's scene suite, written once for any engine.

Each scene is a function of an engine adapter (``C2D`` here for collide2d; bench's
``solver_suite.py`` has Box2D v3's) that builds the scene, steps it and returns the figures
its criterion reads. ``tests/test_solver_scenes.py`` holds the criteria; the bench script
prints the figures of both engines side by side.

Units: m, kg, s; gravity (0, -10) unless said; dt = 1/60 s, the engines' default substeps.
"""

from __future__ import annotations

import math

import numpy as np

DT = 1.0 / 60.0
G = 10.0


class C2D:
    """collide2d adapter: bodies are numbered in the order they are added. ``settings``
    (e.g. ``OFF``: solver extras switched off) are set on the world."""

    name = "collide2d"
    settings: dict = {}

    def __init__(self, gravity=(0.0, -G)):
        import collide2d as c2d

        self.world = c2d.World(gravity=gravity, sleeping=False)
        for key, value in self.settings.items():
            setattr(self.world, key, value)
        self.bodies = []

    def add(self, kind="dynamic", position=(0.0, 0.0), angle=0.0, box=None, circle=None,
            polygon=None, density=1.0, friction=0.6, restitution=0.0, velocity=(0.0, 0.0)):
        """A body with one shape: ``box`` (half extents), ``circle`` (radius) or
        ``polygon`` (body-frame vertices, counter-clockwise)."""
        b = self.world.add_body(kind=kind, position=position, angle=angle,
                                velocity=velocity if kind != "static" else (0.0, 0.0))
        material = {"friction": friction, "elasticity": restitution}
        if kind == "dynamic":
            material["density"] = density
        if box is not None:
            b.add_box(2.0 * box[0], 2.0 * box[1], **material)
        elif circle is not None:
            b.add_circle(circle, **material)
        else:
            b.add_polygon(np.asarray(polygon, dtype=np.float64), **material)
        self.bodies.append(b)
        return len(self.bodies) - 1

    def _ids(self, idx):
        return np.array([self.bodies[i].id for i in idx], dtype=np.int64)

    def step(self, n=1):
        for _ in range(n):
            self.world.step(DT)

    def positions(self, idx):
        return self.world.positions(self._ids(idx))

    def angles(self, idx):
        return self.world.angles(self._ids(idx))

    def velocities(self, idx):
        return self.world.velocities(self._ids(idx))

    def remove(self, i):
        self.world.remove(self.bodies[i])

    def apply_forces(self, idx, forces):
        self.world.apply_forces(self._ids(idx), forces)

    def set_angular_velocity(self, i, w):
        self.world.set_angular_velocities(self._ids([i]), [w])

    def set_gravity(self, g):
        self.world.gravity = g

    def angular_velocities(self, idx):
        return self.world.angular_velocities(self._ids(idx))


# ------------------------------------------------------------------------------ scenes
def _ground(e, width=100.0, friction=0.6):
    """A static box with its top at y = 0."""
    e.add("static", (0.0, -0.5), box=(0.5 * width, 0.5), friction=friction)


def column_of_boxes(e, n=10, seconds=10.0):
    """n unit boxes stacked on the ground, touching, shifted 1 cm left and right in turn
    (Box2D v3's vertical stack sample; friction 0.3). Each box's centre is over the box
    below, so nothing tips it: the column stands where it is put. Figures: the largest
    horizontal offset and height change of any box at the end."""
    _ground(e, friction=0.3)
    idx = [e.add(position=(0.01 if i % 2 else -0.01, 0.5 + i), box=(0.5, 0.5), friction=0.3)
           for i in range(n)]
    start = e.positions(idx)
    e.step(round(seconds / DT))
    end = e.positions(idx)
    return {"offset": float(np.abs(end[:, 0]).max()),
            "drop": float(np.abs(end[:, 1] - start[:, 1]).max())}


def column_of_circles(e, n=10, seconds=10.0):
    """n circles (r = 0.5) dropped into a static U 1.02 m wide, 0.05 m apart. At rest each
    sits 1 m above the one below (the walls leave 1 cm of play each side). Figures: the
    largest error of any height from 0.5 + i, and the largest speed at the end."""
    _ground(e)
    e.add("static", (-1.01, 10.0), box=(0.5, 10.0))
    e.add("static", (1.01, 10.0), box=(0.5, 10.0))
    idx = [e.add(position=(0.0, 0.5 + 1.05 * i), circle=0.5) for i in range(n)]
    e.step(round(seconds / DT))
    end = e.positions(idx)
    return {"height_error": float(np.abs(end[:, 1] - (0.5 + np.arange(n))).max()),
            "speed": float(np.linalg.norm(e.velocities(idx), axis=1).max())}


def card_house(e, levels=3, seconds=5.0):
    """Box2D v3's card house sample with ``levels`` levels: cards 0.4 m x 2 mm leaning at
    +-25 degrees in pairs with flat cards across them, friction 0.7. Figure: the largest
    displacement of any card after ``seconds`` (a standing house settles by millimetres)."""
    e.add("static", (0.0, -2.0), box=(40.0, 2.0), friction=0.7)
    h = 0.2
    card = (0.001, h)
    idx = []
    nb = levels
    z0 = 0.0
    y = h - 0.02
    while nb:
        z = z0
        for i in range(nb):
            if i != nb - 1:
                idx.append(e.add(position=(z + 0.25, y + h - 0.015), angle=0.5 * math.pi,
                                 box=card, friction=0.7))
            idx.append(e.add(position=(z, y), angle=math.radians(-25.0), box=card,
                             friction=0.7))
            z += 0.175
            idx.append(e.add(position=(z, y), angle=math.radians(25.0), box=card,
                             friction=0.7))
            z += 0.175
        y += 2.0 * h - 0.03
        z0 += 0.175
        nb -= 1
    e.step(round(0.5 / DT))  # the cards settle into each other first
    start = e.positions(idx)
    e.step(round((seconds - 0.5) / DT))
    end = e.positions(idx)
    return {"moved": float(np.linalg.norm(end - start, axis=1).max())}


# Box2D v3's arch sample: the inner and outer curves of the right half, scaled by 0.25.
_ARCH_INNER = 0.25 * np.array([
    (16.0, 0.0), (14.93803712795643, 5.133601056842984), (13.79871746027416, 10.24928069555078),
    (12.56252963284711, 15.34107019122473), (11.20040987372525, 20.39856541571217),
    (9.66521217819836, 25.40369899225096), (7.87179930638133, 30.3179337000085),
    (5.635199558196225, 35.03820717801641), (2.405937953536585, 39.09554102558315)])
_ARCH_OUTER = 0.25 * np.array([
    (24.0, 0.0), (22.33619528222415, 6.02299846205841), (20.54936888969905, 12.00964361211476),
    (18.60854610798073, 17.9470321677465), (16.46769273811807, 23.81367936585418),
    (14.05325025774858, 29.57079353071012), (11.23551045834022, 35.13775818285372),
    (7.752568160730571, 40.30450679009583), (3.016931552701656, 44.28891593799322)])


def _centred(vertices):
    """(centroid, vertices about it) of a convex quad given counter-clockwise."""
    v = np.asarray(vertices, dtype=np.float64)
    x, y = v[:, 0], v[:, 1]
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    cross = x * yn - xn * y
    area = 0.5 * cross.sum()
    c = np.array([((x + xn) * cross).sum(), ((y + yn) * cross).sum()]) / (6.0 * area)
    return c, v - c


def arch(e, seconds=5.0):
    """Box2D v3's arch sample: 17 voussoirs (friction 0.6) and four 4 x 1 m boxes on the
    keystone. An arch of these proportions stands; figure: the largest displacement of any
    block after ``seconds``."""
    _ground(e, 200.0)
    p1, p2 = _ARCH_INNER, _ARCH_OUTER
    quads = [[p1[i], p2[i], p2[i + 1], p1[i + 1]] for i in range(8)]
    quads += [[(-p2[i, 0], p2[i, 1]), (-p1[i, 0], p1[i, 1]), (-p1[i + 1, 0], p1[i + 1, 1]),
               (-p2[i + 1, 0], p2[i + 1, 1])] for i in range(8)]
    quads.append([p1[8], p2[8], (-p2[8, 0], p2[8, 1]), (-p1[8, 0], p1[8, 1])])
    idx = []
    for q in quads:
        q = np.asarray(q, dtype=np.float64)
        if _signed_area(q) < 0.0:
            q = q[::-1]
        c, local = _centred(q)
        idx.append(e.add(position=tuple(c), polygon=local))
    for i in range(4):
        idx.append(e.add(position=(0.0, 0.5 + p2[8, 1] + i), box=(2.0, 0.5)))
    start = e.positions(idx)
    e.step(round(seconds / DT))
    end = e.positions(idx)
    return {"moved": float(np.linalg.norm(end - start, axis=1).max())}


def _signed_area(v):
    return 0.5 * float((v[:, 0] * np.roll(v[:, 1], -1) - np.roll(v[:, 0], -1) * v[:, 1]).sum())


def dominoes(e, n=12, seconds=4.0):
    """n dominoes 0.2 x 1 m, 0.5 m apart (friction 0.6); the first is tipped by 5 rad/s.
    Figures: how many end lying (|angle| > 1 rad: each rests on the next at about 1.2 rad,
    the last flat), and the step each first passed 0.3 rad, which must increase along the
    row."""
    _ground(e)
    idx = [e.add(position=(0.5 * i, 0.5), box=(0.1, 0.5)) for i in range(n)]
    e.step(1)
    e.set_angular_velocity(idx[0], -5.0)
    first = np.full(n, -1)
    for k in range(round(seconds / DT)):
        e.step(1)
        a = np.abs(e.angles(idx))
        first[(first < 0) & (a > 0.3)] = k
    return {"fallen": int((np.abs(e.angles(idx)) > 1.0).sum()),
            "in_order": bool((first >= 0).all() and (np.diff(first) > 0).all())}


def overlapping_spawn(e, seconds=3.0):
    """No gravity: pairs of unit boxes created 0.25 m, 0.1 m and 0.05 m inside each other
    (side by side), far apart from each other. Figures: the largest overlap left and the
    largest speed after ``seconds`` (separated boxes should be at rest, not flying)."""
    e.set_gravity((0.0, 0.0))
    pairs = []
    for j, d in enumerate((0.25, 0.1, 0.05)):
        y = 5.0 * j
        a = e.add(position=(-0.5 + 0.5 * d, y), box=(0.5, 0.5))
        b = e.add(position=(0.5 - 0.5 * d, y), box=(0.5, 0.5))
        pairs.append((a, b))
    idx = [i for p in pairs for i in p]
    e.step(round(seconds / DT))
    p = e.positions(idx)
    gaps = [abs(p[2 * j + 1, 0] - p[2 * j, 0]) - 1.0 for j in range(3)]
    return {"overlap": float(max(0.0, -min(gaps))),
            "speed": float(np.linalg.norm(e.velocities(idx), axis=1).max())}


def overlapping_pile(e, n=5, seconds=5.0):
    """n unit boxes created half inside each other in a column (centres 0.5 m apart,
    alternately 0.1 m left and right) on the ground. They push apart into a column
    resting face on face; figures: the deepest overlap left between neighbours (one's
    bottom below the other's top), and the largest speed at the end."""
    _ground(e)
    idx = [e.add(position=(0.05 if i % 2 else -0.05, 0.5 + 0.5 * i), box=(0.5, 0.5))
           for i in range(n)]
    e.step(round(seconds / DT))
    y = np.sort(e.positions(idx)[:, 1])
    return {"overlap": float(max(0.0, 1.0 - np.diff(y).min())),
            "speed": float(np.linalg.norm(e.velocities(idx), axis=1).max())}


def heavy_on_light(e, ratio=100.0, seconds=5.0):
    """A 1 kg unit box on the ground with a unit box ``ratio`` times heavier on it.
    Figures: the top box's horizontal drift and drop at the end (soft contacts rest a
    little deep: the top box's load over the light box's effective mass)."""
    _ground(e)
    lo = e.add(position=(0.0, 0.5), box=(0.5, 0.5), density=1.0)
    hi = e.add(position=(0.0, 1.5), box=(0.5, 0.5), density=ratio)
    e.step(round(seconds / DT))
    p = e.positions([lo, hi])
    return {"drift": float(np.abs(p[:, 0]).max()), "drop": float(1.5 - p[1, 1])}


def heavy_on_circles(e, seconds=2.0):
    """A 5 x 0.5 m box of 250 kg rests on five circles (r = 0.5, 0.785 kg each) for
    ``seconds``, then is removed. Figure: how far the circles rise afterwards (they rest
    where they are: nothing may push them up)."""
    _ground(e)
    idx = [e.add(position=(-2.0 + i, 0.5), circle=0.5) for i in range(5)]
    heavy = e.add(position=(0.0, 1.25), box=(2.5, 0.25), density=100.0)
    e.step(round(seconds / DT))
    before = e.positions(idx)[:, 1]
    e.remove(heavy)
    rise = 0.0
    for _ in range(round(1.0 / DT)):
        e.step(1)
        rise = max(rise, float((e.positions(idx)[:, 1] - before).max()))
    return {"rise": rise}


def friction_ramp(e, degrees, mu, seconds=1.0):
    """A unit box released at rest on a static ramp tilted ``degrees``, friction mu on both
    (so mu between them). Figure: the box's acceleration along the ramp, from its travel
    over ``seconds`` (d = a t^2 / 2). It holds (a = 0) when mu > tan(theta), else slides
    at a = g (sin - mu cos)."""
    th = math.radians(degrees)
    # A 40 m ramp, its top face through the origin; n its upward normal.
    n = (-math.sin(th), math.cos(th))
    e.add("static", (-0.5 * n[0], -0.5 * n[1]), angle=th, box=(20.0, 0.5), friction=mu)
    c = (0.5 * n[0], 0.5 * n[1])
    box = e.add(position=c, angle=th, box=(0.5, 0.5), friction=mu)
    e.step(round(seconds / DT))
    p = e.positions([box])[0]
    t = (math.cos(th), math.sin(th))
    travel = -((p[0] - c[0]) * t[0] + (p[1] - c[1]) * t[1])  # downhill along -t
    return {"accel": 2.0 * travel / seconds**2}


def confined_circles(e, n=300, seconds=5.0):
    """n circles (r = 0.25, seed 7) dropped from a grid into a closed static box 10 x 10 m
    inside (they fill the lower 5 m or so). Figures: circles
    outside the box, the deepest overlap between two circles, and the largest speed at the
    end."""
    _ground(e, 11.0)
    e.add("static", (-5.5, 5.0), box=(0.5, 5.0))
    e.add("static", (5.5, 5.0), box=(0.5, 5.0))
    e.add("static", (0.0, 10.5), box=(6.0, 0.5))
    rng = np.random.default_rng(7)
    jitter = rng.uniform(-0.02, 0.02, (n, 2))
    idx = [e.add(position=(-4.7 + 0.52 * (k % 19) + jitter[k, 0],
                           0.3 + 0.52 * (k // 19) + jitter[k, 1]), circle=0.25)
           for k in range(n)]
    e.step(round(seconds / DT))
    p = e.positions(idx)
    outside = int(((np.abs(p[:, 0]) > 5.0) | (p[:, 1] < 0.0) | (p[:, 1] > 10.0)).sum())
    d = np.linalg.norm(p[:, None, :] - p[None, :, :], axis=2) + 10.0 * np.eye(n)
    return {"outside": outside, "overlap": float(max(0.0, 0.5 - d.min())),
            "speed": float(np.linalg.norm(e.velocities(idx), axis=1).max())}


def crowd_to_point(e, n=100, seconds=5.0):
    """No gravity: n circles (r = 0.5, seed 8) in a 20 m square pulled to the origin by a
    force of 10 N per kg of mass. They gather into a disc; figures: the deepest overlap of
    two circles and the largest speed at the end (a settled crowd is near rest)."""
    e.set_gravity((0.0, 0.0))
    rng = np.random.default_rng(8)
    start = rng.uniform(-10.0, 10.0, (n, 2))
    idx = [e.add(position=tuple(p), circle=0.5) for p in start]
    mass = math.pi * 0.25
    for _ in range(round(seconds / DT)):
        p = e.positions(idx)
        r = np.linalg.norm(p, axis=1, keepdims=True)
        e.apply_forces(idx, -10.0 * mass * p / np.maximum(r, 1e-9))
        e.step(1)
    p = e.positions(idx)
    d = np.linalg.norm(p[:, None, :] - p[None, :, :], axis=2) + 10.0 * np.eye(n)
    return {"overlap": float(max(0.0, 1.0 - d.min())),
            "speed": float(np.linalg.norm(e.velocities(idx), axis=1).max())}


def far_column(e, origin=(0.0, 0.0), n=5, seconds=3.0):
    """A column of n unit boxes on a ground box, all shifted by ``origin``. Figures: each
    box's position relative to ``origin`` at the end (to compare with the same scene at
    the origin)."""
    ox, oy = origin
    e.add("static", (ox, oy - 0.5), box=(10.0, 0.5))
    idx = [e.add(position=(ox + 0.1 * (i % 2), oy + 0.5 + i), box=(0.5, 0.5))
           for i in range(n)]
    e.step(round(seconds / DT))
    return {"relative": e.positions(idx) - np.array(origin)}


def pyramid(e, base, steps, gap=0.0):
    """bench/scenes.md's pyramid: unit boxes, friction 0.6, on a 200 m ground; with ``gap``,
    the boxes of a row stand that far apart (each then rests on two below, off centre).
    Figures: the largest displacement of any box from its start, the top box's drop, and
    the largest speed of any box over the last second (a pile at rest: none)."""
    _ground(e, 200.0)
    idx = []
    for r in range(base):
        for i in range(base - r):
            x = (i - (base - r - 1) / 2.0) * (1.0 + gap)
            idx.append(e.add(position=(x, 0.5 + r), box=(0.5, 0.5)))
    start = e.positions(idx)
    last = round(1.0 / DT)
    e.step(steps - last)
    speed = 0.0
    for _ in range(last):
        e.step(1)
        speed = max(speed, float(np.linalg.norm(e.velocities(idx), axis=1).max()))
    end = e.positions(idx)
    return {"moved": float(np.linalg.norm(end - start, axis=1).max()),
            "sag": float(start[-1, 1] - end[-1, 1]), "speed": speed}


def gravity_off(e, seconds=1.0):
    """A column of three unit boxes settles for 2 s; then gravity goes off. Nothing is left
    to move them: figure, the largest speed over the next ``seconds``."""
    _ground(e, 20.0)
    idx = [e.add(position=(0.0, 0.5 + i), box=(0.5, 0.5)) for i in range(3)]
    e.step(round(2.0 / DT))
    e.set_gravity((0.0, 0.0))
    speed = 0.0
    for _ in range(round(seconds / DT)):
        e.step(1)
        speed = max(speed, float(np.linalg.norm(e.velocities(idx), axis=1).max()))
    return {"speed": speed}


def flat_landing(e, seconds=1.0):
    """A 2 x 0.5 m plank (restitution 0, friction 0.5) lands flat on the ground at 20 m/s.
    A face-on hit is symmetric about the plank's centre, so nothing can turn it: figure,
    the largest angular speed (rad/s) over ``seconds``."""
    _ground(e, 20.0)
    plank = e.add(position=(0.0, 1.5), box=(1.0, 0.25), friction=0.5, velocity=(0.0, -20.0))
    spin = 0.0
    for _ in range(round(seconds / DT)):
        e.step(1)
        spin = max(spin, abs(float(e.angular_velocities([plank])[0])))
    return {"spin": spin}


def corner_impact(e, steps=30):
    """No gravity: two 0.5 x 1 m boxes (density 1, friction 0), one perfectly elastic,
    meet corner first while turning. No bounce can make energy: figure, the largest ratio
    of the pair's kinetic energy to the start's."""
    e.set_gravity((0.0, 0.0))
    a = e.add(position=(0.0, 1.1), angle=-1.044, box=(0.25, 0.5), friction=0.0,
              restitution=1.0, velocity=(0.0, -1.19))
    b = e.add(position=(0.0, 0.0), angle=1.0, box=(0.25, 0.5), friction=0.0,
              velocity=(0.0, 1.0))
    e.set_angular_velocity(a, 0.3)
    m = 0.5
    inertia = m * (0.5**2 + 1.0**2) / 12.0

    def energy():
        v = e.velocities([a, b])
        w = e.angular_velocities([a, b])
        return float(0.5 * m * (v * v).sum() + 0.5 * inertia * (w * w).sum())

    e0 = energy()
    top = e0
    for _ in range(steps):
        e.step(1)
        top = max(top, energy())
    return {"energy_ratio": top / e0}
