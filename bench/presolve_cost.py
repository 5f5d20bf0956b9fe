"""Step cost with and without a pre-solve callback: a box on the ground (one contact) and a
pyramid of boxes (20 rows, 210 boxes, some 400 contact manifolds), each stepped with no
callback, with a trivial one (``lambda pre: None``) and with one that writes every row's
friction. The three are interleaved round by round in one process, so a loaded machine
slows them alike; the hash is of the no-callback world's final state (two builds printing
the same hash stepped it to the same bits).

    PYTHONPATH=src python bench/presolve_cost.py [rounds]
"""

from __future__ import annotations

import hashlib
import os
import sys
import time

import numpy as np

# Timings are of the compiled kernels: compile here on a cold cache, not in the background.
os.environ.setdefault("COLLIDE2D_BACKGROUND_COMPILE", "0")

import collide2d as c2d  # noqa: E402

DT = 1.0 / 60.0
CALLBACKS = {
    "none": None,
    "trivial": lambda pre: None,
    "writes friction": lambda pre: pre.friction.fill(0.5),
}

if not hasattr(c2d.World, "on_pre_solve"):  # a build before pre-solve: the baseline only
    CALLBACKS = {"none": None}


def box_on_ground():
    w = c2d.World(gravity=(0.0, -10.0))
    w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5))
    w.add_body(position=(0.0, 0.5)).add_box(1.0, 1.0)
    return w


def pyramid(rows: int = 20):
    w = c2d.World(gravity=(0.0, -10.0), sleeping=False)
    w.add_body(kind="static").add_box(100.0, 1.0, offset=(0.0, -0.5))
    for i in range(rows):
        for j in range(rows - i):
            x = (j - (rows - i - 1) / 2.0) * 1.05
            w.add_body(position=(x, 0.5 + 1.0 * i)).add_box(1.0, 1.0)
    return w


def main(rounds: int = 7, steps: int = 200) -> None:
    for name, make in (("box on ground", box_on_ground), ("pyramid 20", pyramid)):
        worlds = {}
        for key, fn in CALLBACKS.items():
            w = make()
            if fn is not None:
                w.on_pre_solve(fn)
            for _ in range(30):   # settle, and compile or load
                w.step(DT)
            worlds[key] = w
        best = {key: [] for key in CALLBACKS}
        for _ in range(rounds):
            for key, w in worlds.items():
                t0 = time.perf_counter()
                for _ in range(steps):
                    w.step(DT)
                best[key].append((time.perf_counter() - t0) / steps)
        base = np.median(best["none"])
        digest = hashlib.sha256(worlds["none"].snapshot()).hexdigest()[:16]
        cells = ", ".join(f"{key} {np.median(v) * 1e6:.1f} us ({np.median(v) / base:.2f}x)"
                          for key, v in best.items())
        print(f"{name}: per step (median of {rounds} x {steps}) {cells}; hash {digest}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
