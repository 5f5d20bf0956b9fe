"""The named forms in which state crosses from the stores to the kernels.

A view is a namedtuple of a store's arrays (Numba passes it by value; a kernel reads
``bodies.vel[b, 0]``). Settings and per-step scalars travel as one-row structured arrays
(records): a kernel reads ``p["gx"]`` after ``p = params[0]``, and writes its scalar
results (``step["substeps"]``) the same way. Nothing here is compiled; the field lists are
the single source of names for the stores that build the views and the kernels that read
them.
"""

from collections import namedtuple

import numpy as np

#: Body store fields, in the order the views list them (``_store.BodyStore`` owns the data).
BODY_FIELDS = ("vel", "angvel", "pos", "angle", "local_com", "mass", "inertia", "inv_mass",
               "inv_inertia", "force", "torque", "damping", "angular_damping",
               "gravity_scale", "kind", "flags", "sleep_time", "generation", "order", "rot")
BodyView = namedtuple("BodyView", BODY_FIELDS)

#: Shape store fields plus the vertex pool (local and world frame).
SHAPE_FIELDS = ("body", "owner", "vstart", "vcount", "radius", "density", "friction",
                "elasticity", "category", "mask", "group", "flags", "generation", "aabb",
                "one_way", "collision_type", "surface_speed", "fat", "order", "reach",
                "proxy", "escaped", "vlocal", "vworld")
ShapeView = namedtuple("ShapeView", SHAPE_FIELDS)

#: One row per pair of shape rows in contact (a < b, sorted by pair): the persistent
#: manifold (points, normal from a to b, separations, feature ids, accumulated impulses:
#: the warm start) and the results of the step that wrote the row.
CONTACT_FIELDS = ("a", "b", "resp", "count", "normal", "point", "sep", "id", "nimp", "timp",
                  "flags", "began", "ended", "impulse")
ContactView = namedtuple("ContactView", CONTACT_FIELDS)

#: One row per overlapping sensor pair (a < b, sorted), with the step's changes.
SENSOR_FIELDS = ("a", "b", "began", "ended")
SensorView = namedtuple("SensorView", SENSOR_FIELDS)

#: One row per joint slot (``_store.JointStore``): kind, flags, body slots, anchors in the
#: bodies' frames (from their origins), A's axis, reference angle, limits, motor, springs,
#: the kind's extra settings, break limits, the accumulated impulses (the warm start, per
#: substep) and the last step's reaction (fx, fy, torque); ``frame`` is what ``prepare``
#: works out for the substeps, ``on`` whether the step solves the joint, its ``level``,
#: ``seq`` the solved joints' slots in solve order (level by level), ``run`` where a run of
#: one kind in ``seq`` ends, ``wseq`` and ``wrun`` the same in slot order (the warm
#: start's), ``solved`` what the order was made for: 0 not solved, else 1, plus 2 and 4
#: for A and B movable (-1: no order yet, as a new slot has). (The store's ``keys``, the
#: body pairs its joints keep apart, reach the step as pair rules.)
JOINT_FIELDS = ("kind", "flags", "body_a", "body_b", "generation", "order", "local_a",
                "local_b", "axis", "ref_angle", "lower", "upper", "motor_speed", "max_motor",
                "hertz", "zeta", "hertz2", "zeta2", "target", "length", "ratio", "notch",
                "max_force", "max_torque", "correction", "point", "break_force",
                "break_torque", "imp", "reaction", "frame", "on", "level", "seq", "run", "wseq",
                "wrun", "solved")
JointView = namedtuple("JointView", JOINT_FIELDS)

#: Pair rules (``_store.PairRules``): responses for pairs of collision types, sorted keys
#: ``type_a << 32 | type_b`` (type_a <= type_b) with their responses, and pairs of body
#: slots that never collide, sorted keys ``slot_a << 32 | slot_b`` (slot_a < slot_b): the
#: user's (``World.ignore_collisions``) and those of joints with ``collide_connected`` off.
PAIR_RULE_FIELDS = ("type_keys", "type_resp", "body_keys")
PairRuleView = namedtuple("PairRuleView", PAIR_RULE_FIELDS)

#: What the pair test (``broadphase.rows_response``) reads: each shape row's box, body
#: slot, flags, filter bits and collision type (the ShapeView's arrays of those names),
#: the bodies' kinds and the world's pair rules (a ``PairRuleView``); and the shape
#: index (``poses.index_shapes``: the ShapeView's ``order`` and ``reach``, and how many
#: movers and statics it lists; -1 movers: none).
PAIR_SHAPE_FIELDS = ("aabb", "body", "flags", "category", "mask", "group", "collision_type",
                     "kind", "rules", "order", "reach", "n_movers", "n_statics")
PairShapes = namedtuple("PairShapes", PAIR_SHAPE_FIELDS)

#: The persistent world state a step reads and writes.
WorldView = namedtuple("WorldView", ("bodies", "shapes", "contacts", "sensors", "rules",
                                     "joints"))

#: What one step works in: the tables it writes (``contacts``, ``sensors``: they become the
#: world's after the step), candidate pairs, per-body solver state, per-manifold
#: constraint rows, and the step record. Capacity-sized, kept between steps.
STEP_FIELDS = (
    "contacts", "sensors",
    # the world's sleeping contact rows (asleep.py), kept here between steps: they grow
    # with the pairs' room
    "asleep",
    # candidate pairs (shape rows a < b, sorted) and their responses; per row of the
    # contact table written, what the solver uses for it this step (materials.py: friction,
    # restitution, surface speed, enabled 1 / 0), open to a pre-solve callback. One wide
    # array: every array in a view costs its unboxing on each compiled call.
    "pair_a", "pair_b", "pair_resp", "material",
    # the pairs whose proxies overlap (proxies.py), kept from step to step: the candidate
    # pairs above are those of them whose fattened boxes overlap
    "proxy_a", "proxy_b", "proxy_resp",
    # the narrowphase's room (a NarrowRoom)
    "narrow",
    # per body: centre of mass now and at the step's start, start angle, position and
    # rotation deltas, effective inverse masses (zero: immovable this step), restitution's
    # free velocities, and flags; room a stage may overwrite (an int and a float a body: the
    # islands' union-find, the joints' next levels), so that it allocates nothing
    "com", "com0", "angle0", "dp", "dq", "inv_m", "inv_i", "vfree", "wfree", "kin_moving",
    "touched", "body_int", "body_float",
    # per solved manifold: its contact row, bodies, Jacobian terms, masses, couplings,
    # separations, approach speeds, material, and the heavy-pair subset
    "rows", "ba", "bb", "jac", "nmass", "tmass", "coup", "adj", "relv", "fric", "rest",
    "static_pair", "max_imp", "kinv", "heavy",
    # soft-contact coefficients (bias rate, mass scale, impulse scale) between
    # movable bodies and against immovable ones
    "soft", "soft_static",
    # where each colour's rows end (colouring.py): colour c is rows[start[c]:start[c + 1]]
    "colour_start",
    # the step record (STEP_DTYPE)
    "state",
)
StepView = namedtuple("StepView", STEP_FIELDS)

#: The narrowphase's room (``narrowphase.collide_pairs``), kept between steps so that it
#: allocates nothing (and runs without reference counting): per candidate pair whether a
#: body of it can move; per old contact row whether a candidate matched it, and the rows
#: sent to sleep; per sleeping row its fate (kept, ended); per vertex of the pool the
#: polygons' face normals and the columns they are worked out in; one manifold's points,
#: separations and feature ids.
NARROW_FIELDS = ("active", "matched", "to_sleep", "keep", "end", "normal", "ex", "ey", "nx",
                 "ny", "points", "seps", "ids")
NarrowRoom = namedtuple("NarrowRoom", NARROW_FIELDS)

#: Settings of one step (the world's, copied in by the surface before each step).
PARAMS_DTYPE = np.dtype([
    ("dt", np.float64), ("gx", np.float64), ("gy", np.float64),
    ("damping", np.float64), ("contact_hertz", np.float64),
    ("contact_damping_ratio", np.float64), ("contact_push_speed", np.float64),
    ("joint_damping_ratio", np.float64),  # of the stiff joint rows' softness (joints.py)
    ("restitution_threshold", np.float64), ("margin", np.float64), ("slop", np.float64),
    ("sleep_linear", np.float64), ("sleep_angular", np.float64),
    ("time_to_sleep", np.float64), ("arcade_static_speed", np.float64),
    # the gravity the contact table's impulses were solved under
    ("solved_gx", np.float64), ("solved_gy", np.float64),
    ("substeps", np.int64), ("max_substeps", np.int64),  # max 0: fixed
    ("substeps_prev", np.int64),  # the contact table's impulses are per substep of these
    ("explicit", np.int64), ("sleeping", np.int64), ("dynamic_response", np.int64),
    # world vertices, exact and fattened boxes, body rotations and the shape index
    # (poses.py) are at the bodies' poses already
    ("shapes_fresh", np.int64),
    # the shape index's counts: shapes that can move, static shapes (poses.index_shapes)
    ("n_movers", np.int64), ("n_statics", np.int64),
    ("n_bodies", np.int64), ("n_shapes", np.int64),
    ("n_contacts", np.int64), ("n_sensors", np.int64),  # rows of the world's tables
    ("n_asleep", np.int64),  # and of its sleeping contact rows (asleep.py)
    # solver extras, each switchable (1 on; World's settings of the same names)
    ("mass_ratio_passes", np.int64), ("shed_weight", np.int64),
    ("restitution_energy_cap", np.int64), ("block_impacts", np.int64),
    # contact rows solved colour by colour (colouring.py; 0: in pair order, the default)
    ("colour_rows", np.int64),
    ("n_joints", np.int64),  # joint store rows in use
    # 1: a pre-solve callback is registered, run_step returns PRESOLVE after collide
    ("presolve", np.int64),
    # 1: the last step started with nothing able to move and nothing has changed since
    # (settled.py); 2: and it kept the tables, their flags cleared; the surface clears it
    # on a change of poses, shapes, filters, materials, sensor flags, pair rules or joints
    ("settled", np.int64),
    # 1: the step buffers' proxy pairs are those of the shapes' proxies, with their
    # responses (proxies.py); the surface clears it where it clears ``settled``
    ("pairs_kept", np.int64),
    # proxies moved since the broadphase last read them (the shapes' ``escaped`` flags; at
    # least as many: a shape removed after moving still counts)
    ("n_escaped", np.int64),
])

#: Scalars a step passes from stage to stage, and its results.
STEP_DTYPE = np.dtype([
    ("n_pairs", np.int64), ("n_contacts", np.int64), ("n_rows", np.int64),
    ("n_heavy", np.int64), ("n_sensors", np.int64), ("n_colours", np.int64),
    ("substeps", np.int64), ("sub", np.int64),
    ("need", np.int64),  # rows a table must hold for a stage to run (0: enough)
    ("h", np.float64), ("contact_hertz", np.float64),
    ("n_joints_on", np.int64), ("n_broken", np.int64),  # joints solved; broken
    # the buffers' proxy pairs: whether they are kept (0 once their arrays are replaced),
    # and how many
    ("pairs_kept", np.int64), ("n_kept", np.int64),
    # bodies continuous collision woke (their sleeping rows join islands: islands.py)
    ("woke_late", np.int64),
    # 1: the candidate pairs leave out those of two bodies that can not move (proxies.py)
    ("quiet", np.int64),
    ("n_asleep", np.int64),  # the world's sleeping contact rows after the step
])

# ---------------------------------------------------------------------------- particles
#: One row per particle (``_store.ParticleStore``), rows 0..n-1 in use: the saved state.
PARTICLE_FIELDS = ("positions", "velocities", "alive")
ParticleView = namedtuple("ParticleView", PARTICLE_FIELDS)

#: A particle step's scratch, one row per particle: the legs being cast (particle row,
#: start and end point, fraction of the step's time left and already done) and each leg's
#: first hit (the output of ``queries.cast_segments``).
LEG_FIELDS = ("particle", "start", "end", "left", "done",
              "hit", "body", "shape", "point", "normal", "fraction",
              "carry", "carry_from", "carry_to", "stopped")
LegView = namedtuple("LegView", LEG_FIELDS)

#: One row per hit of the last particle step (``_store.ParticleHitStore``): particle row,
#: body id, shape id, point, outward normal, fraction of the step's time.
PARTICLE_HIT_FIELDS = ("particle", "body", "shape", "point", "normal", "fraction")
ParticleHitView = namedtuple("ParticleHitView", PARTICLE_HIT_FIELDS)

#: Per body slot, how the body moved during the step the particles are moved in: its id
#: (``Body.id``: hits name bodies by id), moved or not, its turn (rad), and its centre of
#: mass at the step's start and end.
MOTION_FIELDS = ("ids", "moved", "dtheta", "com0", "com1")
MotionView = namedtuple("MotionView", MOTION_FIELDS)

#: A wide BVH over shape rows (``queries.ShapeTree``): nodes, their slots, the node count.
TREE_FIELDS = ("node_first", "node_count", "slot_box", "slot_ref", "n_nodes")
TreeView = namedtuple("TreeView", TREE_FIELDS)

# ---------------------------------------------------------------------------- queries
#: The shape rows a query reads (``_store.ShapeStore``'s arrays of those names): body slot,
#: owning Shape id, flags, filter bits, vertex range, radius, world-space vertices.
QUERY_SHAPE_FIELDS = ("body", "owner", "flags", "category", "mask", "vstart", "vcount",
                      "radius", "vworld")
QueryShapes = namedtuple("QueryShapes", QUERY_SHAPE_FIELDS)

#: A query's filter: category and mask bits, sensors seen or not, body slots left out
#: (one row of them per world in a batch query).
FILTER_FIELDS = ("category", "mask", "sensors", "exclude")
FilterView = namedtuple("FilterView", FILTER_FIELDS)

#: The first hit of each segment (``queries.cast_segments``' output): hit or not, body id
#: (through the caller's slot-to-id map), Shape id, point, normal, fraction; misses hold
#: False, -1 and NaN.
SEGMENT_HIT_FIELDS = ("hit", "body", "shape", "point", "normal", "fraction")
SegmentHits = namedtuple("SegmentHits", SEGMENT_HIT_FIELDS)

#: A query shape as convex parts in the world frame: part p is
#: ``verts[offsets[p]:offsets[p] + counts[p]]``, every part rounded by ``radius``.
PART_FIELDS = ("verts", "offsets", "counts", "radius")
PartsView = namedtuple("PartsView", PART_FIELDS)

#: One tree per world of a batch (``queries.ShapeTree``'s arrays with a world axis): the
#: boxes and rows it was built over (``k`` of them), its nodes and slots, its node count,
#: and its state (``constants.TREE_STALE``: rebuild, ``TREE_CHECKED``, ``TREE_STATIC``).
WORLD_TREE_FIELDS = ("boxes", "items", "k", "first", "count", "slot_box", "slot_ref",
                     "nodes", "built")
WorldTrees = namedtuple("WorldTrees", WORLD_TREE_FIELDS)

#: A particle system's settings (written by the ``Particles`` setters; the filter bits and
#: the step's dt, gravity and drag factor by the surface before each step).
PARTICLE_PARAMS_DTYPE = np.dtype([
    ("mode", np.int64),           # particles.STOP, BOUNCE or PASS
    ("max_bounces", np.int64),
    ("elasticity", np.float64), ("gravity_scale", np.float64), ("drag", np.float64),
    # the filter: category and mask bits, sensors seen (1) or not (0)
    ("category", np.int64), ("mask", np.int64), ("sensors", np.int64),
    # this step: dt, gravity times gravity_scale, exp(-drag dt)
    ("dt", np.float64), ("gx", np.float64), ("gy", np.float64), ("keep", np.float64),
])

#: A particle step's scalars and results. ``leg`` -1 starts a step; a step that finds the
#: hit table too small returns 1 with ``need`` rows, keeping ``leg`` and ``legs`` (the legs
#: pending) so that it resumes there once the table has grown.
PARTICLE_STEP_DTYPE = np.dtype([
    ("n", np.int64),              # particle rows in use
    ("n_hits", np.int64),         # hit rows written
    ("need", np.int64),           # hit rows the step needs (0: enough)
    ("leg", np.int64),            # bounce being cast (0: the first legs), -1: not started
    ("legs", np.int64),           # legs of that bounce
])

# ---------------------------------------------------------------------------- character movers
#: The movers' state (``_store.CharacterStore``): per body slot the character mark (the body's
#: generation when marked, -1 otherwise) and the kinematic floor it ended its last move on
#: (slot, generation, pose then) and the velocity (m/s) of that floor's surface (a conveyor's
#: surface speed along it), which carries the mover in its next move; per shape row its
#: mover response (valid while ``resp_gen`` is the row's generation, SLIDE otherwise).
CHARACTER_FIELDS = ("ch_gen", "floor", "floor_gen", "floor_pose", "resp", "resp_gen",
                    "floor_speed")
CharacterView = namedtuple("CharacterView", CHARACTER_FIELDS)

#: The tile maps as movers read them: every map's tile classes back to back in ``cls``, and
#: per map its first class (``start``), rows and columns (``dims``: ny, nx), origin (m), tile
#: size (m) and static body slot.
TILE_FIELDS = ("cls", "start", "dims", "origin", "tile_size", "body")
TileView = namedtuple("TileView", TILE_FIELDS)

#: One move's row per mover (rows in the order of the movers). Written by the move: the
#: velocity left, the floor / wall / ceiling bits, its contacts (``first`` row of the contact
#: table, ``count``) and the velocity of its floor under it (m/s). Read by the move: ``drop``,
#: set by the surface before the call (one-way geometry does not block this mover).
MOVER_FIELDS = ("vel", "flags", "first", "count", "floor_vel", "drop")
MoverView = namedtuple("MoverView", MOVER_FIELDS)

#: The move's contact table, rows grouped by mover in order: the mover's row, the normal
#: pushing it away, what was met (``kind`` SHAPE / TILE; ``obs`` the shape row or the tile
#: map's index, ``tile`` the cell (i, j) or (-1, -1)), the mover's shape row (``own``) and the
#: response; then the same for the surface: ``shape`` and ``own_shape`` as shape ids (owners),
#: ``tilemap`` the map's index (-1 for shapes; ``shape`` is -1 for tiles).
MOVE_CONTACT_FIELDS = ("mover", "normal", "kind", "obs", "tile", "own", "resp", "shape",
                       "tilemap", "own_shape")
MoveContactView = namedtuple("MoveContactView", MOVE_CONTACT_FIELDS)

#: Settings of one move (``world.character_*`` and the call's arguments).
MOVE_PARAMS_DTYPE = np.dtype([
    ("dt", np.float64), ("skin", np.float64), ("ux", np.float64), ("uy", np.float64),
    ("cos_floor", np.float64), ("margin", np.float64),
    ("snap", np.float64),        # snap_to_floor (m), 0: off
    ("max_slides", np.int64), ("has_up", np.int64), ("mode", np.int64),
    ("max_contacts", np.int64),  # contacts kept per mover
    ("n_bodies", np.int64), ("n_shapes", np.int64),  # store rows in use
])

#: A move's scalar results: contact rows written, contacts dropped for lack of room per
#: mover, and the rows the contact table must hold for the move to run (0: enough).
MOVE_STATE_DTYPE = np.dtype([
    ("n_contacts", np.int64), ("dropped", np.int64), ("need", np.int64),
])

#: The working scalars of one move: its obstacle grid (linked cells: origin, cell size, cells
#: across and up, entries and big-list rows used), the grid's query stamp, the current
#: mover's solid shapes and the cross contacts its last sweep met.
WORK_DTYPE = np.dtype([
    ("x0", np.float64), ("y0", np.float64), ("h", np.float64),
    ("nx", np.int64), ("ny", np.int64), ("entries", np.int64), ("n_big", np.int64),
    ("qid", np.int64), ("n_mr", np.int64), ("n_cross", np.int64),
])

#: The first hit of a sweep: time of impact, normal, what was hit (as in the contact table:
#: kind, obs, tile cell), its response and the mover's shape row that hit.
HIT_DTYPE = np.dtype([
    ("t", np.float64), ("nx", np.float64), ("ny", np.float64), ("kind", np.int64),
    ("obs", np.int64), ("ti", np.int64), ("tj", np.int64), ("resp", np.int64),
    ("own", np.int64),
])

#: A move's working arrays (built by ``slide.move_bodies``, sized by the call): shapes by
#: body, the obstacle rows and grid, the current mover's solid shapes relative to its origin,
#: vertex and clip scratch, the cross contacts of one sweep, and two records.
MOVE_WORK_FIELDS = (
    "start", "rows",                                  # shape rows by body (ccd.body_rows)
    "obs_rows", "head", "nxt", "item", "big", "stamp", "cand",   # obstacles and their grid
    "mrows", "moff", "mn", "mr", "mbox", "mrel",      # the mover's solid shapes
    "abuf", "obuf", "cbuf", "planes",                 # vertices, corners, clip planes
    "xt", "xi", "xn",                                 # cross contacts: t, ids, normal
    "scalars", "hit",                                 # records (WORK_DTYPE, HIT_DTYPE)
)
MoveWork = namedtuple("MoveWork", MOVE_WORK_FIELDS)
