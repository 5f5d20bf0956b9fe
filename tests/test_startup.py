"""First run: the compile notice, ``python -m collide2d warmup``, and life without Numba.

Each test runs Python in a subprocess, because what is checked happens once per process
(the notice) or at import (the fallback). Tests that compile from an empty cache take about
a minute and are marked ``slow``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import collide2d

SRC = str(Path(collide2d.__file__).resolve().parent.parent)
NOTICE = "collide2d: compiling physics kernels on first use"
BACKGROUND = "collide2d: compiling physics kernels in the background"

HELLO = textwrap.dedent("""
    import collide2d as c2d
    world = c2d.World(gravity=(0, -10))
    ground = world.add_body(kind="static")
    ground.add_box(200, 1, offset=(0, -0.5))
    box = world.add_body(position=(0, 5))
    box.add_box(1, 1)
    for _ in range(30):
        world.step(1 / 60)
    hit = world.raycast((0, 10), (0, -10))
    print("box y", round(float(box.position[1]), 3), "ray", hit.body is box)
""")


def _run(code: str, tmp_path: Path, **env_extra) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "COLLIDE2D_QUIET"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    env.update(env_extra)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=900, cwd=tmp_path)


def _box_fell_and_ray_hit(out: str) -> None:
    y, hit = out.split()[2], out.split()[4]
    assert 0.0 < float(y) < 5.0, out   # fell from 5 m (1 s of 10 m/s^2 is 5 m: not all)
    assert hit == "True", out


@pytest.mark.slow
@pytest.mark.coldstart
def test_notice_once_on_a_cold_cache_then_silent(tmp_path):
    cache = tmp_path / "numba-cache"
    cold = _run(HELLO, tmp_path, NUMBA_CACHE_DIR=str(cache))
    assert cold.returncode == 0, cold.stderr
    _box_fell_and_ray_hit(cold.stdout)
    # Once, though the step and the raycast each compile for more than a second.
    assert cold.stderr.count(NOTICE) == 1, cold.stderr
    line = next(ln for ln in cold.stderr.splitlines() if NOTICE in ln)
    assert str(cache) in line                         # says where the cache is
    assert "python -m collide2d warmup" in line and "COLLIDE2D_QUIET=1" in line
    assert any(cache.rglob("*.nbi"))                  # and the kernels were cached there

    warm = _run(HELLO, tmp_path, NUMBA_CACHE_DIR=str(cache))
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout == cold.stdout
    assert NOTICE not in warm.stderr, warm.stderr


@pytest.mark.slow
@pytest.mark.coldstart
def test_cold_cache_runs_uncompiled_at_once_then_compiled(tmp_path):
    """The default on a cold cache: Python now, a background compile, compiled next time."""
    cache = tmp_path / "numba-cache"
    code = HELLO + "from collide2d import _tiers\nprint('tier', _tiers.tier())\n"
    t0 = time.perf_counter()
    cold = _run(code, tmp_path, NUMBA_CACHE_DIR=str(cache), COLLIDE2D_BACKGROUND_COMPILE="1")
    elapsed = time.perf_counter() - t0
    assert cold.returncode == 0, cold.stderr
    _box_fell_and_ray_hit(cold.stdout)
    assert cold.stdout.splitlines()[1] == "tier python"
    assert cold.stderr.count(BACKGROUND) == 1 and NOTICE not in cold.stderr, cold.stderr
    assert str(cache) in cold.stderr and "running uncompiled meanwhile" in cold.stderr
    assert elapsed < 30, elapsed  # compiling in-process takes minutes on this machine
    # The background compile goes on after the program ended; its report is beside the cache.
    deadline = time.time() + 1500
    log = None
    while time.time() < deadline:
        log = next(cache.rglob("collide2d-warmup.log"), None)
        if log is not None and "done in" in log.read_text():
            break
        time.sleep(2)
    assert log is not None and "done in" in log.read_text()
    while any(cache.rglob("collide2d-warmup.lock")) and time.time() < deadline:
        time.sleep(0.5)  # released as the process ends
    assert any(cache.rglob("*.nbi"))

    warm = _run(code, tmp_path, NUMBA_CACHE_DIR=str(cache), COLLIDE2D_BACKGROUND_COMPILE="1")
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout.splitlines() == [cold.stdout.splitlines()[0], "tier compiled"]
    assert BACKGROUND not in warm.stderr and NOTICE not in warm.stderr, warm.stderr


def test_quiet_silences_the_notice(tmp_path):
    # A threshold of 0 s makes any compile qualify, so a small kernel shows the notice
    # would have been printed (``done``) while COLLIDE2D_QUIET kept it off stderr.
    code = textwrap.dedent("""
        import collide2d as c2d
        from collide2d import _jit
        _jit.NOTICE_AFTER_S = 0.0
        print(c2d.point_in_polygon((0.5, 0.5), [(0, 0), (1, 0), (1, 1), (0, 1)]))
        print("noticed", _jit._notice is not None and _jit._notice.done)
    """)
    quiet = _run(code, tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "q"), COLLIDE2D_QUIET="1")
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stdout.split() == ["True", "noticed", "True"]
    assert NOTICE not in quiet.stderr, quiet.stderr

    loud = _run(code, tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "l"))
    assert loud.returncode == 0, loud.stderr
    assert loud.stderr.count(NOTICE) == 1, loud.stderr


def test_warmup_command_reports_progress_and_the_cache(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "COLLIDE2D_QUIET"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    out = subprocess.run([sys.executable, "-m", "collide2d", "warmup"], env=env,
                         capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    stages = [ln for ln in lines if ln.startswith("[")]
    assert len(stages) >= 8 and stages[0].replace(" ", "").startswith("[1/")
    assert stages[-1].endswith(" s")
    assert any("done in" in ln for ln in lines)
    cache_line = next(ln for ln in lines if "cached in" in ln)
    where = Path(cache_line.split("cached in", 1)[1].strip())
    expected = os.environ.get("NUMBA_CACHE_DIR") or str(Path(SRC) / "collide2d" / "_kernels")
    assert str(where).startswith(expected), cache_line
    assert where.is_dir() and any(where.glob("*.nbi")), cache_line
    assert NOTICE not in out.stderr   # the progress report replaces the notice


def test_without_numba_collide2d_runs_as_python_and_warns_once(tmp_path):
    # A numba.py first on the path that fails to import stands for an interpreter without
    # Numba wheels.
    shadow = tmp_path / "no-numba"
    shadow.mkdir()
    (shadow / "numba.py").write_text("raise ImportError('no Numba on this interpreter')\n")
    code = "import warnings\nwarnings.simplefilter('default')\n" + HELLO + textwrap.dedent("""
        import collide2d._jit as j
        import collide2d
        print("jit", j.HAVE_NUMBA, j.JIT_ENABLED)
        print(c2d.penetration([(0, 0), (1, 0), (1, 1), (0, 1)], c2d.Circle((1.2, 0.5), 0.4)))
    """)
    env = {"PYTHONPATH": os.pathsep.join((str(shadow), SRC))}
    out = _run(code, tmp_path, **env)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    _box_fell_and_ray_hit(lines[0])
    assert lines[1] == "jit False False"
    assert lines[2].startswith("Penetration(")
    assert out.stderr.count("Numba is not available") == 1, out.stderr
    assert NOTICE not in out.stderr


def test_a_kernel_called_with_constants_compiles_once():
    """Constant arguments at a call site from another kernel (``0``, ``True``) do not compile
    the callee again for each value: one signature, and the values still arrive."""
    from collide2d import _jit

    if not _jit.JIT_ENABLED:
        pytest.skip("nothing is compiled without Numba")
    import numpy as np

    @_jit.njit(cache=False)
    def pick(a, k, flip):
        return -a[k] if flip else a[k]

    @_jit.njit(cache=False, entry=True)
    def caller(a, k):
        return pick(a, 0, True) + pick(a, 1, False) + pick(a, k, False) + pick(a, 2, flip=True)

    a = np.array([1.0, 10.0, 100.0])
    assert caller(a, 1) == -1.0 + 10.0 + 10.0 - 100.0
    assert len(pick.signatures) == 1


def test_a_kernel_without_reference_counting_may_not_hand_back_an_array():
    """A kernel compiled with ``_nrt=False`` that returns an array (here its own argument,
    which Numba accepts) would leave its counted caller dropping a reference it never got:
    ``_jit`` refuses it. Scalars and tuples of scalars come back as usual."""
    from collide2d import _jit

    if not _jit.JIT_ENABLED:
        pytest.skip("nothing is compiled without Numba")
    import numpy as np

    @_jit.njit(_nrt=False, cache=False, entry=True)
    def same(a):
        return a

    @_jit.njit(_nrt=False, cache=False, entry=True)
    def pair(a, k):
        return a[k], k + 1

    with pytest.raises(TypeError, match="without reference counting"):
        same(np.zeros(2))
    assert pair(np.array([4.0, 5.0]), 1) == (5.0, 2)


def test_a_kernel_only_kernels_call_has_no_python_entry():
    """A kernel without ``entry=True`` is compiled for kernels only: called from Python it
    raises (Numba would call a null pointer), from a kernel it runs, and its code is its
    caller's to optimise and emit (a ``_CalleeLibrary``)."""
    from collide2d import _jit

    if not _jit.JIT_ENABLED:
        pytest.skip("nothing is compiled without Numba")
    import numpy as np

    @_jit.njit(_nrt=False, cache=False)
    def twice(a, k):
        return 2.0 * a[k]

    @_jit.njit(_nrt=False, cache=False, entry=True)
    def caller(a):
        return twice(a, 0) + twice(a, 1)

    assert caller(np.array([1.5, 4.0])) == 11.0
    with pytest.raises(TypeError, match="twice is compiled for other kernels only"):
        twice(np.array([1.5]), 0)
    (overload,) = twice.overloads.values()
    assert isinstance(overload.library, _jit._CalleeLibrary)
    (overload,) = caller.overloads.values()
    assert not isinstance(overload.library, _jit._CalleeLibrary)


def test_a_cached_callee_links_into_a_later_caller(tmp_path):
    """A kernel only kernels call is cached as its module (no machine code): a later
    process compiling a new caller links it from the cache, and the result is right."""
    from collide2d import _jit

    if not _jit.JIT_ENABLED:
        pytest.skip("nothing is compiled without Numba")
    (tmp_path / "kernels_here.py").write_text(textwrap.dedent("""
        from collide2d._jit import njit

        @njit(_nrt=False)
        def scaled(a, k, f):
            return f * a[k]

        @njit(_nrt=False, entry=True)
        def first(a):
            return scaled(a, 0, 3.0)

        @njit(_nrt=False, entry=True)
        def second(a):
            return scaled(a, 1, -2.0) + scaled(a, 0, 1.0)
    """))
    code = textwrap.dedent("""
        import sys
        import numpy as np
        sys.path.insert(0, {here!r})
        import kernels_here as k
        a = np.array([2.0, 5.0])
        print(k.{name}(a), len(k.scaled.stats.cache_hits), len(k.scaled.stats.cache_misses))
    """)
    cache = tmp_path / "cache"
    one = _run(code.format(here=str(tmp_path), name="first"), tmp_path,
               NUMBA_CACHE_DIR=str(cache), COLLIDE2D_QUIET="1")
    assert one.returncode == 0, one.stderr
    assert one.stdout.split() == ["6.0", "0", "1"]
    two = _run(code.format(here=str(tmp_path), name="second"), tmp_path,
               NUMBA_CACHE_DIR=str(cache), COLLIDE2D_QUIET="1")
    assert two.returncode == 0, two.stderr
    assert two.stdout.split() == ["-8.0", "1", "0"]  # scaled came from the cache


def test_every_kernel_states_its_reference_counting():
    """Every kernel says ``_nrt=True`` or ``_nrt=False``, or is inlined into its callers
    (``inline="always"``). Without a setting, Numba gives a kernel the setting of whichever
    compile reaches it first, so the same source made different machine code (a B = 100
    pyramid step 5.07 or 5.38 ms) depending on which entry compiled first."""
    import ast

    kernels = Path(collide2d.__file__).resolve().parent / "_kernels"
    unstated = []
    for path in sorted(kernels.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            for deco in node.decorator_list:
                name = deco.func if isinstance(deco, ast.Call) else deco
                if not (isinstance(name, ast.Name) and name.id == "njit"):
                    continue
                words = {k.arg for k in deco.keywords} if isinstance(deco, ast.Call) else set()
                if not words & {"_nrt", "inline"}:
                    unstated.append(f"{path.name}:{node.name}")
    assert not unstated, unstated


def test_every_kernel_one_signature_after_a_step_a_query_and_particles():
    """Kernels outside the solvers (whose passes compile per ``use_bias`` on purpose) are
    cached for one signature after the step, the queries, the geometry batch forms and a
    particle step have all run. The cache's index is read, not ``signatures``: a kernel
    compiled inside another is in its cache but never loaded on its own."""
    import numpy as np

    import collide2d as c2d
    from collide2d import _jit, _tiers

    if not _jit.JIT_ENABLED or _tiers.tier() != "compiled":
        pytest.skip("needs the compiled tier")
    world = c2d.World(gravity=(0, -10))
    world.add_body(kind="static").add_box(20, 1, offset=(0, -0.5))
    for k in range(3):
        world.add_body(position=(k * 1.1, 1 + k)).add_box(1, 1)
    world.add_body(position=(5, 2)).add_circle(0.5)
    parts = world.add_particles(np.array([[0.0, 8.0], [2.0, 9.0]]), np.zeros((2, 2)))
    for _ in range(5):
        world.step(1 / 60)
    world.raycast((0, 10), (0, -10))
    world.raycast_many(np.array([[0.0, 10.0]]), np.array([[0.0, -10.0]]))
    pool = c2d.pack_shapes([[(0, 0), (1, 0), (1, 1), (0, 1)], c2d.Circle((0.5, 1.2), 0.3)])
    c2d.penetration_many(pool, np.array([[0, 1]]))
    c2d.polygons_overlap_many(pool, np.array([[0, 1]]))
    c2d.sweep_many(pool, np.array([[0, 1]]), np.array([[0.0, 1.0]]))
    assert parts is not None
    # Two on purpose: _grown is generic over the buffer's element type (int64 and int8
    # pair columns); _keep_alive is a variadic no-op called with two arities. The batch's
    # typed-list helpers are generic over the view types they hold, and its reset's array
    # copy over the views' array types.
    allowed = {"collide2d._kernels.broadphase._grown", "collide2d._kernels.sat._keep_alive",
               "collide2d._kernels.lists.filled", "collide2d._kernels.lists.put",
               "collide2d._kernels.worlds._copy_array"}
    many = []
    for name, module in sorted(sys.modules.items()):
        if not name.startswith("collide2d._kernels.") or name.startswith(_jit.LITERAL_MODULES):
            continue
        for attr, value in vars(module).items():
            if getattr(value, "__module__", None) != name or not hasattr(value, "py_func"):
                continue
            try:
                index = value._cache._cache_file._load_index()
            except AttributeError:
                pytest.skip("this Numba keeps its cache index elsewhere")
            sigs = {key[0] for key in index}
            if len(sigs) > 1 and f"{name}.{attr}" not in allowed:
                many.append(f"{name}.{attr}: {sorted(map(str, sigs))}")
    assert not many, many


def test_import_and_first_step_do_not_import_scipy(tmp_path):
    """Numba's BLAS probe is answered without importing ``scipy.linalg`` (a sixth of a warm
    start), and a step imports no particle or query kernels."""
    code = textwrap.dedent("""
        import sys
        import collide2d as c2d
        world = c2d.World(gravity=(0, -10))
        world.add_body(position=(0, 1)).add_box(1, 1)
        world.step(1 / 60)
        print("scipy.linalg" in sys.modules, "collide2d._kernels.particles" in sys.modules,
              "collide2d._kernels.queries" in sys.modules)
    """)
    run = _run(code, tmp_path, COLLIDE2D_QUIET="1", COLLIDE2D_BACKGROUND_COMPILE="0")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "False", "False"], run.stdout


def test_a_warm_first_step_loads_without_the_compilers_set_up(tmp_path):
    """Loading kernels from the cache does not refresh Numba's target context (which
    imports every typing and lowering module, arraymath among them): when nothing compiled
    in the process, arraymath was never imported. The loaded step gives what a step gives."""
    code = textwrap.dedent("""
        import sys
        import numba.core.event as ev
        import collide2d as c2d
        from collide2d import _jit, _tiers

        class Count(ev.Listener):
            n = 0
            def on_start(self, event):
                Count.n += 1
            def on_end(self, event):
                pass

        ev.register("numba:compile", Count())
        world = c2d.World(gravity=(0, -10))
        box = world.add_body(position=(0, 1))
        box.add_box(1, 1)
        world.step(0.5)
        print(_jit.JIT_ENABLED and _tiers.tier() == "compiled", Count.n,
              "numba.np.arraymath" in sys.modules, repr(float(box.position[1])))
    """)
    run = _run(code, tmp_path, COLLIDE2D_QUIET="1", COLLIDE2D_BACKGROUND_COMPILE="0")
    assert run.returncode == 0, run.stderr
    compiled, compiles, arraymath, y = run.stdout.split()
    if compiled != "True":
        pytest.skip("needs the compiled tier")
    # Free fall, one step of 0.5 s from rest under g = 10 m/s^2 in the default 4 substeps
    # of h = 0.125 s, semi-implicit Euler: v_k = -g h k, y = 1 + h (v_1 + ... + v_4)
    # = 1 - g h^2 (1 + 2 + 3 + 4).
    assert float(y) == pytest.approx(1 - 10 * 0.125**2 * 10, abs=1e-12)
    if compiles == "0":  # a warm cache: everything loaded
        assert arraymath == "False", run.stdout


@pytest.mark.nojit
def test_import_freezes_what_it_made_and_leaves_the_collector_on(tmp_path):
    code = textwrap.dedent("""
        import gc, sys
        before = gc.isenabled()
        if sys.argv[1:] == ["off"]:
            gc.disable()
        import collide2d
        print(gc.isenabled(), gc.get_freeze_count() > 0)
    """)
    for extra, args, expected in [({}, [], "True True"),
                                  ({"COLLIDE2D_GC_FREEZE": "0"}, [], "True False"),
                                  ({}, ["off"], "False False")]:
        env = {k: v for k, v in os.environ.items() if k != "COLLIDE2D_GC_FREEZE"}
        env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
        env.update(extra, COLLIDE2D_QUIET="1")
        run = subprocess.run([sys.executable, "-c", code, *args], env=env,
                             capture_output=True, text=True, timeout=300, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip() == expected, (extra, args, run.stdout)


@pytest.mark.nojit
def test_world_batch_is_imported_on_first_use(tmp_path):
    code = textwrap.dedent("""
        import sys
        import collide2d as c2d
        print("collide2d.batch_worlds" in sys.modules, "WorldBatch" in dir(c2d))
        from collide2d import WorldBatch
        from collide2d.batch_worlds import WorldBatch as direct
        print(WorldBatch is direct is c2d.WorldBatch, c2d.BodyStates.__name__,
              c2d.ContactCounts.__name__)
        try:
            c2d.NoSuchThing
        except AttributeError as e:
            print("AttributeError", "NoSuchThing" in str(e))
    """)
    run = _run(code, tmp_path, COLLIDE2D_QUIET="1")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "True", "True", "BodyStates", "ContactCounts",
                                  "AttributeError", "True"], run.stdout
