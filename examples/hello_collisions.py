"""A headless tour of collide2d's collision functions: prints what each one finds."""

import numpy as np

import collide2d as c2d

ship = c2d.convex_hull([(0, 0), (4, -1), (8, 0), (7, 2), (1, 2)])
island = [(10, 0), (16, 0), (16, 6), (13, 2), (10, 6)]  # concave land mass
other = [(6, 1), (10, 1), (10, 3), (6, 3)]

# Normals (docs/geometry-rules.md#normals): between two shapes A and B they point from A to
# B (penetration, sweep, contact_points); a segment's hit carries the outward surface normal.
print("ship hull (CCW):", ship.round(3).tolist())
print("cannonball trace hits ship:", c2d.segment_polygon((-2, 1), (3, 1), ship))  # BoundaryHit
print("lookout on the island?", c2d.point_in_polygon((13, 1), island))
print("ships overlap?", c2d.polygons_overlap(ship, other))
pen = c2d.penetration(ship, other)
print("penetration, normal from ship to other:", pen)
print("move the ship out by:", 0.0 - pen.depth * pen.normal)
print("fast ship sweeps into island at:", c2d.sweep(other, (20, 0), c2d.decompose(island)[0]))
print("laser through ship:", c2d.clip_segment((-1, 1), (9, 1), ship))
print("contact points:", c2d.contact_points(ship, other))
print("ship mass:", c2d.polygon_mass(ship, density=2.0))

rng = np.random.default_rng(0)
starts = rng.uniform(-20, 20, (100_000, 2))
ends = starts + rng.uniform(-5, 5, (100_000, 2))
pool = c2d.pack_shapes([ship, other, c2d.Circle((0, 10), 3)])
hits = c2d.segment_polygon_many(starts, ends, pool)
print(f"{hits.hit.sum()} of 100,000 cannonball segments hit something, in one compiled call")
