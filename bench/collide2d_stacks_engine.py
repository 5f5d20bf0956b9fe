"""collide2d with adaptive substeps, ``World(max_substeps=8)``: the stacking scenes again,
to show what holding tall stacks costs. Its c2d/peer ratio is the default collide2d's time
over this one's (below 1: the adaptive substeps cost that much more)."""

from __future__ import annotations

import collide2d_engine as base
from collide2d_engine import UNAVAILABLE, version  # noqa: F401 (the adapter interface)
from scenes import PyramidScene, RainScene

NAME = "collide2d, max_substeps=8"
MAX_SUBSTEPS = 8


def run_pyramid(scene: PyramidScene, steps: int, sleeping: bool = False) -> dict:
    return base.run_pyramid(scene, steps, sleeping, max_substeps=MAX_SUBSTEPS)


def run_rain(scene: RainScene, steps: int, sleeping: bool = False) -> dict:
    return base.run_rain(scene, steps, sleeping, max_substeps=MAX_SUBSTEPS)
