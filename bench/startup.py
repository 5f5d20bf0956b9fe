"""Start-up cost: ``import collide2d`` and the first step of a 100-body scene, with the Numba
cache empty (cold: every kernel compiles) and warm (kernels load from the cache).

Each measurement runs in a fresh Python process with ``NUMBA_CACHE_DIR`` pointing at a
temporary folder, so "cold" really starts empty and "warm" reuses only what the cold run
wrote. Run directly: ``python bench/startup.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

_PROBE = r"""
import json, time
t0 = time.perf_counter()
import collide2d as c2d
t1 = time.perf_counter()
world = c2d.World(gravity=(0, -10))
ground = world.add_body(kind="static")
ground.add_box(40, 1, offset=(0, -0.5))
for k in range(100):
    body = world.add_body(position=(-9.5 + (k % 20), 1 + 1.2 * (k // 20)))
    body.add_box(0.9, 0.9)
t2 = time.perf_counter()
world.step(1 / 60)
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "first_step_s": t3 - t2, "total_s": t3 - t0}))
"""


def _probe(cache_dir: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure() -> dict:
    """{'cold': {...}, 'warm': {...}} with import_s, first_step_s, total_s (seconds)."""
    with tempfile.TemporaryDirectory() as cache:
        cold = _probe(cache)
        warm = _probe(cache)
    return {"cold": cold, "warm": warm}


def table(result: dict) -> str:
    rows = ["| cache | import (s) | first step, 100 bodies (s) | total (s) |",
            "|---|---|---|---|"]
    for name in ("cold", "warm"):
        r = result[name]
        rows.append(f"| {name} | {r['import_s']:.2f} | {r['first_step_s']:.2f} | "
                    f"{r['total_s']:.2f} |")
    return "\n".join(rows)


if __name__ == "__main__":
    res = measure()
    print(table(res))
    print(f"warm import + first step under 1 s: {'yes' if res['warm']['total_s'] < 1 else 'NO'}")
