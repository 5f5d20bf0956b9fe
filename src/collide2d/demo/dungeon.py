"""dungeon: seed 001's top-down RPG. Characters wander the rooms, slide along tile walls,
and pass through each other: dynamic-vs-dynamic pairs are detect-only (the world's
``dynamic_response="sensor"``), reported as overlaps and highlighted with their MTD.

Walls come from a tile grid. Gold floor zones are sensors that light up while occupied.
Arrow keys walk the hero (the white character).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _store as S
from ..draw import DrawOptions
from ..world import World
from .scene import Scene

MAP = """
############################################
#..........#..............#................#
#..........#..............#................#
#...GG.....#....######....#.....#######....#
#...GG..........#....#..........#.....#....#
#...............#....#..........#.....#....#
#..........#....##..##....#.....###.###....#
#..........#..............#................#
######.#####..............######.###########
#..........#####.....######................#
#..........#..................#............#
#..........#..................#....GG......#
#...####...#......#######.....#....GG......#
#...#..#..........#.....#..................#
#...#..#...#......#..GG.#.....#............#
#..........#......#.....#.....#............#
#..........#......###.###.....##########.###
####.#######...............................#
#.............#####....#####......#........#
#.............#...#....#...#......#...##...#
#....GG.......#...#....#...#......#...##...#
#....GG...........#........#......#........#
#.............#...#....#...#...............#
############################################
"""

TILE = 1.0
SPEED = 3.0           # m/s
FLOOR = (36, 34, 44)
GRID = (44, 42, 54)
WALL = (92, 86, 104)
GOLD = (250, 214, 80)
HERO = (245, 245, 250)


def _grid():
    rows = [r for r in MAP.strip("\n").splitlines()]
    # Row 0 of the text is the top of the map; the grid's row i counts up (y up).
    return np.array([[c for c in r] for r in rows[::-1]])


def _rectangles(solid: np.ndarray):
    """Cover the solid cells with few axis-aligned rectangles: horizontal runs, merged
    downwards while the run below has the same extent. Yields (i0, j0, i1, j1) inclusive."""
    used = np.zeros_like(solid)
    n_rows, n_cols = solid.shape
    for i in range(n_rows):
        j = 0
        while j < n_cols:
            if not solid[i, j] or used[i, j]:
                j += 1
                continue
            j1 = j
            while j1 + 1 < n_cols and solid[i, j1 + 1] and not used[i, j1 + 1]:
                j1 += 1
            i1 = i
            while (i1 + 1 < n_rows and solid[i1 + 1, j : j1 + 1].all()
                   and not used[i1 + 1, j : j1 + 1].any()
                   and (j == 0 or not solid[i1 + 1, j - 1] or used[i1 + 1, j - 1])
                   and (j1 + 1 == n_cols or not solid[i1 + 1, j1 + 1])):
                i1 += 1
            used[i : i1 + 1, j : j1 + 1] = True
            yield i, j, i1, j1
            j = j1 + 1


class Dungeon(Scene):
    name = "dungeon"
    title = "characters slide along walls and pass through each other"
    help = ("arrow keys: walk the hero (white); characters overlap, never push",
            "orange: overlapping pairs and their MTD; gold: sensor zones")

    def __init__(self, seed: int = 0):
        self.grid = _grid()
        n_rows, n_cols = self.grid.shape
        self.origin = np.array([-n_cols * TILE / 2, -n_rows * TILE / 2])
        self.view = (self.origin[0], self.origin[1], -self.origin[0], -self.origin[1])
        self.hero_keys = set()
        super().__init__(seed)

    def _center(self, i, j):
        return self.origin + TILE * np.array([j + 0.5, i + 0.5])

    def build(self) -> World:
        self.palette.background = FLOOR
        world = World(gravity=(0.0, 0.0), dynamic_response="sensor")
        solid = self.grid == "#"
        walls = world.add_body(kind="static")
        self.colors[walls.id] = WALL
        for i0, j0, i1, j1 in _rectangles(solid):
            lo = self.origin + TILE * np.array([j0, i0])
            hi = self.origin + TILE * np.array([j1 + 1, i1 + 1])
            walls.add_box(*(hi - lo), offset=0.5 * (lo + hi), friction=0.0)
        zones = world.add_body(kind="static")
        gold = np.argwhere(self.grid == "G")
        for i, j in gold:
            zones.add_box(TILE, TILE, offset=self._center(i, j), sensor=True)

        rng = self.rng
        free = np.argwhere(self.grid == ".")
        picks = free[rng.choice(len(free), size=30, replace=False)]
        self.characters = []
        for k, (i, j) in enumerate(picks):
            body = world.add_body(position=self._center(i, j), fixed_rotation=True)
            if k % 3 == 2:
                body.add_box(0.7, 0.7, friction=0.0)
            else:
                body.add_circle(0.33, friction=0.0)
            self.characters.append(body)
        self.hero = self.characters[0]
        self.colors[self.hero.id] = HERO
        self.heading = rng.uniform(0, math.tau, len(self.characters))
        self.speed = rng.uniform(0.6, 1.0, len(self.characters)) * SPEED
        return world

    # ------------------------------------------------------------------ walking
    def _slots(self):
        self.characters = [c for c in self.characters if c.alive]
        return np.array([c.id for c in self.characters], dtype=np.int64)

    def before_step(self, dt: float) -> None:
        slots = self._slots()
        n = slots.size
        if n == 0:
            return
        b = self.world._bodies
        rng = self.rng
        if self.heading.size != n:
            self.heading = np.resize(self.heading, n)
            self.speed = np.resize(self.speed, n)
        # Turn now and then, and turn away when a wall stopped the last move.
        want = self.speed[:, None] * np.column_stack((np.cos(self.heading),
                                                     np.sin(self.heading)))
        got = b.vel[slots]
        blocked = (want * got).sum(axis=1) < 0.5 * (want * want).sum(axis=1)
        turn = (rng.random(n) < dt / 1.5) | (blocked & (rng.random(n) < 0.2))
        self.heading[turn] += rng.uniform(-2.2, 2.2, int(turn.sum()))
        vel = self.speed[:, None] * np.column_stack((np.cos(self.heading),
                                                    np.sin(self.heading)))
        if self.hero.alive and self.characters[0] is self.hero:
            vel[0] = self._hero_velocity()
        b.vel[slots] = vel
        b.flags[slots] |= S.B_AWAKE

    def _hero_velocity(self):
        import pygame as pg

        k = self.hero_keys
        d = np.array([(pg.K_RIGHT in k) - (pg.K_LEFT in k), (pg.K_UP in k) - (pg.K_DOWN in k)],
                     dtype=np.float64)
        n = math.hypot(*d)
        return d * (1.3 * SPEED / n) if n else d

    def key(self, key: int, down: bool) -> bool:
        import pygame as pg

        if key in (pg.K_LEFT, pg.K_RIGHT, pg.K_UP, pg.K_DOWN):
            (self.hero_keys.add if down else self.hero_keys.discard)(key)
            return True
        return False

    def spawn(self, point) -> None:
        body = self.world.add_body(position=point, fixed_rotation=True)
        body.add_circle(0.33, friction=0.0)
        self.characters.append(body)
        self.heading = np.append(self.heading, self.rng.uniform(0, math.tau))
        self.speed = np.append(self.speed, SPEED)

    # ------------------------------------------------------------------ drawing
    def draw_options(self, debug: bool) -> DrawOptions:
        opts = super().draw_options(debug)
        opts.overlaps = True
        opts.mtd = True
        opts.palette.sensor = GOLD
        return opts

    def draw_under(self, renderer, camera) -> None:
        n_rows, n_cols = self.grid.shape
        xs = self.origin[0] + TILE * np.arange(n_cols + 1)
        ys = self.origin[1] + TILE * np.arange(n_rows + 1)
        x0, x1 = xs[0], xs[-1]
        y0, y1 = ys[0], ys[-1]
        seg = [((x, y0), (x, y1)) for x in xs] + [((x0, y), (x1, y)) for y in ys]
        renderer.lines(camera.world_to_screen(np.array(seg)), GRID, 1.0)

    def stats(self) -> list[str]:
        pairs = self.world.sensor_overlaps()
        return [f"{len(self.characters)} characters    {len(pairs)} overlapping pairs"]
