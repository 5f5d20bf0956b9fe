"""Tiered execution: the kernels run as plain Python while a background process compiles
them, then switch to the compiled kernels; both tiers give the same bits."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import types

import numpy as np
import pytest
from test_trust_determinism import SEED, build, busy_scene, drive, state_hash
from test_trust_golden import GOLDEN, SCENES

import collide2d as c2d
from collide2d import _jit, _tiers

DT = 1.0 / 60.0


@pytest.fixture
def tiers():
    """Leaves the tier state as it found it."""
    saved = dict(vars(_tiers._state))
    yield _tiers
    _tiers.use(saved["tier"])
    vars(_tiers._state).update(saved)


def _pending(tiers, finished) -> None:
    """The Python tier waiting on a background compile that ``finished()`` reports."""
    tiers.use("python")
    st = tiers._state
    st.pending, st.started, st.proc, st.next_poll = True, True, None, 0.0
    tiers._compile_finished = finished


@pytest.fixture
def fake_compile(tiers, monkeypatch):
    done = {"flag": False}
    monkeypatch.setattr(tiers, "POLL_EVERY_S", 0.0)
    real = tiers._compile_finished
    _pending(tiers, lambda: done["flag"])
    yield done
    tiers._compile_finished = real


@pytest.mark.nojit
def test_the_twin_is_plain_python_all_the_way_down(tiers):
    """A twin kernel's calls to other kernels are plain functions too: calling the twin
    never starts an in-process compile."""
    tiers.use("python")
    twin_modules = [m for name, m in sys.modules.items()
                    if name.startswith(_jit.TWIN_PACKAGE + ".")]
    assert len(twin_modules) >= 10
    for module in twin_modules:
        for name, value in vars(module).items():
            assert not hasattr(value, "py_func"), f"{module.__name__}.{name} is compiled"
    step = tiers._twin("step")
    assert isinstance(step.run_step, types.FunctionType)
    assert all(isinstance(fn, types.FunctionType) for _, fn, _ in step.STAGES)
    # The surface's namespace calls the twin (through a wrapper that polls).
    from collide2d import world

    assert world._step.run_step.__wrapped__ is step.run_step
    assert world._step.DONE == step.DONE


def test_twin_and_compiled_give_the_same_snapshot_bytes(tiers):
    tiers.use("compiled")
    compiled = busy_scene(120)
    tiers.use("python")
    twin = busy_scene(120)
    assert twin.snapshot() == compiled.snapshot()
    assert state_hash(twin) == state_hash(compiled)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SCENES))
def test_the_twin_reproduces_the_golden_scenes(tiers, name):
    """Pile, stack and rain with bullets, particles, the character mover on tiles: the
    recorded hashes were taken with the compiled kernels."""
    tiers.use("python")
    assert SCENES[name]() == GOLDEN[name]


def test_switching_mid_run_changes_no_bit(fake_compile, tiers):
    rng = np.random.default_rng(SEED)
    w = build(rng)
    drive(w, rng, 0, 60)
    assert tiers.tier() == "python"
    fake_compile["flag"] = True  # the background compile has finished
    drive(w, rng, 60, 240)
    assert tiers.tier() == "compiled"
    from collide2d import world

    assert hasattr(world._step.run_step, "overloads")  # the dispatcher itself, unwrapped
    tiers.use("compiled")
    assert state_hash(w) == state_hash(busy_scene(240))


def test_no_switch_inside_a_step(fake_compile, tiers):
    """A compile that finishes while a world steps (here: seen from a callback's query)
    switches at the next public call, not during the step."""
    w = c2d.World(gravity=(0.0, -10.0))
    w.add_body(kind="static").add_box(10.0, 1.0, offset=(0.0, -0.5))
    w.add_body(position=(0.0, 0.45)).add_box(1.0, 1.0)
    seen = []

    def on_begin(_event):
        fake_compile["flag"] = True
        w.raycast((0.0, 5.0), (0.0, -5.0))  # a twin call: may not switch mid-step
        seen.append(tiers.tier())

    w.on_contact_begin(on_begin)
    w.step(DT)
    assert seen == ["python"]
    assert tiers.tier() == "python"
    w.raycast((0.0, 5.0), (0.0, -5.0))  # the next public call switches
    assert tiers.tier() == "compiled"


def test_queries_and_geometry_switch_too(fake_compile, tiers):
    """A program that never steps (geometry only) still reaches the compiled kernels."""
    square = [(0, 0), (1, 0), (1, 1), (0, 1)]
    assert c2d.point_in_polygon((0.5, 0.5), square)
    assert tiers.tier() == "python"
    fake_compile["flag"] = True
    assert c2d.point_in_polygon((0.5, 0.5), square)
    assert tiers.tier() == "compiled"
    from collide2d import geometry

    assert hasattr(geometry._seg.point_in_polygon, "py_func") == _jit.JIT_ENABLED


@pytest.fixture
def cache(tmp_path, monkeypatch, tiers):
    monkeypatch.setattr(tiers, "_cache_dir", lambda: str(tmp_path))
    return tmp_path


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.mark.nojit
def test_one_compile_at_a_time(cache, tiers):
    assert tiers.acquire_lock()
    assert tiers.lock_holder() == os.getpid()
    assert not tiers.acquire_lock()  # held by a live process (this one)
    tiers.release_lock()
    assert tiers.lock_holder() is None and not tiers.lock_path().exists()
    tiers.lock_path().write_text(str(_dead_pid()))  # a compile that died
    assert tiers.lock_holder() is None
    assert tiers.acquire_lock()  # a stale lock is taken over
    tiers.release_lock()
    tiers.lock_path().write_text(str(os.getpid()))  # live, but older than any compile
    old = time.time() - tiers.LOCK_STALE_S - 60
    os.utime(tiers.lock_path(), (old, old))
    assert tiers.lock_holder() is None
    assert tiers.acquire_lock()
    tiers.release_lock()


@pytest.mark.nojit
def test_a_running_compile_is_waited_for_not_repeated(cache, tiers, capsys, monkeypatch):
    monkeypatch.delenv("COLLIDE2D_QUIET", raising=False)
    tiers.lock_path().write_text(str(os.getpid()))  # another process compiles
    _pending(tiers, tiers._compile_finished)
    tiers._state.started = False
    tiers.poll()
    assert tiers._state.proc is None  # nothing started
    assert capsys.readouterr().err.count("compiling physics kernels in the background") == 1
    tiers._state.next_poll = 0.0
    tiers.poll()
    assert tiers.tier() == "python"  # still compiling elsewhere
    tiers.lock_path().unlink()  # it finished (or died): switch
    tiers._state.next_poll = 0.0
    tiers.poll()
    assert tiers.tier() == "compiled"


@pytest.mark.nojit
def test_the_warm_stamp_names_sources_numba_and_python(cache, tiers):
    assert not tiers.is_warm()
    (cache / "collide2d-warm-0123").write_text("an older build\n")
    tiers.write_stamp()
    assert tiers.is_warm()
    assert [p.name for p in cache.glob("collide2d-warm-*")] == [tiers.stamp_path().name]
    assert tiers.cache_key() in tiers.stamp_path().name


@pytest.mark.nojit
def test_opting_out(monkeypatch, tiers):
    for value, allowed in (("0", False), ("off", False), ("", _jit.JIT_ENABLED),
                           ("1", _jit.JIT_ENABLED)):
        monkeypatch.setenv("COLLIDE2D_BACKGROUND_COMPILE", value)
        assert tiers.background_allowed() is allowed
    with pytest.raises(ValueError, match="tier"):
        tiers.use("fast")


def test_step_and_queries_switch_when_their_stages_are_compiled(cache, fake_compile, tiers):
    """The background warm-up compiles the step and the queries first; a program switches
    those as soon as they are cached, the rest when everything is."""
    from collide2d import geometry, queries, world

    w = c2d.World(gravity=(0.0, -10.0))
    w.add_body(position=(0.0, 1.0)).add_box(1.0, 1.0)
    w.step(DT)
    tiers.write_stage_stamp("world step variants")
    w.step(DT)
    assert repr(world._step) == "<kernels step (compiled)>"
    assert repr(queries._q) == "<kernels queries (python)>"
    assert repr(geometry._seg) == "<kernels segment (python)>"
    assert tiers.tier() == "python"
    tiers.write_stage_stamp("queries")
    w.raycast((0.0, 5.0), (0.0, -5.0))
    assert repr(queries._q) == "<kernels queries (compiled)>"
    assert repr(geometry._seg) == "<kernels segment (python)>"
    fake_compile["flag"] = True
    c2d.point_in_polygon((0.5, 0.5), [(0, 0), (1, 0), (1, 1), (0, 1)])
    assert tiers.tier() == "compiled" and repr(geometry._seg) == "<kernels segment (compiled)>"


def test_no_kernel_name_shadows_the_kernel_sets_own():
    """A ``KernelSet`` keeps a kernel module's names as its own attributes, so a kernel
    named like one of the set's methods or fields (``_fill``, ``_tier``...) would replace
    it and break the tier switch."""
    import importlib
    import pkgutil

    import collide2d._kernels as kernels_package
    from collide2d._tiers import KernelSet

    own = {n for n in dir(KernelSet) if not n.startswith("__")} | set(vars(KernelSet("step")))
    clashes = []
    for info in pkgutil.iter_modules(kernels_package.__path__):
        module = importlib.import_module(f"collide2d._kernels.{info.name}")
        clashes += [f"{info.name}.{n}" for n in vars(module) if n in own]
    assert own >= {"_fill", "_use", "_name", "_tier", "_loaded"}
    assert not clashes, clashes
