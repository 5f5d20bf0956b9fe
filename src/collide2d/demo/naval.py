"""naval: a sailing battle. Ships are convex hulls (literally: the hull of a cloud
of deck points), islands are concave static polygons, cannonballs fly in broadsides.

Two fleets sail opposite ways round two ellipses, so they keep passing each other abeam;
each ship fires a broadside of four cannonballs at an enemy alongside. Cannonballs are
particles (``world.add_particles``, one system per fleet, ``on_hit="stop"``): each step
traces every ball from its last position to the new one against all shapes, so none
tunnels, and the fleet's filter keeps it from hitting its own ships. A ball that hits a
ship hands it its momentum (``body.apply_impulse`` at the hit point).
"""

from __future__ import annotations

import math

import numpy as np

from ..geometry import convex_hull
from ..queries import QueryFilter
from ..world import World
from .scene import Scene, push

HALF_W, HALF_H = 42.0, 26.0
ROUTES = ((33.0, 20.0, 1.0), (23.0, 11.0, -1.0))   # (a, b, direction) per fleet
TEAM_COLORS = ((186, 64, 52), (48, 98, 178))
TEAM_NAMES = ("red", "blue")
SEA = (26, 70, 110)
SAND = (216, 192, 132)
GRASS = (96, 150, 82)
ROCK = (120, 118, 112)
BALL_COLOR = (24, 24, 28)

# Collision categories: land 1, ships of fleet k 2 << k.
LAND = 1
ALL = 0xFFFFFFFF

SHIP_SPEED = 5.0        # m/s
BALL_SPEED = 24.0       # m/s, relative to the ship
BALL_MASS = 0.9         # kg: 22 N s at full speed
BALL_LIFE = 1.1         # s in the air before it drops into the sea
RELOAD = 2.2            # s
GUNS = (-2.1, -0.8, 0.5, 1.8)   # gun ports along the hull (body frame x, m)


def _ship_cat(team: int) -> int:
    return 2 << team


def _star_island(rng, center, radius, n=14):
    """A star-shaped (so simple), usually concave outline around ``center``."""
    t = np.sort(rng.uniform(0, math.tau, n))
    r = radius * rng.uniform(0.55, 1.0, n)
    return np.column_stack((center[0] + r * np.cos(t), center[1] + r * np.sin(t)))


def _crescent(center, r_in, r_out, open_angle=1.4, n=16):
    """A crescent around ``center`` opening towards +x: outer arc CCW, inner arc back."""
    t = np.linspace(open_angle / 2, math.tau - open_angle / 2, n)
    outer = np.column_stack((np.cos(t), np.sin(t))) * r_out
    inner = (np.column_stack((np.cos(t), np.sin(t))) * r_in)[::-1]
    return np.vstack((outer, inner)) + np.asarray(center)


class Naval(Scene):
    name = "naval"
    title = "two fleets trade broadsides among concave islands"
    help = ("ships are convex hulls; islands are concave (decomposed into convex parts)",
            "cannonballs are particles traced segment by segment; a hit pushes the ship")
    view = (-HALF_W, -HALF_H, HALF_W, HALF_H)

    def build(self) -> World:
        self.palette.background = SEA
        world = World(gravity=(0.0, 0.0))
        rng = self.rng
        coast = world.add_body(kind="static")
        k = 2.0     # thickness of the coast around the map
        for (x, y, w, h) in ((0, -HALF_H - k / 2, 2 * HALF_W + 2 * k, k),
                             (0, HALF_H + k / 2, 2 * HALF_W + 2 * k, k),
                             (-HALF_W - k / 2, 0, k, 2 * HALF_H),
                             (HALF_W + k / 2, 0, k, 2 * HALF_H)):
            coast.add_box(w, h, offset=(x, y), category=LAND)
        self.colors[coast.id] = (150, 130, 90)
        self.vegetation = []
        islands = world.add_body(kind="static")
        self.colors[islands.id] = SAND
        islands.add_polygon(_crescent((-1.0, 0.0), 3.6, 7.0), category=LAND)
        self.vegetation.append(_crescent((-1.0, 0.0), 4.4, 6.2, open_angle=1.7))
        for cx, cy, r in ((-36.0, 20.0, 4.5), (36.5, -20.0, 4.5), (36.0, 19.5, 3.5),
                          (-36.0, -19.5, 4.0), (-15.0, 2.0, 2.2), (13.0, -3.0, 1.6)):
            outline = _star_island(rng, (cx, cy), r)
            islands.add_polygon(outline, category=LAND)
            c = outline.mean(axis=0)
            if r > 2.0:
                self.vegetation.append(c + 0.55 * (outline - c))

        self.ships = []      # [body, team, reload]
        # One particle system per fleet: its filter hides the fleet's own ships.
        self.guns = [world.add_particles(np.empty((0, 2)), on_hit="stop", gravity_scale=0.0,
                                         drag=0.2, filter=QueryFilter(mask=ALL & ~_ship_cat(t)))
                     for t in (0, 1)]
        self.fired_at = [np.empty(0), np.empty(0)]   # time each cannonball was fired
        self.effects = []    # [x, y, start time, color, size]
        self.hits = [0, 0]
        self.fired = 0
        for team, (a, b, direction) in enumerate(ROUTES):
            for k in range(4):
                phi = k * math.pi / 2 + (0.55 if team else 0.0)
                pos = (a * math.cos(phi), b * math.sin(phi))
                heading = math.atan2(direction * b * math.cos(phi), -direction * a * math.sin(phi))
                self._add_ship(world, team, pos, heading, reload=float(rng.uniform(0, 0.6)))
        return world

    def _add_ship(self, world, team, pos, heading, reload=0.0):
        rng = self.rng
        deck = np.array([(-3.6, -1.0), (-3.9, 0.0), (-3.6, 1.0), (-1.0, 1.25), (1.5, 1.1),
                         (3.2, 0.6), (4.3, 0.0), (3.2, -0.6), (1.5, -1.1), (-1.0, -1.25),
                         (0.0, 0.0), (-2.0, 0.5), (2.0, -0.4)])
        deck = deck * rng.uniform(0.95, 1.05, size=(1, 2))
        body = world.add_body(position=pos, angle=heading, damping=0.7, angular_damping=0.25,
                              velocity=(SHIP_SPEED * math.cos(heading),
                                        SHIP_SPEED * math.sin(heading)))
        body.add_polygon(convex_hull(deck), density=1.0, friction=0.3, elasticity=0.2,
                         category=_ship_cat(team))
        self.colors[body.id] = TEAM_COLORS[team]
        self.ships.append([body, team, reload])

    # ------------------------------------------------------------------ sailing
    def _ship_arrays(self):
        live = [s for s in self.ships if s[0].alive]
        self.ships = live
        ids = np.array([s[0].id for s in live], dtype=np.int64)
        team = np.array([s[1] for s in live], dtype=np.int64)
        return ids, team

    def before_step(self, dt: float) -> None:
        world = self.world
        ids, team = self._ship_arrays()
        if ids.size == 0:
            return
        pos, ang, vel = world.positions(ids), world.angles(ids), world.velocities(ids)
        fwd = np.column_stack((np.cos(ang), np.sin(ang)))
        left = np.column_stack((-fwd[:, 1], fwd[:, 0]))
        routes = np.array(ROUTES)[team]
        a, bb, direction = routes[:, 0], routes[:, 1], routes[:, 2]
        # Steer for a point a little ahead on the fleet's ellipse.
        phi = np.arctan2(pos[:, 1] / bb, pos[:, 0] / a) + direction * 0.45
        target = np.column_stack((a * np.cos(phi), bb * np.sin(phi)))
        d = target - pos
        err = (np.arctan2(d[:, 1], d[:, 0]) - ang + math.pi) % math.tau - math.pi
        mass = world.masses(ids)
        inertia = world.inertias(ids)
        torque = inertia * (3.0 * err - 2.5 * world.angular_velocities(ids))
        v_fwd = (vel * fwd).sum(axis=1)
        v_side = (vel * left).sum(axis=1)
        thrust = mass * 2.0 * np.clip(SHIP_SPEED - v_fwd, -1.0, 2.0)
        keel = -mass * 2.5 * v_side     # the keel resists sideways drift
        push(world, ids, fwd * thrust[:, None] + left * keel[:, None], torque)
        self._broadsides(ids, team, pos, vel, fwd, left, dt)

    def _broadsides(self, ids, team, pos, vel, fwd, left, dt) -> None:
        rel = pos[None, :, :] - pos[:, None, :]            # [shooter, target]
        along = (rel * fwd[:, None, :]).sum(axis=2)
        across = (rel * left[:, None, :]).sum(axis=2)
        abeam = ((team[:, None] != team[None, :]) & (np.abs(along) < 4.0)
                 & (np.abs(across) > 2.0) & (np.abs(across) < 18.0))
        for i, ship in enumerate(self.ships):
            ship[2] -= dt
            if ship[2] > 0.0 or not abeam[i].any():
                continue
            j = int(np.flatnonzero(abeam[i])[np.argmin(np.abs(across[i][abeam[i]]))])
            side = left[i] * math.copysign(1.0, across[i, j])
            self._fire(ship, pos[i], vel[i], fwd[i], side)
            ship[2] = RELOAD + float(self.rng.uniform(0, 0.4))

    def _fire(self, ship, pos, vel, fwd, side) -> None:
        team, rng = ship[1], self.rng
        x = np.array(GUNS)[:, None]
        p = pos + fwd * x + side * 1.4
        v = (vel + side * BALL_SPEED * rng.uniform(0.92, 1.05, (len(GUNS), 1))
             + fwd * rng.uniform(-1.5, 1.5, (len(GUNS), 1)))
        self.guns[team].add(p, v)
        self.fired_at[team] = np.append(self.fired_at[team], np.full(len(GUNS), self.time))
        self.effects += [[q[0], q[1], self.time, (245, 245, 235), 0.6] for q in p]   # smoke
        self.fired += len(GUNS)

    def after_step(self, dt: float) -> None:
        world = self.world
        for team, gun in enumerate(self.guns):
            hits = gun.hits
            # A ship (dynamic) is pushed with the ball's momentum; land is not moved.
            world.apply_impulses(hits.body, BALL_MASS * gun.velocities[hits.particle],
                                 hits.point)
            ship = world.kinds(hits.body) == "dynamic"
            self.hits[team] += int(ship.sum())
            for point, on_ship in zip(hits.point, ship.tolist(), strict=True):
                if on_ship:
                    self.effects.append([point[0], point[1], self.time, (255, 170, 60), 1.4])
                else:
                    self.effects.append([point[0], point[1], self.time, SAND, 0.9])
            old = gun.alive & (self.time - self.fired_at[team] > BALL_LIFE)
            self.effects += [[q[0], q[1], self.time, (220, 240, 255), 0.9]    # splash
                             for q in gun.positions[old]]
            drop = ~gun.alive | old
            gun.remove(drop)
            self.fired_at[team] = self.fired_at[team][~drop]
        self.effects = [e for e in self.effects if self.time - e[2] < 0.8]

    def spawn(self, point) -> None:
        team = len(self.ships) % 2
        self._add_ship(self.world, team, point, float(self.rng.uniform(0, math.tau)))

    # ------------------------------------------------------------------ drawing
    def draw_over(self, renderer, camera, debug: bool) -> None:
        if not debug:
            for poly in self.vegetation:
                renderer.polygon(camera.world_to_screen(poly), GRASS, None)
            for body, team, _ in self.ships:
                self._draw_sails(renderer, camera, body, team)
        self._draw_trails(renderer, camera)
        for x, y, t0, color, size in self.effects:
            age = (self.time - t0) / 0.8
            c = camera.world_to_screen((x, y))
            r = camera.zoom * size * (0.4 + 1.2 * age)
            fade = tuple(int(round(cc + (s - cc) * age)) for cc, s in zip(color, SEA, strict=True))
            renderer.circle(c, r, None, fade, 2.0)

    def _draw_trails(self, renderer, camera) -> None:
        """Each cannonball's path over the last 1/20 s: the kind of segment a particle is traced
        along each step, from its last position to the current one (so it cannot tunnel)."""
        for gun in self.guns:
            live = gun.alive
            if not live.any():
                continue
            p1 = gun.positions[live]
            p0 = p1 - gun.velocities[live] * 0.05
            seg = camera.world_to_screen(np.stack((p0, p1), axis=1))
            renderer.lines(seg, (236, 240, 246), 2.0)
            renderer.points(seg[:, 1], BALL_COLOR, 2.5)

    def draw_options(self, debug: bool):
        opts = super().draw_options(debug)
        opts.palette.particle = BALL_COLOR
        opts.particle_radius = 2.5      # pixels: a ball is about 0.2 m across
        return opts

    def _draw_sails(self, renderer, camera, body, team) -> None:
        sail = np.array([(-0.25, -1.5), (0.25, -1.5), (0.55, 0.0), (0.25, 1.5), (-0.25, 1.5)])
        for x in (-1.4, 1.0):
            pts = body.world_points(sail + (x, 0.0))
            renderer.polygon(camera.world_to_screen(pts), (240, 236, 222), (160, 150, 130), 1.0)
        flag = body.world_points(np.array([(-3.7, 0.0), (-4.6, 0.25), (-4.6, -0.25)]))
        renderer.polygon(camera.world_to_screen(flag), TEAM_COLORS[team], None)

    def stats(self) -> list[str]:
        flying = sum(g.alive_count for g in self.guns)
        return [f"hits  red {self.hits[0]}  blue {self.hits[1]}    "
                f"cannonballs {flying} in flight, {self.fired} fired"]
