"""dungeon: a top-down RPG. Characters walk the rooms of a tile map, sliding
along its walls (``world.move_and_slide_many``: one compiled call moves them all), and pass
through each other. Each character has a solid body shape, which the mover sweeps against
the tiles, and a slightly smaller sensor hitbox: ``world.step`` reports hitbox overlaps
(``world.sensor_overlaps()``), drawn in orange with their MTD vectors.

Gold floor zones are static sensors that light up while occupied. Arrow keys walk the hero
(the white character).
"""

from __future__ import annotations

import math

import numpy as np

from ..draw import DrawOptions
from ..world import World
from .scene import Scene

MAP = """
################################
#.........#.........#..........#
#..GG.....#.........#..........#
#..GG.....#...##....#....##....#
#.............##...............#
#.........#.........#..........#
#.........#.........#.....GG...#
####.######...####..######GG####
#.........#...#..#.............#
#.........#...#..#.............#
#..####.......#..#.......#######
#..#..#.......#GG#.............#
#..#..#...#...#..#.............#
#.........#........###.........#
###.#######.........#....#######
#...........#..#....#..........#
#...GG......#..#.............#.#
#...GG..............#....#...#.#
#...........#..#....#....#.....#
################################
"""

TILE = 1.0
SPEED = 3.0           # m/s
FLOOR = (36, 34, 44)
GRID = (44, 42, 54)
WALL = (92, 86, 104)
GOLD = (250, 214, 80)
GOLD_FLOOR = (88, 74, 34)
HERO = (245, 245, 250)


def _grid():
    rows = [r for r in MAP.strip("\n").splitlines()]
    # Row 0 of the text is the top of the map; the grid's row i counts up (y up).
    return np.array([[c for c in r] for r in rows[::-1]])


class Dungeon(Scene):
    name = "dungeon"
    title = "characters slide along walls and pass through each other"
    help = ("arrow keys: walk the hero (white); left button: call the characters near it",
            "characters pass through each other and never push",
            "orange: overlapping hitboxes, joined; gold: sensor zones; d: their MTD vectors")

    def __init__(self, seed: int = 0):
        self.grid = _grid()
        n_rows, n_cols = self.grid.shape
        self.origin = np.array([-n_cols * TILE / 2, -n_rows * TILE / 2])
        self.view = (self.origin[0], self.origin[1], -self.origin[0], -self.origin[1])
        self.hero_keys = set()
        self.lure = None
        super().__init__(seed)

    def _center(self, i, j):
        return self.origin + TILE * np.array([j + 0.5, i + 0.5])

    def build(self) -> World:
        self.palette.background = FLOOR
        world = World(gravity=(0.0, 0.0))
        self.tiles = world.add_tilemap(self.grid == "#", TILE, self.origin, friction=0.0)
        self.colors[self.tiles.body.id] = WALL
        zones = world.add_body(kind="static")
        for i, j in np.argwhere(self.grid == "G"):
            zones.add_box(TILE, TILE, offset=self._center(i, j), sensor=True)

        rng = self.rng
        free = np.argwhere(self.grid == ".")
        # The hero (first) starts on the free cell nearest the middle; the others anywhere.
        middle = np.array(self.grid.shape) / 2.0
        first = int(np.argmin(((free + 0.5 - middle) ** 2).sum(axis=1)))
        others = np.delete(np.arange(len(free)), first)
        picks = free[np.concatenate(([first], rng.choice(others, size=23, replace=False)))]
        self.characters = []
        for k, (i, j) in enumerate(picks):
            self._add_character(world, self._center(i, j), box=k % 3 == 2)
        self.hero = self.characters[0]
        self.colors[self.hero.id] = HERO
        self.heading = rng.uniform(0, math.tau, len(self.characters))
        self.speed = rng.uniform(0.6, 1.0, len(self.characters)) * SPEED
        self.blocked = np.zeros(len(self.characters), dtype=bool)
        return world

    def _add_character(self, world, position, box=False):
        body = world.add_body(kind="kinematic", position=position)
        if box:
            body.add_box(0.76, 0.76)
            body.add_box(0.64, 0.64, sensor=True)     # hitbox
        else:
            body.add_circle(0.4)
            body.add_circle(0.33, sensor=True)        # hitbox
        world.set_character(body)
        self.colors[body.id] = self.palette.dynamic[len(self.characters) % 8]
        self.characters.append(body)
        return body

    # ------------------------------------------------------------------ walking
    def _ids(self):
        alive = np.array([c.alive for c in self.characters], dtype=bool)
        if not alive.all():
            self.characters = [c for c, a in zip(self.characters, alive, strict=True) if a]
            self.heading, self.speed = self.heading[alive], self.speed[alive]
            self.blocked = self.blocked[alive]
        return np.array([c.id for c in self.characters], dtype=np.int64)

    def before_step(self, dt: float) -> None:
        ids = self._ids()
        n = ids.size
        if n == 0:
            return
        rng = self.rng
        # Turn now and then, and turn away after a wall stopped the last move.
        turn = (rng.random(n) < dt / 1.5) | (self.blocked[:n] & (rng.random(n) < 0.2))
        self.heading[turn] += rng.uniform(-2.2, 2.2, int(turn.sum()))
        if self.lure is not None:       # the mouse calls the characters near it
            point, radius = self.lure
            d = point - self.world.positions(ids)
            near = np.hypot(d[:, 0], d[:, 1]) < radius
            self.heading[near] = np.arctan2(d[near, 1], d[near, 0])
            self.lure = None
        vel = self.speed[:, None] * np.column_stack((np.cos(self.heading),
                                                    np.sin(self.heading)))
        if self.characters[0] is self.hero:
            vel[0] = self._hero_velocity()
        moved = self.world.move_and_slide_many(ids, vel, dt)
        self.blocked = (moved.velocity * vel).sum(axis=1) < 0.5 * (vel * vel).sum(axis=1)

    def _hero_velocity(self):
        import pygame as pg

        k = self.hero_keys
        d = np.array([(pg.K_RIGHT in k) - (pg.K_LEFT in k), (pg.K_UP in k) - (pg.K_DOWN in k)],
                     dtype=np.float64)
        n = math.hypot(*d)
        return d * (1.3 * SPEED / n) if n else d

    def attract(self, point, radius: float) -> None:
        # Characters are kinematic (moved, not pushed): those near the cursor walk to it.
        self.lure = (np.asarray(point, dtype=np.float64), radius)

    def key(self, key: int, down: bool) -> bool:
        import pygame as pg

        if key in (pg.K_LEFT, pg.K_RIGHT, pg.K_UP, pg.K_DOWN):
            (self.hero_keys.add if down else self.hero_keys.discard)(key)
            return True
        return False

    def spawn(self, point) -> None:
        self._add_character(self.world, point)
        self.heading = np.append(self.heading, self.rng.uniform(0, math.tau))
        self.speed = np.append(self.speed, SPEED)
        self.blocked = np.append(self.blocked, False)

    # ------------------------------------------------------------------ drawing
    def draw_options(self, debug: bool) -> DrawOptions:
        opts = super().draw_options(debug)
        opts.overlaps = True
        opts.palette.sensor = GOLD
        opts.sensor_alpha = 0          # gold zones are painted on the floor below
        return opts

    def draw_under(self, renderer, camera) -> None:
        n_rows, n_cols = self.grid.shape
        xs = self.origin[0] + TILE * np.arange(n_cols + 1)
        ys = self.origin[1] + TILE * np.arange(n_rows + 1)
        x0, x1 = xs[0], xs[-1]
        y0, y1 = ys[0], ys[-1]
        seg = [((x, y0), (x, y1)) for x in xs] + [((x0, y), (x1, y)) for y in ys]
        renderer.lines(camera.world_to_screen(np.array(seg)), GRID, 1.0)
        for i, j in np.argwhere(self.grid == "G"):
            lo = self.origin + TILE * np.array([j, i])
            box = np.array([lo, lo + (TILE, 0), lo + (TILE, TILE), lo + (0, TILE)])
            renderer.polygon(camera.world_to_screen(box), GOLD_FLOOR, None)

    def _overlaps(self):
        """(character pairs, characters in a gold zone) from the sensor overlaps: a hitbox
        meets the other's hitbox and body, so one meeting is up to three shape pairs."""
        world = self.world
        pairs = world.sensor_overlaps()
        if len(pairs) == 0:
            return np.empty((0, 2), np.int64), np.empty(0, np.int64)
        body = world.shape_bodies(pairs)
        kinematic = world.kinds(body.ravel()).reshape(body.shape) == "kinematic"
        both = kinematic.all(axis=1)
        met = np.unique(np.sort(body[both], axis=1), axis=0)
        zoned = np.unique(body[~both][kinematic[~both]])
        return met, zoned

    def draw_over(self, renderer, camera, debug: bool) -> None:
        met, _ = self._overlaps()
        if len(met):
            p = camera.world_to_screen(self.world.positions(met.ravel()).reshape(-1, 2, 2))
            renderer.lines(p, self.palette.overlap, 2.0)

    def stats(self) -> list[str]:
        met, zoned = self._overlaps()
        return [f"{len(self.characters)} characters    {len(met)} meetings    "
                f"{len(zoned)} in gold zones"]
