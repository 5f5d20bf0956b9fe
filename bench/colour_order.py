"""Contact rows solved colour by colour against pair order (the default), side by side with
Box2D v3, in one process with the runs alternating (ratios hold on a loaded machine).

    python bench/colour_order.py                 # pyramid 20 / 40 / 100, rain 500 / 1000 / 2000
    python bench/colour_order.py pyramid 40 300  # one scene: kind, size, steps

Colour order is the params record's ``colour_rows`` (solver.prepare_contacts); the World
has no public setting for it while it is off by default.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("COLLIDE2D_BACKGROUND_COMPILE", "0")

import collide2d_engine as c2d_engine  # noqa: E402
import numpy as np  # noqa: E402
import scenes  # noqa: E402
from peers import b2d3_engine  # noqa: E402

ROUNDS = 3
FIGURES = ("max_displacement", "max_drift", "sag")


def compare(kind: str, size: int, steps: int) -> str:
    scene = scenes.build(kind, size)
    run_c2d = getattr(c2d_engine, "run_" + kind)
    run_b2d = getattr(b2d3_engine, "run_" + kind)
    plain = c2d_engine._world

    def world_with(flag):
        def make(*args, **kwargs):
            world = plain(*args, **kwargs)
            world._params[0]["colour_rows"] = flag
            return world
        return make

    ms = {"pair": [], "colour": [], "box2d-v3": []}
    figures = {}
    run_c2d(scene, 3)  # compile
    try:
        for _ in range(ROUNDS):
            for name, flag in (("pair", 0), ("colour", 1)):
                c2d_engine._world = world_with(flag)
                out = run_c2d(scene, steps)
                ms[name].append(out["ms_per_step"])
                figures[name] = {k: round(v, 3) for k, v in out.items() if k in FIGURES}
            ms["box2d-v3"].append(run_b2d(scene, steps)["ms_per_step"])
    finally:
        c2d_engine._world = plain
    med = {k: float(np.median(v)) for k, v in ms.items()}
    b2d = med["box2d-v3"]
    return (f"| {kind} {size} | {med['pair'] / b2d:.2f} | {med['colour'] / b2d:.2f} | "
            f"{med['colour'] / med['pair']:.3f} | {figures['pair']} | {figures['colour']} |")


def main(argv: list[str]) -> None:
    if argv:
        runs = [(argv[0], int(argv[1]), int(argv[2]))]
    else:
        runs = [("pyramid", n, scenes.steps_for("pyramid", n)) for n in (20, 40, 100)]
        runs += [("rain", n, scenes.steps_for("rain", n)) for n in (500, 1000, 2000)]
    print("| scene | pair order / Box2D v3 | colour order / Box2D v3 | colour / pair "
          "| figures, pair | figures, colour |")
    print("|---|---|---|---|---|---|")
    for kind, size, steps in runs:
        print(compare(kind, size, steps), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
