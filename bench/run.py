"""Run the bench/scenes.md benchmark on collide2d and its peers, side by side in one process.

    python bench/run.py                      # full sizes: table, results.md, results.png
    python bench/run.py --quick              # tiny sizes, correctness only (exit 1 on failure)
    python bench/run.py --scene bullets --engines pymunk box2d-v3

Absolute times on shared machines are noise; the ratios measured in the same run are not.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

# Steady-state speed is the compiled kernels': on a cold cache compile them here, first,
# rather than time the uncompiled tier that runs during a background compile.
os.environ.setdefault("COLLIDE2D_BACKGROUND_COMPILE", "0")

import scenes  # noqa: E402
from figures import bullets_figures

HERE = Path(__file__).resolve().parent
FRAME_BUDGET_MS = 1000.0 / 60.0

# Engine name -> adapter module. Each module has UNAVAILABLE (None or the reason), NAME,
# version() and any of run_pyramid / run_rain / run_bullets / run_crowd / run_slide /
# run_joint_grid / run_ragdolls.
ENGINES = {
    "collide2d": "collide2d_engine",
    "c2d-stacks": "collide2d_stacks_engine",
    "pymunk": "peers.pymunk_engine",
    "box2d-v3": "peers.b2d3_engine",
    "box2d-2.3": "peers.box2d23_engine",
}
SCENES = ("pyramid", "rain", "bullets", "crowd", "slide", "joint_grid", "ragdolls")
QUICK_STEPS = {"pyramid": 120, "rain": 120, "bullets": 0, "crowd": 60, "slide": 60,
               "joint_grid": 60, "ragdolls": 120}
# Figures that test the bench itself or collide2d; a peer's stacking quality is reported only.
GATING = {"rain", "bullets", "crowd"}


def load_engines(names):
    """(name, module or None, reason) for each engine; an import failure is a reason."""
    loaded = []
    for name in names:
        try:
            module = importlib.import_module(ENGINES[name])
            reason = module.UNAVAILABLE
        except Exception as exc:  # a broken adapter must not stop the other engines
            module, reason = None, f"{type(exc).__name__}: {exc}"
        loaded.append((name, None if reason else module, reason))
    return loaded


def summary(scene: str, r: dict) -> tuple[str, bool]:
    """(short figure text, passed) for one result."""
    if scene == "pyramid":
        text = (
            f"{'stands' if r['stands'] else 'FALLS'}; disp {r['max_displacement']:.3f} "
            f"drift {r['max_drift']:.3f} tilt {r['max_tilt']:.3f} max dy {r['max_abs_dy']:.3f} "
            f"top dy {r['top_dy']:+.3f}"
        )
        if r["nan"]:
            text = "NaN; " + text
        if r["engine"] == "collide2d":
            text += f"; within 0.1 m: {'yes' if r['within_0.1'] else 'NO'}"
            return text, r["stands"] and r["within_0.1"]
        return text, r["stands"]
    if scene == "rain":
        return f"outside {r['outside']}" + ("; NaN" if r["nan"] else ""), r["ok"]
    if scene == "bullets":
        text = f"hits {r['hits']} (ref {r['hits_ref']})"
        if r["hit_mismatch"] or r["body_mismatch"]:
            text += f"; {r['hit_mismatch']} hit / {r['body_mismatch']} body mismatches"
        return text + f"; point err {r['max_point_err']:.1e} m", r["ok"]
    if scene == "crowd":
        bad = [k for k in r["pairs_ref"] if r["pairs_sampled"][k] != r["pairs_ref"][k]]
        text = f"pairs {r['pairs_last']} at end; brute force on {len(r['pairs_ref'])} steps: "
        text += (
            "equal"
            if not bad
            else "DIFFERS at "
            + ", ".join(f"step {k}: {r['pairs_sampled'][k]} vs {r['pairs_ref'][k]}" for k in bad)
        )
        return text, r["ok"]
    if scene == "slide":
        text = f"deepest overlap {r['max_overlap']:.1e} m; outside {r['outside']}"
        return text, r["ok"]
    if scene == "joint_grid":
        text = (f"joint gap max {r['max_gap']:.1e} mean {r['mean_gap']:.1e} m; "
                f"lowest {r['lowest']:.1f} m")
        return ("NaN; " if r["nan"] else "") + text, r["ok"]
    if scene == "ragdolls":
        text = (f"joint gap max {r['max_gap']:.1e} mean {r['mean_gap']:.1e} m; "
                f"limits over {r['limit_over']:.3f} rad; outside {r['outside']}")
        return ("NaN; " if r["nan"] else "") + text, r["ok"]
    raise ValueError(scene)


def run_one(module, scene: str, data, steps: int, sleeping: bool, reference) -> dict:
    fn = getattr(module, f"run_{scene}", None)
    if fn is None:
        return {"skipped": f"no run_{scene} in the adapter"}
    if scene in ("pyramid", "rain", "ragdolls"):
        r = fn(data, steps, sleeping)
    elif scene == "bullets":
        r = fn(data)
        r |= bullets_figures(r.pop("ray_hits"), reference)
    else:
        r = fn(data, steps)
    return r


def run(scene_names, engine_names, quick: bool, sleeping: bool) -> list[dict]:
    engines = load_engines(engine_names)
    for name, module, reason in engines:
        if module is None:
            print(f"{name}: unavailable ({reason})", flush=True)
    rows = []
    for scene in scene_names:
        for size in (scenes.QUICK_SIZES if quick else scenes.SIZES)[scene]:
            steps = QUICK_STEPS[scene] if quick else scenes.steps_for(scene, size)
            data = scenes.build(scene, size)
            reference = scenes.bullets_reference(data) if scene == "bullets" else None
            for name, module, _ in engines:
                if module is None:
                    continue
                row = {"scene": scene, "size": size, "steps": steps, "engine": name}
                t0 = time.perf_counter()
                try:
                    row |= run_one(module, scene, data, steps, sleeping, reference)
                except Exception as exc:  # reported in the table, the run goes on
                    row["error"] = f"{type(exc).__name__}: {exc}"
                row["wall_s"] = time.perf_counter() - t0
                if "skipped" in row and name != "collide2d":
                    continue  # peers simply lack some scenes (slide)
                if "error" not in row and "skipped" not in row:
                    row["figure"], row["ok"] = summary(scene, row)
                    row["gating"] = scene in GATING or name == "collide2d"
                rows.append(row)
                print(f"  {scene} {size} {name}: {cell_time(row)}  {cell_figure(row)}", flush=True)
    return rows


def cell_time(row: dict) -> str:
    if "error" in row or "skipped" in row:
        return "-"
    if row["scene"] == "bullets":
        return f"{row['seconds']:.3f} s"
    return f"{row['ms_per_step']:.3f}"


def cell_figure(row: dict) -> str:
    if "error" in row:
        return f"ERROR {row['error']}"
    if "skipped" in row:
        return row["skipped"]
    return row["figure"] + ("" if row["ok"] else "  [FAIL]")


def _value(row: dict) -> float | None:
    if "error" in row or "skipped" in row:
        return None
    return row["seconds"] if row["scene"] == "bullets" else row["ms_per_step"]


def cell_ratio(row: dict, rows: list[dict]) -> str:
    """collide2d's time / this engine's time in the same scene and size (< 1: collide2d faster);
    for slide, which no peer has, the share of the 16.7 ms frame budget."""
    mine = _value(row)
    if mine is None:
        return "-"
    if row["scene"] == "slide":
        return f"{mine / FRAME_BUDGET_MS:.2f} of frame"
    if row["engine"] == "collide2d":
        return "-"
    c2d = [
        _value(r)
        for r in rows
        if r["engine"] == "collide2d" and (r["scene"], r["size"]) == (row["scene"], row["size"])
    ]
    if not c2d or c2d[0] is None:
        return "n/a"
    return f"{c2d[0] / mine:.2f}"


def table(rows: list[dict]) -> str:
    """Markdown table, readable as plain text too."""
    head = ["scene", "size", "engine", "ms/step", "correctness", "c2d/peer"]
    body = [
        [
            r["scene"],
            f"{r['size']:,}",
            r["engine"],
            cell_time(r),
            cell_figure(r),
            cell_ratio(r, rows),
        ]
        for r in rows
    ]
    widths = [max(len(x) for x in col) for col in zip(head, *body, strict=True)]

    def line(cells):
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(head), sep, *map(line, body)])


def environment(engine_names) -> str:
    versions = [
        f"{name} {module.version()}" if module else f"{name}: unavailable ({reason})"
        for name, module, reason in load_engines(engine_names)
    ]
    return (
        f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; Python {platform.python_version()}, "
        f"numpy {np.__version__}, {platform.machine()} with {os.cpu_count()} cores; "
        + "; ".join(versions)
    )


def write_markdown(rows, engine_names, sleeping: bool, path: Path) -> None:
    text = f"""# Benchmark results

Scenes: bench/scenes.md. {environment(engine_names)}.
Sleeping {"on" if sleeping else "off"}. ms/step is the median over the run's steps
(bullets: total seconds for all queries). c2d/peer is collide2d's time divided by the
peer's in the same run: below 1, collide2d is faster. Settings: bench/README.md.

{table(rows)}
"""
    path.write_text(text)


def plot(rows, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = {name: f"C{i}" for i, name in enumerate(ENGINES)}
    fig, axes = plt.subplots(3, 3, figsize=(13, 12))
    for ax, scene in zip(axes.flat, SCENES, strict=False):
        engines = [
            e
            for e in ENGINES
            if any(_value(r) is not None for r in rows if (r["scene"], r["engine"]) == (scene, e))
        ]
        for engine in engines:
            pts = [
                (r["size"], _value(r))
                for r in rows
                if r["scene"] == scene and r["engine"] == engine and _value(r) is not None
            ]
            if pts:
                x, y = zip(*sorted(pts), strict=True)
                ax.plot(x, y, "o-", color=colours[engine], label=engine)
        if scene == "slide":
            ax.axhline(FRAME_BUDGET_MS, color="grey", ls="--", label="frame budget")
        ax.set(
            title=scene,
            xscale="log",
            yscale="log",
            xlabel={"pyramid": "base B", "bullets": "segments", "joint_grid": "grid side N",
                    "ragdolls": "ragdolls"}.get(scene, "bodies"),
            ylabel="total s" if scene == "bullets" else "ms/step",
        )
        ax.grid(True, which="both", alpha=0.3)
        if engines:
            ax.legend(fontsize=8)
        else:
            ax.text(0.5, 0.6, "no results", ha="center", transform=ax.transAxes)
    for ax in axes.flat[len(SCENES):]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, correctness only")
    parser.add_argument("--scene", action="append", choices=SCENES, help="repeatable")
    parser.add_argument("--engines", nargs="+", choices=list(ENGINES), default=list(ENGINES))
    parser.add_argument("--sleeping", action="store_true", help="let bodies sleep (off)")
    parser.add_argument("--out", type=Path, default=HERE, help="folder for results.md/png")
    args = parser.parse_args(argv)

    rows = run(args.scene or SCENES, args.engines, args.quick, args.sleeping)
    print()
    print(table(rows))
    failed = [r for r in rows if "error" in r or ("ok" in r and r["gating"] and not r["ok"])]
    if args.quick:
        print(f"\n{len(failed)} failing check(s)" if failed else "\nall checks pass")
        return 1 if failed else 0
    write_markdown(rows, args.engines, args.sleeping, args.out / "results.md")
    if "collide2d" in args.engines and not args.scene:
        # Start-up, apart from steady-state speed: fresh processes, empty then warm cache.
        import startup

        boot = startup.table(startup.measure())
        print("\nstart-up (import collide2d, first step, first raycast):\n" + boot)
        with open(args.out / "results.md", "a") as fh:
            fh.write("\n## Start-up\n\nFresh processes (`bench/startup.py`): `import "
                     "collide2d`, a scene built, its first step and a raycast. Cold: Numba "
                     "cache empty, the kernels run as Python while a background process "
                     "compiles them, then switch; warm: kernels load from the cache.\n\n"
                     + boot + "\n")
    plot(rows, args.out / "results.png")
    print(f"\nwrote {args.out / 'results.md'} and {args.out / 'results.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
