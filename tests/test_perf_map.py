"""bench/perf_map.py: the map it writes for ``perf`` names compiled code at the addresses
the engine itself gives, for kernels compiled in the process and loaded from the cache."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "bench" / "perf_map.py"

SCRIPT = textwrap.dedent("""
    import os
    import numpy as np
    from numba import njit

    @njit(cache=False)
    def perf_map_probe(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * 2.0 + 1.0
        return s

    assert perf_map_probe(np.ones(5)) == 15.0
    cres = perf_map_probe.overloads[perf_map_probe.signatures[0]]
    for key, name in (("probe", cres.fndesc.llvm_func_name),
                      ("wrapper", cres.fndesc.llvm_cpython_wrapper_name)):
        print(key, hex(cres.library.get_pointer_to_function(name)))

    import collide2d as c2d
    world = c2d.World()
    world.add_body(position=(0, 1)).add_circle(0.5)
    world.step(1 / 60)
    print("pid", os.getpid())
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF objects: Linux only")
def test_map_names_the_engines_addresses(tmp_path):
    script = tmp_path / "probe.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, COLLIDE2D_BACKGROUND_COMPILE="0", COLLIDE2D_QUIET="1")
    run = subprocess.run([sys.executable, str(TOOL), str(script)], env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    lines = dict(line.split(" ", 1) for line in run.stdout.split("\n") if line)
    path = Path(f"/tmp/perf-{lines['pid']}.map")
    assert f"perf map: {path}" in run.stderr
    rows = [line.split(" ", 2) for line in path.read_text().splitlines()]
    path.unlink()
    by_name = {}
    for address, size, name in rows:
        by_name.setdefault(name, []).append((int(address, 16), int(size, 16)))
    # The function compiled here and its Python wrapper (further into the same section),
    # at the addresses the engine resolves their symbols to.
    assert int(lines["probe"], 16) in [a for a, _ in by_name["__main__.perf_map_probe"]]
    assert int(lines["wrapper"], 16) in [
        a for a, _ in by_name["cpython.__main__.perf_map_probe"]]
    # collide2d's step, loaded from the cache or compiled, named by module and function:
    # its entry, and run_step, a local function of the entry's library that the engine
    # cannot look up (only the object's symbol table has it).
    assert "step.run_listed" in by_name
    assert "step.run_step" in by_name
    # Entries are sorted and do not overlap.
    spans = sorted((int(a, 16), int(a, 16) + int(n, 16)) for a, n, _ in rows)
    assert all(end <= nxt for (_, end), (nxt, _) in zip(spans, spans[1:], strict=False))
