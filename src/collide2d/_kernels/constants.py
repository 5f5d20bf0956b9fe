"""Conventions every kernel and the surface share: body kinds, flag bits, pair responses.

One definition of each, imported by the kernels (Numba reads module globals as compile-time
constants) and by the stores. Values are part of the snapshot format: never renumber.
"""

# Body kinds.
STATIC = 0
KINEMATIC = 1
DYNAMIC = 2

# Body flags.
B_ALIVE = 1
B_BULLET = 2
B_FIXED_ROTATION = 4
B_ARCADE = 8
B_AWAKE = 16
B_CUSTOM_MASS = 32

# Shape flags.
S_ALIVE = 1
S_SENSOR = 2

# What a pair of shapes does when their boxes meet.
IGNORE = 0
SOLID = 1
SENSOR = 2

# Contact row flags.
C_TOUCHING = 1
# A one-way shape let this pair through when its row began: no response while it lasts.
C_PASSING = 2

# Body integrators.
SEMI_IMPLICIT = 0
EXPLICIT = 1

# The most substeps a world takes (setters and snapshots check it).
MAX_SUBSTEPS = 1024

# Joint kinds (``collide2d.JOINT_KINDS`` names them in this order).
J_REVOLUTE = 0
J_PRISMATIC = 1
J_WHEEL = 2
J_DISTANCE = 3
J_WELD = 4
J_MOTOR = 5
J_MOUSE = 6
J_GEAR = 7
J_ANGLE = 8

# Joint flags.
J_ALIVE = 1
J_ENABLED = 2
J_COLLIDE = 4      # the two bodies' shapes collide
J_LIMIT = 8        # lower / upper limits (distance: min / max length)
J_MOTOR_ON = 16
J_SPRING = 32      # a spring (distance: free between the limits, no rigid rod)
J_RATCHET = 64
J_BROKEN = 128     # broke in the last step (cleared once reported)

# Constraint colours before the overflow colour (colouring.py): one bit each of a body's
# 64-bit mask of the colours its constraints took.
COLOURS = 64

# Worlds of at most this many live shapes take the small-world paths: pairs by testing
# every two boxes (broadphase.small_pairs: below it, building the grid costs more than the
# tests it saves; so does a world with at most this many on bodies that move), continuous
# collision only when a fast body has something near
# (ccd.sweep_may_hit), and the lone world's one-list entry (World._CompiledStep).
SMALL_WORLD = 32

# A batch ray cast's tree per world (worlds.raycast_worlds, WorldTrees.built): to be
# rebuilt; built over shapes that may move (checked against them every cast); built over
# static shapes only (kept unchecked until the surface marks it TREE_STALE).
TREE_STALE, TREE_CHECKED, TREE_STATIC = 0, 1, 2
