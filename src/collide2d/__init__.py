"""collide2d: 2D collision detection and rigid-body physics for Python games.

Geometry (one-call and batch forms) lives in :mod:`collide2d.geometry` and is re-exported
here. Units are SI (metres, kilograms, seconds, radians), y points up, polygons are
counter-clockwise (either winding is accepted and normalised). Normals between two shapes
point from the first to the second; a segment's hit carries the outward surface normal
(``docs/geometry-rules.md``, "Normals").
"""

import gc as _gc
import os as _os

# Importing Numba and the kernels' dispatchers makes some sixty thousand objects that live
# as long as the process (types, typing templates, dispatchers), and the collector walks
# them again and again: during the import, and in its next young and full passes, which
# fall inside a program's first step (a tenth of a warm start). So the collector is paused
# for the import, and what exists at its end (about ten unreachable objects) is frozen
# (``gc.freeze``): moved out of every later pass. Frozen objects are still freed when their
# last reference goes; only cycles that become garbage among them are kept.
# ``COLLIDE2D_GC_FREEZE=0`` keeps the collector's ordinary behaviour.
_gc_was_enabled = _gc.isenabled()
_gc.disable()
try:
    from .batch import ShapeGeometry
    from .body import Body
    from .character import MoveContact, MoveResult, MoveResults
    from .geometry import (
        BoundaryHit,
        BoundaryHits,
        Circle,
        Clip,
        Impact,
        Manifold,
        MassInfo,
        Penetration,
        SegmentHit,
        ShapePool,
        clip_segment,
        clip_segment_many,
        contact_points,
        convex_hull,
        decompose,
        is_convex,
        pack_shapes,
        penetration,
        penetration_many,
        point_in_polygon,
        points_in_polygon,
        polygon_mass,
        polygons_overlap,
        polygons_overlap_many,
        segment_intersection,
        segment_intersection_many,
        segment_polygon,
        segment_polygon_many,
        sweep,
        sweep_many,
    )
    from .joint import JOINT_KINDS, Joint, JointGeometry
    from .particles import ParticleHitArrays, Particles
    from .presolve import PreSolve
    from .queries import (
        PointHitArrays,
        QueryFilter,
        RayHit,
        RayHitArrays,
        ShapeCastHit,
        ShapeOverlap,
    )
    from .shapes import Shape
    from .tilemap import TileMap
    from .world import ContactArrays, ContactEvent, World
finally:
    if _gc_was_enabled:
        if _os.environ.get("COLLIDE2D_GC_FREEZE", "1").strip().lower() not in (
                "0", "false", "no", "off"):
            _gc.freeze()
        _gc.enable()
    del _gc_was_enabled

#: Names imported on first use: ``WorldBatch`` brings Numba's typed lists, which a program
#: of single worlds never needs.
_LAZY = {"WorldBatch": "batch_worlds", "BodyStates": "batch_worlds",
         "ContactCounts": "batch_worlds"}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'collide2d' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    "World", "Body", "Shape", "ContactEvent", "ContactArrays",
    "BoundaryHit", "BoundaryHits", "Circle", "Clip", "Impact", "Manifold", "MassInfo",
    "Penetration", "SegmentHit", "ShapePool", "clip_segment", "clip_segment_many", "contact_points",
    "convex_hull", "decompose", "is_convex", "pack_shapes", "penetration", "penetration_many",
    "point_in_polygon", "points_in_polygon", "polygon_mass", "polygons_overlap",
    "polygons_overlap_many", "segment_intersection", "segment_intersection_many",
    "segment_polygon", "segment_polygon_many", "sweep", "sweep_many",
]
__all__ += ["Joint", "JOINT_KINDS", "JointGeometry", "PreSolve"]
__all__ += ["WorldBatch", "BodyStates", "ContactCounts"]
__all__ += ["TileMap", "MoveResult", "MoveResults", "MoveContact", "ShapeGeometry"]
# World query results. collide2d.RayHit is what world.raycast returns (shape, body, point,
# normal, fraction); geometry's segment_polygon returns a BoundaryHit (fraction, point,
# normal, edge).
__all__ += ["QueryFilter", "RayHit", "RayHitArrays", "PointHitArrays", "ShapeOverlap",
            "ShapeCastHit", "Particles", "ParticleHitArrays"]
