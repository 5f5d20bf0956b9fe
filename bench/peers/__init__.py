"""Peer engine adapters: pymunk 7, Box2D v3 (pyb2d3) and the Box2D 2.3 wheel."""
