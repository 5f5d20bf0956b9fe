"""The collide2d demo: ``python -m collide2d demo [SCENE]``.

Scenes: ``naval`` (a sailing battle: convex-hull ships, concave islands,
broadsides), ``dungeon`` (top-down RPG characters sliding along tile walls and
overlapping each other), ``tumble`` (many shapes falling and stacking), ``pyramid`` and
``rain`` (the benchmark scenes), and the joint scenes ``ragdolls``, ``car`` (wheel-joint
suspension and motors on hills), ``bridge`` (a rope bridge), ``wrecking`` (a chain and a
wrecking ball) and ``cradle`` (Newton's cradle). Mouse: left drags a body on a mouse joint
or attracts, right spawns. Keys: ``p``
pause, ``space`` single step, ``n`` / ``b`` next / previous scene, ``d`` debug overlays,
``h`` help.

:class:`Demo` is the demo without its window (events in, frames out), so it runs headless
and under tests; :func:`run_headless` writes a PNG or GIF, :func:`run_window` opens a
window. Needs pygame-ce (and Pillow for GIFs): ``pip install "collide2d[demo]"``.
"""

from .app import DEFAULT_SCENE, SCENES, Demo
from .run import display_problem, main, run_headless, run_window
from .scene import Scene

__all__ = ["Demo", "Scene", "SCENES", "DEFAULT_SCENE", "main", "run_headless", "run_window",
           "display_problem"]
