"""Tampered batch input never crashes the interpreter.

The batch kernels index ``pool.verts`` through ``pool.offsets`` and ``pool.counts`` and read
pool rows through the ``pairs`` ids. Each hostile call runs in a child interpreter: it must
exit normally, either with an answer or a clean ValueError / TypeError, never by a signal
(a segmentation fault shows up as a negative return code).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import collide2d as c2d

SRC = str(Path(c2d.__file__).resolve().parents[1])
SQUARE = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]

# Each edit is applied to a fresh pool of two unit squares (the second at x = 0.5) with every
# array made writable again (numpy allows it on arrays that own their memory).
EDITS = {
    "offset-huge": "pool.offsets[0] = 10**9",
    "offset-negative": "pool.offsets[1] = -5",
    "offset-near-int64-max": "pool.offsets[1] = 2**63 - 2",
    "count-huge": "pool.counts[0] = 10**9",
    "count-zero": "pool.counts[1] = 0",
    "count-negative": "pool.counts[0] = -3",
    "count-past-end": "pool.counts[1] = 5",
    "verts-nan": "pool.verts[2, 0] = float('nan')",
    "verts-huge": "pool.verts[2, 0] = 1.7e308",
    "radius-on-polygon": "pool.radii[0] = 1.0",
    "radius-negative": "pool.radii[0] = -1.0",
    "aabb-nan": "pool.aabbs[0, 0] = float('nan')",
    "short-counts": "pool = pool._replace(counts=pool.counts[:1])",
    "verts-3-columns": "pool = pool._replace(verts=np.zeros((8, 3)))",
    "verts-float32": "pool = pool._replace(verts=pool.verts.astype(np.float32))",
    "offsets-float": "pool = pool._replace(offsets=pool.offsets.astype(float) + 1e9)",
    "verts-list": "pool = pool._replace(verts=pool.verts.tolist())",
    "not-a-pool": "pool = tuple(pool)",
    "convex-lies": "pool = pool._replace(convex=np.ones(2, bool))",
}

CALLS = {
    "segment_polygon_many": "c2d.segment_polygon_many([(-5, .5)], [(10, .5)], pool)",
    "polygons_overlap_many": "c2d.polygons_overlap_many(pool, [(0, 1)])",
    "penetration_many": "c2d.penetration_many(pool, [(0, 1), (1, 0)])",
    "sweep_many": "c2d.sweep_many(pool, [(0, 1)], [(1.0, 0.0)])",
    "pairs-out-of-range": "c2d.penetration_many(pool, [(0, 2**62)])",
    "pairs-negative": "c2d.sweep_many(pool, [(-1, 0)], [(1.0, 0.0)])",
    "pairs-uint64": "c2d.polygons_overlap_many(pool, np.array([[0, 2**64 - 1]], np.uint64))",
    "pairs-float": "c2d.penetration_many(pool, [(0.0, 1.0)])",
}

# One child per batch entry runs every edit in turn and prints one line per edit, so a
# crash names the call (the test) and the edit (the last line printed).
CHILD = textwrap.dedent("""
    import numpy as np
    import collide2d as c2d
    edits = {edits!r}
    for name, edit in edits.items():
        pool = c2d.pack_shapes([{square!r}, np.array({square!r}) + (0.5, 0.0)])
        for arr in pool:
            arr.flags.writeable = True
        exec(edit)
        print(name, end=": ", flush=True)
        try:
            {call}
        except (ValueError, TypeError) as e:
            print("refused:", e, flush=True)
        else:
            print("answered", flush=True)
""")


def run_child(edits: dict, call: str) -> subprocess.CompletedProcess:
    code = CHILD.format(edits=edits, square=SQUARE, call=call)
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, env=env)


@pytest.mark.parametrize("call", sorted(CALLS))
def test_tampered_pool_never_crashes(call):
    out = run_child(EDITS, CALLS[call])
    assert out.returncode == 0, (out.returncode, out.stdout[-300:], out.stderr[-2000:])
    lines = out.stdout.splitlines()
    assert [ln.split(":")[0] for ln in lines] == list(EDITS)
    assert all(ln.split(": ")[1].startswith(("refused", "answered")) for ln in lines)


@pytest.mark.parametrize("call", sorted(CALLS))
def test_huge_offset_alone_is_refused_by_name(call):
    """The first tampering that crashed the interpreter, on its own: the error names the
    array."""
    out = run_child({"huge-offset": "pool.offsets[0] = 10**9"}, CALLS[call])
    assert out.returncode == 0, (out.returncode, out.stderr[-2000:])
    assert out.stdout.startswith("huge-offset: refused: pool.offsets"), out.stdout


@pytest.mark.nojit
def test_pool_arrays_are_read_only():
    pool = c2d.pack_shapes([SQUARE, c2d.Circle((3, 0), 1.0)])
    for arr in pool:
        assert not arr.flags.writeable
    with pytest.raises(ValueError):
        pool.offsets[0] = 10**9


@pytest.mark.nojit
@pytest.mark.parametrize("edit", ["offset-huge", "count-huge", "count-zero", "count-past-end",
                                  "offset-negative", "verts-nan"])
def test_tampered_pool_is_refused_in_process(edit):
    pool = c2d.pack_shapes([SQUARE, np.array(SQUARE) + (0.5, 0.0)])
    for arr in pool:
        arr.flags.writeable = True
    namespace = {"pool": pool, "np": np}
    exec(EDITS[edit], namespace)
    pool = namespace["pool"]
    with pytest.raises(ValueError, match=r"^pool\.(offsets|counts|verts|radii)"):
        c2d.segment_polygon_many([(-5, .5)], [(10, .5)], pool)
    with pytest.raises(ValueError, match=r"^pool\."):
        c2d.penetration_many(pool, [(0, 1)])


@pytest.mark.nojit
def test_valid_pool_still_answers():
    pool = c2d.pack_shapes([SQUARE, np.array(SQUARE) + (0.5, 0.0)])
    hit, normal, depth = c2d.penetration_many(pool, [(0, 1)])
    assert hit.tolist() == [True]
    assert normal[0].tolist() == [1.0, 0.0] and depth[0] == 0.5   # from 0 to 1, on its right
    out = c2d.segment_polygon_many([(-5, .5)], [(10, .5)], pool)
    assert out.hit[0] and out.shape[0] == 0 and out.fraction[0] == 5 / 15
