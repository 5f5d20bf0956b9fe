"""What a first run compiles, and what each kernel costs to compile.

Runs the README's first steps in a fresh Python process with an empty Numba cache (a
temporary ``NUMBA_CACHE_DIR``) and times, with Numba's event API, every function Numba
compiles on the way: ``numba:compile`` (one event per function and signature, nested when a
kernel's typing compiles the kernels it calls) and ``numba:llvm_lock`` (the LLVM part:
optimisation and machine code). The entry points, in order, as a new user meets them:

  import            ``import collide2d``
  hello world       a world, a static ground, a box (building it) ...
  first step        ... and its first ``world.step``
  first raycast     ``world.raycast`` after that step
  raycast_many      a first batch of rays
  particle step     ``world.add_particles`` and a step with them
  move_and_slide    a tile map and a kinematic character's first ``move_and_slide``

Function times are CPU seconds of the compiling thread (``time.thread_time``), so other
processes on a shared machine stretch the wall-clock column of the entry points, not them.
A kernel's "self" time excludes the kernels compiled inside it (its callees typed for the
first time), so the self column adds up to the total; "incl." is its whole compile event.
LLVM time is counted in the innermost compile that holds the LLVM lock.

  python bench/compile_times.py              # markdown to stdout (one cold run)
  python bench/compile_times.py --runs 3     # medians of 3 cold runs
  python bench/compile_times.py --warm       # also: warm-cache import and first step
  python bench/compile_times.py --out bench/compile_times.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
_SRC = os.path.join(os.path.dirname(_HERE), "src")


# --------------------------------------------------------------------------- child process
class _Recorder:
    """A Numba event listener that attributes compile and LLVM time to functions."""

    def __init__(self) -> None:
        self.stack: list[dict] = []  # open compile events, innermost last
        self.llvm_depth = 0
        self.llvm_t0 = 0.0
        self.phase = "import"
        self.rows: dict[tuple[str, str], dict] = {}  # (phase, function) -> totals
        self.llvm_outside: dict[str, float] = {}  # LLVM time outside any compile (cache loads)

    @staticmethod
    def _name(event) -> str:
        disp = event.data["dispatcher"]
        fn = getattr(disp, "py_func", None)
        if fn is None:
            return repr(disp)
        return f"{fn.__module__}.{fn.__qualname__}"

    # numba.core.event.Listener's interface (mixed in by child(), so this module imports
    # without Numba)
    def on_start(self, event) -> None:
        self.notify(event)

    def on_end(self, event) -> None:
        self.notify(event)

    def notify(self, event) -> None:
        now = time.thread_time()
        if event.kind == "numba:compile":
            if event.is_start:
                parent = self.stack[-1]["name"] if self.stack else ""
                self.stack.append({"name": self._name(event), "t0": now, "child": 0.0,
                                   "llvm": 0.0, "parent": parent})
                return
            frame = self.stack.pop()
            incl = now - frame["t0"]
            row = self.rows.setdefault((self.phase, frame["name"]), {
                "self_s": 0.0, "incl_s": 0.0, "llvm_s": 0.0, "signatures": 0,
                "parent": frame["parent"]})
            row["self_s"] += incl - frame["child"]
            row["incl_s"] += incl
            row["llvm_s"] += frame["llvm"]
            row["signatures"] += 1
            if self.stack:
                self.stack[-1]["child"] += incl
        elif event.kind == "numba:llvm_lock":
            if event.is_start:
                if self.llvm_depth == 0:
                    self.llvm_t0 = now
                self.llvm_depth += 1
                return
            self.llvm_depth -= 1
            if self.llvm_depth == 0:
                dur = now - self.llvm_t0
                if self.stack:
                    self.stack[-1]["llvm"] += dur
                else:
                    self.llvm_outside[self.phase] = self.llvm_outside.get(self.phase, 0.0) + dur


def _scenario():
    """(phase, callable) pairs run in order; each callable gets the state dict."""
    import numpy as np

    def import_(st):
        import collide2d

        st["c2d"] = collide2d

    def hello(st):
        c2d = st["c2d"]
        world = c2d.World(gravity=(0, -10))
        ground = world.add_body(kind="static")
        ground.add_box(200, 1, offset=(0, -0.5))
        box = world.add_body(position=(0, 5), angle=0.3, velocity=(1, 0))
        box.add_box(1, 1, density=1, friction=0.6, elasticity=0)
        st["world"] = world

    def first_step(st):
        st["world"].step(1 / 60)

    def raycast(st):
        st["world"].raycast((0, 10), (0, -10))

    def raycast_many(st):
        starts = np.column_stack([np.linspace(-5, 5, 16), np.full(16, 10.0)])
        st["world"].raycast_many(starts, starts - (0, 20))

    def particles(st):
        pos = np.column_stack([np.linspace(-3, 3, 32), np.full(32, 3.0)])
        st["world"].add_particles(pos, (0.0, -20.0), on_hit="bounce", elasticity=0.5)
        st["world"].step(1 / 60)

    def slide(st):
        c2d = st["c2d"]
        world = c2d.World(gravity=(0, 0))
        grid = np.zeros((8, 12), dtype=np.int64)
        grid[0, :] = 1
        grid[:, 0] = 1
        world.add_tilemap(grid, tile_size=1.0)
        hero = world.add_body(kind="kinematic", position=(2.5, 1.5))
        hero.add_box(0.8, 0.8)
        world.move_and_slide(hero, (-5.0, -3.0), 1 / 60, up=(0, 1))

    return [
        ("import", import_), ("hello world: build", hello), ("hello world: first step", first_step),
        ("first raycast", raycast), ("first raycast_many", raycast_many),
        ("first particle step", particles), ("first move_and_slide", slide),
    ]


def child() -> None:
    import numba.core.event as ev

    rec = type("Recorder", (_Recorder, ev.Listener), {})()
    ev.register("numba:compile", rec)
    ev.register("numba:llvm_lock", rec)
    phases = []
    state: dict = {}
    for phase, fn in _scenario():
        rec.phase = phase
        t0, c0 = time.perf_counter(), time.thread_time()
        fn(state)
        phases.append({"phase": phase, "wall_s": time.perf_counter() - t0,
                       "cpu_s": time.thread_time() - c0})
    rows = [{"phase": p, "function": f, **r} for (p, f), r in rec.rows.items()]
    import numba

    print(json.dumps({"phases": phases, "rows": rows, "llvm_outside": rec.llvm_outside,
                      "numba": numba.__version__}))


# --------------------------------------------------------------------------- parent process
def run_child(cache_dir: str) -> dict:
    # Compiled in this process, where the events are: no uncompiled tier, no background
    # compile.
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, COLLIDE2D_QUIET="1",
               COLLIDE2D_BACKGROUND_COMPILE="0")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_SRC, env.get("PYTHONPATH", "")) if p)
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child"], env=env,
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        raise SystemExit(f"child process failed ({out.returncode})")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _short(name: str) -> str:
    return name.replace("collide2d._kernels.", "")


def summarise(runs: list[dict]) -> dict:
    """Medians over runs: per phase and per function (summed over phases)."""
    phases = [p["phase"] for p in runs[0]["phases"]]
    per_phase = {}
    for ph in phases:
        walls = [next(p["wall_s"] for p in r["phases"] if p["phase"] == ph) for r in runs]
        cpus = [next(p["cpu_s"] for p in r["phases"] if p["phase"] == ph) for r in runs]
        comp = [sum(x["self_s"] for x in r["rows"] if x["phase"] == ph) for r in runs]
        llvm = [sum(x["llvm_s"] for x in r["rows"] if x["phase"] == ph) for r in runs]
        funcs = {x["function"] for x in runs[0]["rows"] if x["phase"] == ph}
        sigs = sum(x["signatures"] for x in runs[0]["rows"] if x["phase"] == ph)
        per_phase[ph] = {"wall_s": statistics.median(walls), "cpu_s": statistics.median(cpus),
                         "compile_s": statistics.median(comp),
                         "llvm_s": statistics.median(llvm), "functions": len(funcs),
                         "signatures": sigs}
    per_fn: dict[str, dict] = {}
    for i, r in enumerate(runs):
        for x in r["rows"]:
            d = per_fn.setdefault(x["function"], {
                "self": [0.0] * len(runs), "incl": [0.0] * len(runs), "llvm": [0.0] * len(runs),
                "signatures": 0, "phase": x["phase"], "parent": x["parent"]})
            d["self"][i] += x["self_s"]
            d["incl"][i] += x["incl_s"]
            d["llvm"][i] += x["llvm_s"]
            if i == 0:
                d["signatures"] += x["signatures"]
    fns = [{"function": f, "self_s": statistics.median(d["self"]),
            "incl_s": statistics.median(d["incl"]), "llvm_s": statistics.median(d["llvm"]),
            "signatures": d["signatures"], "phase": d["phase"], "parent": d["parent"]}
           for f, d in per_fn.items()]
    fns.sort(key=lambda x: -x["self_s"])
    return {"phases": per_phase, "functions": fns, "runs": len(runs),
            "numba": runs[0]["numba"]}


def markdown(summary: dict, warm: list[dict] | None = None) -> str:
    n = summary["runs"]
    flags = (f" --runs {n}" if n > 1 else "") + (" --warm" if warm else "")
    fns = summary["functions"]
    total = sum(f["self_s"] for f in fns)
    total_llvm = sum(f["llvm_s"] for f in fns)
    ours = [f for f in fns if f["function"].startswith("collide2d.")]
    lines = [
        "# Compile times on first use",
        "",
        f"`python bench/compile_times.py{flags}`: each run a "
        "fresh process with an empty Numba cache"
        f"{f'; medians of {n} runs' if n > 1 else ''}. Python {platform.python_version()}, "
        f"Numba {summary['numba']}, {os.cpu_count()} cores (shared: timings are noisy).",
        "",
        f"**{len(fns)} functions compiled** ({len(ours)} collide2d kernels, "
        f"{len(fns) - len(ours)} Numba/NumPy helpers), "
        f"{sum(f['signatures'] for f in fns)} signatures, {total:.1f} CPU s of compiling, of "
        f"which LLVM {total_llvm:.1f} s.",
        "",
        "## Per entry point, in the order a new user meets them",
        "",
        "CPU: the process's CPU time in the entry point (what a quiet machine's wall clock "
        "would show); compiling and LLVM: CPU time in compile events.",
        "",
        "| entry point | wall (s) | CPU (s) | compiling (s) | LLVM (s) | functions | signatures |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for ph, d in summary["phases"].items():
        lines.append(f"| {ph} | {d['wall_s']:.2f} | {d['cpu_s']:.2f} | {d['compile_s']:.2f} | "
                     f"{d['llvm_s']:.2f} | {d['functions']} | {d['signatures']} |")
    lines += [
        "",
        "## Per function, by cost",
        "",
        "*self*: this function's own compile, without the functions first compiled inside it "
        "(the self column adds up to the total); *incl.*: its whole compile event; "
        "*LLVM*: time holding the LLVM lock (optimisation, machine code) in its own compile; "
        "*first needed by*: the entry point that compiled it; *inside*: the function whose "
        "compile first compiled it. CPU seconds.",
        "",
        "| # | function | self (s) | incl. (s) | LLVM (s) | signatures | first needed by "
        "| inside |",
        "|---:|---|---:|---:|---:|---:|---|---|",
    ]
    for i, f in enumerate(fns, 1):
        inside = f"`{_short(f['parent'])}`" if f["parent"] else ""
        lines.append(f"| {i} | `{_short(f['function'])}` | {f['self_s']:.2f} | "
                     f"{f['incl_s']:.2f} | {f['llvm_s']:.2f} | {f['signatures']} | "
                     f"{f['phase']} | {inside} |")
    if warm:
        lines += ["", "## Warm cache (every kernel loads from disk)", "",
                  "| entry point | wall (s) |", "|---|---:|"]
        for ph in warm[0]["phases"]:
            name = ph["phase"]
            vals = [next(p["wall_s"] for p in r["phases"] if p["phase"] == name) for r in warm]
            lines.append(f"| {name} | {statistics.median(vals):.3f} |")
        imp = [r["phases"][0]["wall_s"] + sum(p["wall_s"] for p in r["phases"][1:3])
               for r in warm]
        compiled = sum(len(r["rows"]) for r in warm)
        lines += ["", f"Warm import + hello world + first step: {statistics.median(imp):.2f} s; "
                  f"functions compiled with the warm cache: {compiled}."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="cold runs (medians reported)")
    parser.add_argument("--warm", action="store_true",
                        help="also time warm-cache import and first step (after a cold run)")
    parser.add_argument("--out", help="write the markdown here as well as to stdout")
    parser.add_argument("--json", help="write the raw measurements here")
    parser.add_argument("--from-json", help="no runs: the markdown of a --json file")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child()
        return 0
    cold, warm = [], []
    if args.from_json:
        with open(args.from_json) as f:
            saved = json.load(f)
        cold, warm = saved["cold"], saved["warm"]
    for k in range(0 if args.from_json else args.runs):
        with tempfile.TemporaryDirectory() as cache:
            t0 = time.perf_counter()
            cold.append(run_child(cache))
            print(f"cold run {k + 1}/{args.runs}: {time.perf_counter() - t0:.1f} s",
                  file=sys.stderr)
            if args.warm:
                warm += [run_child(cache) for _ in range(3 if k == 0 else 0)]
    text = markdown(summarise(cold), warm or None)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cold": cold, "warm": warm}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
