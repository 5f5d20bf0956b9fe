"""Correctness figures of bench/scenes.md, computed the same way for every engine.

Adapters hand in raw end states (positions, angles, ray hits, pair counts); these functions
turn them into the numbers the table reports and the pass/fail flags ``--quick`` checks.
"""

from __future__ import annotations

import gc
import time
from contextlib import contextmanager

import numpy as np
from scenes import (
    JointGridScene,
    PyramidScene,
    RagdollScene,
    RainScene,
    RayHits,
    SlideScene,
    crowd_pair_count,
    joint_errors,
    slide_violations,
)

# A joint whose anchors end further apart than this has come loose (m).
JOINT_TORN = {"joint_grid": 0.5, "ragdolls": 0.1}


@contextmanager
def gc_paused():
    """Pause Python's cyclic garbage collector, as ``timeit`` does, so that a collection
    triggered by whatever allocated last does not land in one engine's timing."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def timed_steps(step, steps: int, after=None) -> np.ndarray:
    """Milliseconds of each call ``step()``; ``after(k)`` runs untimed after step k (from 1)
    and stops the run early by returning True (a scene that blew up)."""
    ms = np.empty(steps)
    with gc_paused():
        for k in range(steps):
            t0 = time.perf_counter()
            step()
            ms[k] = 1e3 * (time.perf_counter() - t0)
            if after is not None and after(k + 1):
                return ms[: k + 1]
    return ms


def timing(ms: np.ndarray) -> dict:
    """Median (the headline: robust to JIT warm-up and GC pauses) and mean ms per step."""
    return {"ms_per_step": float(np.median(ms)), "ms_mean": float(np.mean(ms))}


def pyramid_figures(scene: PyramidScene, positions, angles) -> dict:
    """Displacement, drift, tilt and top-box height change at the end of the run."""
    p = np.asarray(positions, dtype=np.float64)
    a = np.asarray(angles, dtype=np.float64)
    nan = not (np.isfinite(p).all() and np.isfinite(a).all())
    delta = p - scene.centres
    tilt = np.abs((a + np.pi) % (2.0 * np.pi) - np.pi)  # boxes start at angle 0
    figures = {
        "max_displacement": float(np.nanmax(np.hypot(delta[:, 0], delta[:, 1]))),
        "max_drift": float(np.nanmax(np.abs(delta[:, 0]))),
        "max_tilt": float(np.nanmax(tilt)),
        "top_dy": float(delta[-1, 1]),
        "max_abs_dy": float(np.nanmax(np.abs(delta[:, 1]))),
        "nan": nan,
    }
    # The peers' bar: stands (a contact skin may leave boxes resting slightly apart).
    figures["stands"] = (
        not nan
        and figures["max_tilt"] < 0.05
        and figures["max_drift"] < 0.1
        and figures["max_abs_dy"] < 0.25
    )
    # collide2d's own, higher bar: every box within 0.1 m of its start.
    figures["within_0.1"] = not nan and figures["max_displacement"] < 0.1
    return figures


def rain_figures(scene: RainScene, positions) -> dict:
    """Bodies whose centre ends outside the container (NaN counts as outside)."""
    p = np.asarray(positions, dtype=np.float64)
    finite = np.isfinite(p).all(axis=1)
    x, y = p[:, 0], p[:, 1]
    inside = finite & (np.abs(x) < scene.inner_x) & (y > 0.0) & (y < scene.wall_top)
    outside = int(np.count_nonzero(~inside))
    nan = not finite.all()
    return {"outside": outside, "nan": nan, "ok": outside == 0 and not nan}


def bullets_figures(hits: RayHits, reference: RayHits) -> dict:
    """Hit count, and how the hits differ from the float64 brute-force reference."""
    both = hits.hit & reference.hit
    point_err = np.hypot(*(hits.point[both] - reference.point[both]).T) if both.any() else [0.0]
    normal_err = np.hypot(*(hits.normal[both] - reference.normal[both]).T) if both.any() else [0.0]
    figures = {
        "hits": int(hits.hit.sum()),
        "hits_ref": int(reference.hit.sum()),
        "hit_mismatch": int(np.count_nonzero(hits.hit != reference.hit)),
        "body_mismatch": int(np.count_nonzero(both & (hits.body != reference.body))),
        "max_point_err": float(np.max(point_err)),
        "max_normal_err": float(np.max(normal_err)),
    }
    figures["ok"] = figures["hits"] == figures["hits_ref"] and figures["body_mismatch"] == 0
    return figures


def crowd_samples(steps: int) -> list[int]:
    """Steps (from 1) whose engine pair counts are checked against the brute-force count."""
    return sorted({1, max(1, steps // 3), max(1, 2 * steps // 3), steps})


def crowd_figures(counts: np.ndarray, sampled: dict[int, np.ndarray], radii) -> dict:
    """Compare per-step engine pair counts with brute force on the sampled positions.

    ``counts[k - 1]`` is the engine's count after step k; ``sampled[k]`` the body centres
    that count describes (after step k, or before it for an engine that reports one step
    late, see the adapter).
    """
    ref = {k: crowd_pair_count(c, radii) for k, c in sampled.items()}
    got = {k: int(counts[k - 1]) for k in sampled}
    return {
        "pairs_last": int(counts[-1]) if len(counts) else 0,
        "pairs_mean": float(np.mean(counts)) if len(counts) else 0.0,
        "pairs_sampled": got,
        "pairs_ref": ref,
        "ok": got == ref,
    }


class SlideCheck:
    """Accumulates the slide figures over a run: call ``after_step(centres)`` every step."""

    def __init__(self, scene: SlideScene):
        self.scene = scene
        self.max_overlap = 0.0
        self.outside = 0

    def after_step(self, centres) -> None:
        overlap, outside = slide_violations(self.scene, centres)
        self.max_overlap = max(self.max_overlap, overlap)
        self.outside = max(self.outside, outside)

    def figures(self) -> dict:
        ok = self.max_overlap <= 1e-6 and self.outside == 0
        return {"max_overlap": self.max_overlap, "outside": self.outside, "ok": ok}


def joint_grid_figures(scene: JointGridScene, positions, angles) -> dict:
    """How far apart each joint's anchors end (the grid hangs from its pins, swinging)."""
    p = np.asarray(positions, dtype=np.float64)
    a = np.asarray(angles, dtype=np.float64)
    nan = not (np.isfinite(p).all() and np.isfinite(a).all())
    gap = joint_errors(scene, p, a)
    pinned = np.abs(p[scene.static] - scene.positions[scene.static]).max()
    figures = {"max_gap": float(np.nanmax(gap)), "mean_gap": float(np.nanmean(gap)),
               "lowest": float(np.nanmin(p[:, 1])), "pins_moved": float(pinned), "nan": nan}
    figures["ok"] = not nan and figures["max_gap"] < JOINT_TORN["joint_grid"]
    return figures


def ragdoll_figures(scene: RagdollScene, positions, angles) -> dict:
    """Joint gaps, joint limits overshot, and bones outside the bin at the end."""
    p = np.asarray(positions, dtype=np.float64)
    a = np.asarray(angles, dtype=np.float64)
    finite = np.isfinite(p).all(axis=1) & np.isfinite(a)
    nan = not finite.all()
    gap = joint_errors(scene, p, a)
    ja, jb = scene.joint_bodies[:, 0], scene.joint_bodies[:, 1]
    rel = (a[jb] - a[ja] + np.pi) % (2.0 * np.pi) - np.pi   # bones start at angle 0
    over = np.maximum(np.maximum(scene.lower - rel, rel - scene.upper), 0.0)
    x, y = p[:, 0], p[:, 1]
    inside = finite & (np.abs(x) < scene.inner_x) & (y > 0.0) & (y < scene.wall_top)
    figures = {"max_gap": float(np.nanmax(gap)), "mean_gap": float(np.nanmean(gap)),
               "limit_over": float(np.nanmax(over)), "outside": int(np.count_nonzero(~inside)),
               "nan": nan}
    figures["ok"] = (not nan and figures["outside"] == 0
                     and figures["max_gap"] < JOINT_TORN["ragdolls"])
    return figures
