"""Geometry kernels per element: collide2d's batch forms against shapely's vectorised
predicates and pymunk's per-call queries, in nanoseconds per element and as ratios.

- SAT pairs: 100,000 pairs of random hexagons, ``polygons_overlap_many`` vs
  ``shapely.intersects`` on geometry arrays (pymunk has no pairwise yes/no query:
  ``Shape.shapes_collide`` raises on separated shapes in pymunk 7.3).
- segment-polygon: 100,000 segments against one hexagon, ``segment_polygon_many`` (first
  crossing: fraction, point, normal) vs ``shapely.intersects`` (a yes/no only) vs pymunk
  ``Shape.segment_query`` in a loop.
- points in polygon: 1,000,000 points in a concave 12-gon, ``points_in_polygon`` vs
  ``shapely.contains_xy`` vs pymunk ``Shape.point_query`` in a loop (on its convex hull:
  pymunk has no concave polygons).

Run: ``python bench/geometry.py`` (pymunk and shapely optional). Times are medians of 5.
"""

from __future__ import annotations

import os
import statistics
import time

import numpy as np

# Timings are of the compiled kernels: compile here on a cold cache, not in the background.
os.environ.setdefault("COLLIDE2D_BACKGROUND_COMPILE", "0")

import collide2d as c2d  # noqa: E402


def _median_ns(fn, n, repeat=5):
    fn()  # warm-up: compile, first touch
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) / n * 1e9


def _hexagons(rng, k):
    ang = np.linspace(0, 2 * np.pi, 7)[:-1]
    centres = rng.uniform(-20, 20, (k, 2))
    radii = rng.uniform(0.5, 2.0, k)
    return [np.column_stack((c[0] + r * np.cos(ang), c[1] + r * np.sin(ang)))
            for c, r in zip(centres, radii, strict=True)]


def main() -> None:
    rng = np.random.default_rng(0)
    rows = []
    hexes = _hexagons(rng, 1000)
    pool = c2d.pack_shapes(hexes)
    m = 100_000
    pairs = rng.integers(0, len(hexes), (m, 2))
    ours = _median_ns(lambda: c2d.polygons_overlap_many(pool, pairs), m)
    peers = {}
    try:
        import shapely

        geoms = np.array([shapely.Polygon(h) for h in hexes])
        ga, gb = geoms[pairs[:, 0]], geoms[pairs[:, 1]]
        shapely.prepare(ga)
        peers["shapely"] = _median_ns(lambda: shapely.intersects(ga, gb), m)
    except ImportError:
        pass
    # pymunk has no pairwise yes/no test: Shape.shapes_collide asserts on separated shapes
    # (pymunk 7.3), so the SAT row compares with shapely only.
    rows.append(("SAT pairs (random hexagons, mostly apart)", ours, peers))

    # The separating axis test itself: hexagons crowded so that every pair's boxes overlap.
    near = _hexagons(rng, 1000)
    near = [h - h.mean(axis=0) + rng.uniform(-0.5, 0.5, 2) for h in near]
    pool_near = c2d.pack_shapes(near)
    ours = _median_ns(lambda: c2d.polygons_overlap_many(pool_near, pairs), m)
    peers = {}
    try:
        import shapely

        geoms = np.array([shapely.Polygon(h) for h in near])
        ga, gb = geoms[pairs[:, 0]], geoms[pairs[:, 1]]
        shapely.prepare(ga)
        peers["shapely"] = _median_ns(lambda: shapely.intersects(ga, gb), m)
    except ImportError:
        pass
    rows.append(("SAT pairs (hexagons, boxes all overlap)", ours, peers))

    hexagon = hexes[0]
    n = 100_000
    starts = rng.uniform(-25, 25, (n, 2))
    ends = starts + rng.uniform(-10, 10, (n, 2))
    one = c2d.pack_shapes([hexagon])
    ours = _median_ns(lambda: c2d.segment_polygon_many(starts, ends, one), n)
    peers = {}
    try:
        import shapely

        lines = shapely.linestrings(np.stack((starts, ends), axis=1))
        poly = shapely.Polygon(hexagon)
        shapely.prepare(poly)
        peers["shapely"] = _median_ns(lambda: shapely.intersects(lines, poly), n)
    except ImportError:
        pass
    try:
        import pymunk

        shape = pymunk.Poly(pymunk.Body(body_type=pymunk.Body.STATIC),
                            [tuple(p) for p in hexagon])
        shape.cache_bb()
        a_list = [tuple(p) for p in starts[:20_000]]
        b_list = [tuple(p) for p in ends[:20_000]]
        peers["pymunk"] = _median_ns(
            lambda: [shape.segment_query(a, b, 0) for a, b in zip(a_list, b_list, strict=True)],
            len(a_list))
    except ImportError:
        pass
    rows.append(("segment-polygon (first hit)", ours, peers))

    ang = np.linspace(0, 2 * np.pi, 13)[:-1]
    rad = np.where(np.arange(12) % 2 == 0, 10.0, 4.0)  # a concave star
    star = np.column_stack((rad * np.cos(ang), rad * np.sin(ang)))
    npts = 1_000_000
    pts = rng.uniform(-11, 11, (npts, 2))
    ours = _median_ns(lambda: c2d.points_in_polygon(pts, star), npts)
    peers = {}
    try:
        import shapely

        poly = shapely.Polygon(star)
        shapely.prepare(poly)
        peers["shapely"] = _median_ns(lambda: shapely.contains_xy(poly, pts[:, 0], pts[:, 1]),
                                      npts)
    except ImportError:
        pass
    try:
        import pymunk

        shape = pymunk.Poly(pymunk.Body(body_type=pymunk.Body.STATIC),
                            [tuple(p) for p in c2d.convex_hull(star)])
        shape.cache_bb()
        plist = [tuple(p) for p in pts[:20_000]]
        peers["pymunk"] = _median_ns(lambda: [shape.point_query(p) for p in plist], len(plist))
    except ImportError:
        pass
    rows.append(("points in polygon (concave 12-gon)", ours, peers))

    print("| kernel | collide2d ns/elem | shapely ns/elem | pymunk ns/elem | "
          "c2d/shapely | c2d/pymunk |")
    print("|---|---|---|---|---|---|")
    for name, ours, peers in rows:
        sh = peers.get("shapely")
        pm = peers.get("pymunk")
        print(f"| {name} | {ours:.0f} | {_fmt(sh)} | {_fmt(pm)} | {_ratio(ours, sh)} | "
              f"{_ratio(ours, pm)} |")


def _fmt(v) -> str:
    return f"{v:.0f}" if v is not None else "-"


def _ratio(ours, v) -> str:
    return f"{ours / v:.3f}" if v else "-"


if __name__ == "__main__":
    main()
