"""Hypothesis strategies for geometry tests.

Shapes are plain data so that these strategies never import collide2d: a polygon is an
(n, 2) float64 array, counter-clockwise, and a circle is a :class:`Disc`. Tests convert a
``Disc`` to ``collide2d.geometry.Circle`` with ``to_shape``.

Every strategy keeps away from the near-degenerate cases where floating point makes the
oracle itself ambiguous: edges are at least ``MIN_EDGE`` long and no vertex is nearly
collinear with its neighbours, so polygons have well-separated features.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import shapely
from hypothesis import assume
from hypothesis import strategies as st

MIN_EDGE = 1e-2
MIN_SIN_TURN = 1e-3  # |sin| of the turn at every vertex


class Disc(NamedTuple):
    center: tuple[float, float]
    radius: float


def signed_area(poly) -> float:
    p = np.asarray(poly, dtype=float)
    x, y = p[:, 0], p[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def well_formed(poly, min_edge=MIN_EDGE, min_sin=MIN_SIN_TURN) -> bool:
    """Edges not too short, no vertex nearly collinear with its two neighbours."""
    p = np.asarray(poly, dtype=float)
    e = np.roll(p, -1, axis=0) - p
    lengths = np.hypot(e[:, 0], e[:, 1])
    if lengths.min() < min_edge:
        return False
    e_next = np.roll(e, -1, axis=0)
    cross = e[:, 0] * e_next[:, 1] - e[:, 1] * e_next[:, 0]
    sin = np.abs(cross) / (lengths * np.roll(lengths, -1))
    return bool(sin.min() >= min_sin)


def strictly_convex(poly) -> bool:
    """Every turn strictly left (checked here: GEOS hulls of tiny coordinates can be off)."""
    p = np.asarray(poly, dtype=float)
    e = np.roll(p, -1, axis=0) - p
    e_next = np.roll(e, -1, axis=0)
    return bool(np.all(e[:, 0] * e_next[:, 1] - e[:, 1] * e_next[:, 0] > 0))


def _no_tiny(x: float) -> float:
    # magnitudes like 1e-200 only probe underflow of squared distances, far below any
    # physical scale; snap them to 0 so that the oracles' own rounding stays meaningful
    return 0.0 if abs(x) < 1e-9 else x


def finite(lo=-5.0, hi=5.0):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False).map(_no_tiny)


def points(lo=-5.0, hi=5.0):
    return st.tuples(finite(lo, hi), finite(lo, hi))


@st.composite
def convex_polygons(draw, box=4.0, min_area=0.3, max_vertices=8):
    """CCW convex polygon: the hull of 3..max_vertices random points in [-box, box]^2."""
    n = draw(st.integers(3, max_vertices))
    pts = draw(st.lists(points(-box, box), min_size=n, max_size=n))
    hull = shapely.MultiPoint(pts).convex_hull
    assume(hull.geom_type == "Polygon" and hull.area >= min_area)
    coords = np.asarray(shapely.orient_polygons(hull).exterior.coords, dtype=float)[:-1]
    if signed_area(coords) < 0:
        coords = coords[::-1]
    assume(well_formed(coords) and strictly_convex(coords))
    return np.ascontiguousarray(coords)


@st.composite
def discs(draw, box=4.0, min_radius=0.2, max_radius=2.5):
    c = draw(points(-box, box))
    r = draw(finite(min_radius, max_radius))
    return Disc((float(c[0]), float(c[1])), float(r))


def convex_shapes(box=4.0):
    return st.one_of(convex_polygons(box=box), discs(box=box))


@st.composite
def star_polygons(draw, min_vertices=4, max_vertices=12, box=2.0):
    """Simple CCW polygon, star-shaped about a random centre: sorted angles, random radii.

    Angles are ``2 pi (i + jitter_i) / n`` with jitter in [0, 0.7], so consecutive angular
    gaps stay below pi and the polygon is simple. Usually concave.
    """
    n = draw(st.integers(min_vertices, max_vertices))
    jitter = draw(st.lists(finite(0.0, 0.7), min_size=n, max_size=n))
    radii = draw(st.lists(finite(0.3, 3.0), min_size=n, max_size=n))
    cx, cy = draw(points(-box, box))
    ang = 2.0 * math.pi * (np.arange(n) + np.asarray(jitter)) / n
    r = np.asarray(radii)
    poly = np.column_stack([cx + r * np.cos(ang), cy + r * np.sin(ang)])
    assume(well_formed(poly))
    assume(shapely.Polygon(poly).is_valid)
    return poly


def simple_polygons():
    return st.one_of(convex_polygons(), star_polygons())


@st.composite
def self_intersecting_polygons(draw, box=3.0):
    """Random vertex loops (usually self-intersecting) with clearly non-zero signed area."""
    n = draw(st.integers(4, 8))
    pts = np.asarray(draw(st.lists(points(-box, box), min_size=n, max_size=n)), dtype=float)
    assume(well_formed(pts, min_edge=0.05, min_sin=1e-2))
    assume(abs(signed_area(pts)) > 1e-2)
    # no vertex on (or near) another edge: rules out overlapping collinear edges, where
    # even-odd depends on counting doubled edges
    for i in range(n):
        for j in range(n):
            if i in (j, (j + 1) % n):
                continue
            edge = shapely.LineString([pts[j], pts[(j + 1) % n]])
            assume(edge.distance(shapely.Point(pts[i])) > 1e-6)
    return pts


@st.composite
def segments(draw, box=6.0, min_length=1e-3):
    a = draw(points(-box, box))
    b = draw(points(-box, box))
    assume(math.hypot(b[0] - a[0], b[1] - a[1]) >= min_length)
    return np.asarray(a, dtype=float), np.asarray(b, dtype=float)


def velocities(vmax=10.0):
    return st.tuples(finite(-vmax, vmax), finite(-vmax, vmax))
