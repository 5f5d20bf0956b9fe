"""Start-up cost: ``import collide2d``, the first step of a scene and the first query (a
raycast) after it, with the Numba cache empty (cold) and warm (kernels load from the cache).

On a cold cache collide2d runs its kernels as plain Python while a background process
compiles them, and switches to the compiled kernels when that is done; the table says when
(seconds from the cold hello world's start: the step and queries switch first, everything
else when all is compiled) and what the first compiled step then costs. Rows, each a fresh
process, in this order on one cache folder:

- ``hello, cold``: the README's hello world (a ground and a box) on the empty cache;
- ``demo, cold``: ``python -m collide2d demo --headless --frames 1``, its whole command;
- ``100 bodies, cold``: a 100-body scene, stepped at 60 Hz until the switch;
- ``hello, warm`` and ``100 bodies, warm``: the same from the cache the compile wrote;
- with ``--foreground``, ``100 bodies, cold, in-process``: another empty cache with
  ``COLLIDE2D_BACKGROUND_COMPILE=0``, the kernels compiled inside the first step.

collide2d's modules are byte-compiled first, as an installed package's are: without that
(a checkout under ``PYTHONDONTWRITEBYTECODE=1``, or sources newer than their ``.pyc``)
every probe compiles them from source, a tenth of a second that no installed copy pays.
The warm rows are the median of five processes (by import to end of first step); each row
also gives that span in CPU seconds of the process, steadier than wall time on a busy
machine.

Run directly: ``python bench/startup.py [--foreground]``.
"""

from __future__ import annotations

import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

_PROBE = r"""
import json, sys, time
t0 = time.perf_counter()
c0 = time.process_time()
wall0 = time.time()
import collide2d as c2d
from collide2d import _tiers
t1 = time.perf_counter()
n = int(sys.argv[1])
world = c2d.World(gravity=(0, -10))
ground = world.add_body(kind="static")
ground.add_box(200 if n == 1 else 40, 1, offset=(0, -0.5))
for k in range(n):
    body = world.add_body(position=(-9.5 + (k % 20), 1 + 1.2 * (k // 20)) if n > 1 else (0, 5))
    body.add_box(0.9, 0.9) if n > 1 else body.add_box(1, 1)
t2 = time.perf_counter()
world.step(1 / 60)
t3 = time.perf_counter()
c3 = time.process_time()
world.raycast((0, 20), (0, -20))
t4 = time.perf_counter()
out = {"import_s": t1 - t0, "build_s": t2 - t1, "first_step_s": t3 - t2,
       "first_query_s": t4 - t3, "to_first_step_s": t3 - t0, "total_s": t4 - t0,
       "to_first_step_cpu_s": c3 - c0,
       "tier": _tiers.tier(), "wall0": wall0}
if sys.argv[2] == "wait":
    from collide2d import world as w_module
    while _tiers.tier() == "python" and time.perf_counter() - t0 < 1800:
        a = time.perf_counter()
        world.step(1 / 60)
        if "step_wall" not in out and w_module._step._tier == "compiled":
            out["step_wall"] = time.time()
        time.sleep(max(0.0, 1 / 60 - (time.perf_counter() - a)))
    out["switch_wall"] = time.time()
    out.setdefault("step_wall", out["switch_wall"])
    a = time.perf_counter()
    world.step(1 / 60)
    out["compiled_step_s"] = time.perf_counter() - a
print(json.dumps(out))
"""


def _env(cache_dir: str, **extra) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, COLLIDE2D_QUIET="1")
    env.pop("COLLIDE2D_BACKGROUND_COMPILE", None)
    env.update(extra)
    return env


def _probe(cache_dir: str, bodies: int, wait: bool = False, **extra) -> dict:
    out = subprocess.run([sys.executable, "-c", _PROBE, str(bodies), "wait" if wait else "-"],
                         env=_env(cache_dir, **extra), capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _median_probe(cache_dir: str, bodies: int, runs: int = 5) -> dict:
    """The run with the median import-to-first-step time of ``runs`` fresh processes."""
    rows = sorted((_probe(cache_dir, bodies) for _ in range(runs)),
                  key=lambda r: r["to_first_step_s"])
    row = rows[len(rows) // 2]
    row["to_first_step_cpu_s"] = statistics.median(r["to_first_step_cpu_s"] for r in rows)
    return row


def _byte_compile() -> None:
    """Write collide2d's ``.pyc`` files, as installing the package does."""
    spec = subprocess.run([sys.executable, "-c", "import importlib.util as u; "
                           "print(u.find_spec('collide2d').submodule_search_locations[0])"],
                          env=_env(tempfile.gettempdir()), capture_output=True, text=True,
                          check=True)
    compileall.compile_dir(spec.stdout.strip(), quiet=1)


def _demo(cache_dir: str) -> dict:
    with tempfile.TemporaryDirectory() as out_dir:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "collide2d", "demo", "--headless", "--frames",
                        "1", "--out", os.path.join(out_dir, "frame.png")],
                       env=_env(cache_dir), capture_output=True, text=True, check=True)
        return {"command_s": time.perf_counter() - t0}


def _wait_for_compile(cache_dir: str, timeout: float = 1800.0) -> None:
    """Until no background compile holds the lock in ``cache_dir``."""
    code = "from collide2d import _tiers; print(_tiers.lock_holder() or '')"
    end = time.time() + timeout
    while time.time() < end:
        out = subprocess.run([sys.executable, "-c", code], env=_env(cache_dir),
                             capture_output=True, text=True, check=True)
        if not out.stdout.strip():
            return
        time.sleep(2.0)


def measure(foreground: bool = False) -> dict:
    """Rows (see the module docstring) of seconds: import_s, build_s, first_step_s,
    first_query_s, to_first_step_s (import to the end of the first step) and
    to_first_step_cpu_s (the same span in the process's CPU time), total_s, the
    tier the first step ran in, and for the waiting row step_switch_s and switch_s (from the
    cold hello world's start to the step's switch and to the last) and compiled_step_s (the
    first step after it)."""
    rows = {}
    _byte_compile()
    with tempfile.TemporaryDirectory() as cache:
        rows["hello, cold"] = _probe(cache, 1)
        rows["demo, cold"] = _demo(cache)
        big = _probe(cache, 100, wait=True)
        big["switch_s"] = big["switch_wall"] - rows["hello, cold"]["wall0"]
        big["step_switch_s"] = big["step_wall"] - rows["hello, cold"]["wall0"]
        rows["100 bodies, cold"] = big
        _wait_for_compile(cache)
        rows["hello, warm"] = _median_probe(cache, 1)
        rows["100 bodies, warm"] = _median_probe(cache, 100)
    if foreground:
        with tempfile.TemporaryDirectory() as cache:
            rows["100 bodies, cold, in-process"] = _probe(
                cache, 100, COLLIDE2D_BACKGROUND_COMPILE="0")
    return rows


def table(rows: dict) -> str:
    out = ["| run | tier of the first step | import (s) | first step (s) | first raycast "
           "after it (s) | import to end of first step (s) | the same, CPU (s) | step compiled "
           "at (s) | all compiled at (s) | first compiled step (s) |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in rows.items():
        if "command_s" in r:
            out.append(f"| {name} | python | | | | whole command: {r['command_s']:.2f} | | | | |")
            continue
        switch = f"{r['step_switch_s']:.1f} | {r['switch_s']:.1f}" if "switch_s" in r else " | "
        compiled = f"{r['compiled_step_s']:.3f}" if "compiled_step_s" in r else ""
        out.append(f"| {name} | {r['tier']} | {r['import_s']:.2f} | {r['first_step_s']:.3f} | "
                   f"{r['first_query_s']:.3f} | {r['to_first_step_s']:.2f} | "
                   f"{r['to_first_step_cpu_s']:.2f} | {switch} | "
                   f"{compiled} |")
    return "\n".join(out)


if __name__ == "__main__":
    res = measure(foreground="--foreground" in sys.argv[1:])
    print(table(res))
    warm = res["100 bodies, warm"]["to_first_step_s"]
    print(f"\nwarm import + 100-body first step: {warm:.2f} s "
          f"(at most 0.5 s: {'yes' if warm <= 0.5 else 'NO'})")
