"""Compiled kernels: plain functions over NumPy arrays and scalars.

Nothing in this package allocates Python objects in inner loops, raises, or calls back into
the surface; kernels report through return values, status flags and output arrays. The
surface (``collide2d.geometry``, ``collide2d.world`` ...) validates input and calls them.

Shape convention shared by every kernel: a convex shape is ``(verts, radius)`` where
``verts`` is an (n, 2) float64 array, counter-clockwise, and ``radius`` >= 0 rounds it.
n = 1 with radius > 0 is a circle, n = 2 a segment or capsule, n >= 3 a polygon.
"""
