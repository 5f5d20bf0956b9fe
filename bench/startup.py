"""Start-up cost: ``import collide2d``, the first step of a 100-body scene and the first query
(a raycast) after it, with the Numba cache empty (cold: every kernel they need compiles) and
warm (kernels load from the cache).

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
world.raycast((0, 20), (0, -20))
t4 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "build_s": t2 - t1, "first_step_s": t3 - t2,
                  "first_query_s": t4 - t3, "to_first_step_s": t3 - t0, "total_s": t4 - t0}))
"""


def _probe(cache_dir: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, COLLIDE2D_QUIET="1")
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure() -> dict:
    """{'cold': {...}, 'warm': {...}} with import_s, build_s (100 bodies added),
    first_step_s, first_query_s, to_first_step_s (import to the end of the first step) and
    total_s (seconds)."""
    with tempfile.TemporaryDirectory() as cache:
        cold = _probe(cache)
        warm = _probe(cache)
    return {"cold": cold, "warm": warm}


def table(result: dict) -> str:
    rows = ["| cache | import (s) | 100 bodies added (s) | first step (s) | first raycast "
            "after it (s) | import to end of first step (s) | total (s) |",
            "|---|---|---|---|---|---|---|"]
    for name in ("cold", "warm"):
        r = result[name]
        rows.append(f"| {name} | {r['import_s']:.2f} | {r['build_s']:.2f} | "
                    f"{r['first_step_s']:.2f} | {r['first_query_s']:.2f} | "
                    f"{r['to_first_step_s']:.2f} | {r['total_s']:.2f} |")
    return "\n".join(rows)


if __name__ == "__main__":
    res = measure()
    print(table(res))
    warm = res["warm"]["to_first_step_s"]
    print(f"\nwarm import + 100-body first step: {warm:.2f} s "
          f"(under 1 s: {'yes' if warm < 1 else 'NO'})")
