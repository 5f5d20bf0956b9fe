"""Where a warm start goes: CPU seconds of each part of ``import collide2d`` plus a 100-body
scene's first step, the median of fresh processes on the current kernel cache (run
``python -m collide2d warmup`` first, or set ``NUMBA_CACHE_DIR`` to a warm one).

Parts: importing NumPy, importing Numba, the rest of ``import collide2d``, building the
scene (its first kernel call loads that kernel from the cache, and Numba's runtime is set
up then), the first step; and inside those, each kernel's cache load. CPU time of the
process (``time.process_time``), so a busy machine changes the figures little.

Run directly: ``python bench/startup_parts.py [runs]``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

_CHILD = r"""
import gc, json, time
P = time.process_time
m = {}
# collide2d's import pauses the collector; NumPy and Numba are imported inside it.
on = gc.isenabled()
gc.disable()
t = P(); import numpy; m["import numpy"] = P() - t
t = P(); import numba; m["import numba"] = P() - t
if on:
    gc.enable()
t = P(); import collide2d as c2d; m["import collide2d, the rest"] = P() - t
from collide2d import _jit
loads = {}
cls = getattr(_jit, "_KernelCache", None)
if cls is not None:
    real = cls.load_overload

    def load_overload(self, sig, ctx):
        t = P()
        try:
            return real(self, sig, ctx)
        finally:
            name = self._name.split(" ")[1] if " " in self._name else self._name
            loads[name] = loads.get(name, 0.0) + P() - t

    cls.load_overload = load_overload
t = P()
world = c2d.World(gravity=(0, -10))
world.add_body(kind="static").add_box(40, 1, offset=(0, -0.5))
for k in range(100):
    world.add_body(position=(-9.5 + (k % 20), 1 + 1.2 * (k // 20))).add_box(0.9, 0.9)
m["build the scene"] = P() - t
t = P(); world.step(1 / 60); m["first step"] = P() - t
for name, s in loads.items():
    m[f"  of which: cache load of {name}"] = s
print(json.dumps(m))
"""


def measure(runs: int = 5) -> dict:
    env = dict(os.environ, COLLIDE2D_QUIET="1")
    rows = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                             text=True, check=True)
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
    parts = {k: statistics.median(r.get(k, 0.0) for r in rows) for k in rows[0]}
    parts["total"] = statistics.median(
        sum(v for k, v in r.items() if not k.startswith(" ")) for r in rows)
    return parts


def table(parts: dict) -> str:
    out = ["| part | CPU (s) |", "|---|---|"]
    out += [f"| {k.strip()} | {v:.3f} |" for k, v in parts.items()]
    return "\n".join(out)


if __name__ == "__main__":
    print(table(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 5)))
