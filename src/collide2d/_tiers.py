"""Which tier the kernels run in: plain Python while Numba compiles, compiled afterwards.

Compiling every kernel from an empty cache takes a few minutes of a core; running them
as Python takes milliseconds per step for a small world. So a program that finds the cache cold
starts ``python -m collide2d warmup --background`` (one at a time across processes: a lock
file beside the cache), runs the kernels as Python meanwhile, and switches to the compiled
kernels once that process has written the cache (the step's and the queries' modules as
soon as their warm-up stages are done: :data:`EARLY`), when loading them takes well under a
second. The kernels are valid Python and agree with their compiled forms bit for bit, so
the switch changes no result.

The surface reaches kernels through :class:`KernelSet` namespaces (``_q = kernels("queries")``)
whose attributes are the compiled dispatchers or, in the Python tier, the functions of a
twin package: the same source files loaded a second time as ``collide2d._pykernels``, for
which :func:`collide2d._jit.njit` returns the plain function, so a twin's calls to other
kernels stay in Python and never start an in-process compile. The switch replaces the
namespaces' attributes; it happens in a twin call's wrapper or at the start of
``World.step``, never while a world steps (:func:`enter` / :func:`leave`), so a step runs
wholly in one tier. In the compiled tier nothing is wrapped and nothing is checked.

``COLLIDE2D_BACKGROUND_COMPILE=0`` opts out (kernels compile in-process on first use, as
before); without Numba, or under ``NUMBA_DISABLE_JIT=1``, there is nothing to compile.
"""

from __future__ import annotations

import importlib
import os
import platform
import subprocess
import sys
import time
import types
from pathlib import Path

import numpy as np

from . import _jit

_REAL = "collide2d._kernels"
_KERNEL_DIR = Path(__file__).parent / "_kernels"

#: Seconds between two looks at the background compile while running as Python.
POLL_EVERY_S = 0.25

BACKGROUND_NOTICE = (
    "collide2d: compiling physics kernels in the background (a few minutes, once; cached "
    "in {cache}); running uncompiled meanwhile, so the first steps are slower. Run "
    "'python -m collide2d warmup' to compile ahead of time; set COLLIDE2D_QUIET=1 to "
    "silence this message."
)


def background_allowed() -> bool:
    """False when ``COLLIDE2D_BACKGROUND_COMPILE`` opts out, or nothing is compiled."""
    flag = os.environ.get("COLLIDE2D_BACKGROUND_COMPILE", "").strip().lower()
    return _jit.JIT_ENABLED and flag not in ("0", "false", "no", "off")


def _twin_package() -> types.ModuleType:
    """``collide2d._pykernels``: a package over the kernels' own folder, so its modules
    are the kernel sources loaded a second time under another name."""
    pkg = sys.modules.get(_jit.TWIN_PACKAGE)
    if pkg is None:
        pkg = types.ModuleType(_jit.TWIN_PACKAGE, "The kernels run as plain Python.")
        pkg.__path__ = [str(_KERNEL_DIR)]
        pkg.__package__ = _jit.TWIN_PACKAGE
        sys.modules[_jit.TWIN_PACKAGE] = pkg
    return pkg


def _twin(name: str) -> types.ModuleType:
    _twin_package()
    return importlib.import_module(f"{_jit.TWIN_PACKAGE}.{name}")


class KernelSet:
    """One kernel module as the surface calls it: ``kernels("queries").raycast_rows``.

    Attributes are plain instance attributes: the compiled module's, or in the Python tier
    the twin's (its functions wrapped to look at the background compile first). They are
    filled on the first attribute read (``__getattr__`` runs only for a name not there
    yet), so a program imports the kernel modules of the features it uses: a step does not
    import the character mover's or the particles' kernels."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._tier = _state.tier
        self._loaded = False

    def __getattr__(self, attr: str):
        if attr.startswith("__") or self.__dict__.get("_loaded", True):
            raise AttributeError(f"kernels {self.__dict__.get('_name')!r} have no {attr!r}")
        self._fill(self._tier)
        return getattr(self, attr)

    def _use(self, tier: str) -> None:
        """Run in ``tier`` from now on (filled now if already in use, else on first use)."""
        if self._loaded:
            self._fill(tier)
        else:
            self._tier = tier

    def _fill(self, tier: str) -> None:
        self._tier = tier
        self._loaded = True
        real = importlib.import_module(f"{_REAL}.{self._name}")
        names = {k: v for k, v in vars(real).items() if not k.startswith("__")}
        if tier == "python":  # tables of stages hold the twin's functions too
            twin = _twin(self._name)
            for k, v in vars(twin).items():
                if k.startswith("__"):
                    continue
                is_kernel = isinstance(v, types.FunctionType) and v.__module__ == twin.__name__
                names[k] = _polling(v) if is_kernel else v
        self.__dict__.update(names)

    def __repr__(self) -> str:
        return f"<kernels {self._name} ({self._tier})>"


def _polling(fn):
    def call(*args, **kwargs):
        if _state.pending and not _state.hold:
            poll()
        # NumPy scalars warn on overflow where compiled code is silent; the values agree.
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)

    call.__name__ = fn.__name__
    call.__qualname__ = fn.__qualname__
    call.__doc__ = fn.__doc__
    call.__wrapped__ = fn
    return call


#: Kernel modules that switch as soon as the warm-up stage named has run; the rest switch
#: when every stage has. Warm-up runs these stages first, so a program's steps and queries
#: do not wait for the character mover's compile.
EARLY = {"world step variants": ("step", "poses", "integrate"), "queries": ("queries", "bvh")}


class _State:
    def __init__(self) -> None:
        self.tier = "compiled"
        self.pending = False  # Python tier, waiting for a background compile
        self.hold = 0  # worlds stepping now: no switch until they finish
        self.started = False  # this process looked for (or started) the compile
        self.proc: subprocess.Popen | None = None
        self.owner = os.getpid()
        self.next_poll = 0.0
        self.early: set[str] = set()  # EARLY stages whose modules run compiled


_state = _State()
_sets: list[KernelSet] = []
_on_switch: list = []


def on_switch(callback) -> None:
    """Call ``callback()`` after every change of tier (caches of one tier's functions)."""
    _on_switch.append(callback)


def kernels(name: str) -> KernelSet:
    """The namespace the surface calls ``collide2d._kernels.<name>`` through."""
    ks = KernelSet(name)
    _sets.append(ks)
    return ks


def tier() -> str:
    """``"python"`` (uncompiled, a background compile under way) or ``"compiled"``."""
    return _state.tier


# ---------------------------------------------------------------- the warm-cache stamp
def _cache_dir() -> str:
    step = importlib.import_module(f"{_REAL}.step")
    return _jit.cache_dir(getattr(step, "run_step", None))


def cache_key() -> str:
    """What a warm cache was compiled for: kernel sources, Numba, Python, machine."""
    import hashlib

    numba_version = getattr(_jit._numba, "__version__", "none")
    text = f"{_jit.SOURCE_HASH}|{numba_version}|{sys.version}|{platform.machine()}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def stamp_path() -> Path:
    """The file ``warmup`` writes when every kernel is compiled and cached."""
    return Path(_cache_dir()) / f"collide2d-warm-{cache_key()}"


def stage_stamp_path(stage: str) -> Path:
    """The file ``warmup`` writes when the stage ``stage`` (a key of :data:`EARLY`) ran."""
    slug = stage.replace(" ", "-")
    return Path(_cache_dir()) / f"collide2d-warm-{cache_key()}-{slug}"


def write_stage_stamp(stage: str) -> None:
    try:
        stage_stamp_path(stage).write_text(f"{time.time()}\n")
    except OSError:
        pass


def lock_path() -> Path:
    return Path(_cache_dir()) / "collide2d-warmup.lock"


def is_warm() -> bool:
    try:
        return stamp_path().exists()
    except OSError:
        return False


def write_stamp() -> None:
    """Mark the cache warm (called by ``warmup`` after every stage ran compiled)."""
    path = stamp_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in path.parent.glob("collide2d-warm-*"):
            if old != path:
                old.unlink(missing_ok=True)
        path.write_text(f"{time.time()}\n")
    except OSError:
        pass  # read-only cache: the next run compiles in the background again


#: A lock older than this is stale whoever holds it (a reused pid, a hung compile).
LOCK_STALE_S = 1800.0


def _alive(pid: int) -> bool:
    if os.name == "nt":
        return True  # os.kill would end it there; the lock's age decides instead
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def lock_holder() -> int | None:
    """The pid of the process compiling now, or None (a dead holder's lock is stale)."""
    path = lock_path()
    try:
        pid = int(path.read_text().strip() or 0)
        age = time.time() - path.stat().st_mtime
    except (OSError, ValueError):
        return None
    return pid if pid > 0 and age < LOCK_STALE_S and _alive(pid) else None


def acquire_lock() -> bool:
    """Take the background-compile lock for this process; False if a live one holds it."""
    path = lock_path()
    for _ in range(2):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            if lock_holder() is not None:
                return False
            path.unlink(missing_ok=True)  # stale: its holder died
            continue
        except OSError:
            return True  # nowhere to write a lock: compile anyway
        with os.fdopen(fd, "w") as f:
            f.write(str(os.getpid()))
        return True
    return False


def release_lock() -> None:
    path = lock_path()
    try:
        if int(path.read_text().strip() or 0) == os.getpid():
            path.unlink()
    except (OSError, ValueError):
        pass


# ---------------------------------------------------------------- choosing and switching
def _choose_tier() -> None:
    """At import: the Python tier when a background compile is allowed and the cache is
    not known to be warm. Nothing is started until a kernel is called."""
    if background_allowed() and not is_warm():
        _state.tier = "python"
        _state.pending = True


def _start() -> None:
    """Start the background compile unless one is running; print the notice once."""
    _state.started = True
    if lock_holder() is None:
        env = dict(os.environ, COLLIDE2D_BACKGROUND_COMPILE="0")
        # This very collide2d, however the program found it (a checkout on sys.path).
        here = str(Path(__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
        try:
            log = open(Path(_cache_dir()) / "collide2d-warmup.log", "w")  # noqa: SIM115
        except OSError:
            log = subprocess.DEVNULL
        try:
            _state.proc = subprocess.Popen(
                [sys.executable, "-m", "collide2d", "warmup", "--background"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
                start_new_session=True)
        except OSError:
            _switch()  # cannot start a process: compile here, as without this tier
            return
        finally:
            if log is not subprocess.DEVNULL:
                log.close()
    if not _jit.quiet():
        try:
            print(BACKGROUND_NOTICE.format(cache=_cache_dir()), file=sys.stderr, flush=True)
        except (OSError, ValueError):
            pass  # no usable stderr (closed, or a GUI without a console)


def _compile_finished() -> bool:
    proc = _state.proc
    if proc is not None and _state.owner == os.getpid():
        if proc.poll() is None:
            return False
        _state.proc = None
        if proc.returncode == 0 and not is_warm() and lock_holder() is not None:
            return False  # it found another process compiling: wait for that one
        return True  # done, or failed: the compiled tier then compiles what it lacks
    return is_warm() or lock_holder() is None


def poll() -> None:
    """Between public calls: start the background compile on first use, and switch to
    the compiled kernels once it has finished."""
    if not _state.pending or _state.hold:
        return
    if not _state.started:
        _start()
        _state.next_poll = time.monotonic() + POLL_EVERY_S
        return
    now = time.monotonic()
    if now < _state.next_poll:
        return
    _state.next_poll = now + POLL_EVERY_S
    if _compile_finished():
        _switch()
    else:
        _switch_early()


def _switch_early() -> None:
    """The modules of every :data:`EARLY` stage the background compile has finished."""
    for stage, modules in EARLY.items():
        if stage in _state.early or not stage_stamp_path(stage).exists():
            continue
        _state.early.add(stage)
        for ks in _sets:
            if ks._name in modules:
                ks._use("compiled")
        for callback in _on_switch:
            callback()


def _switch() -> None:
    _state.pending = False
    _state.early.update(EARLY)
    _state.tier = "compiled"
    for ks in _sets:
        ks._use("compiled")
    for callback in _on_switch:
        callback()


def use(name: str) -> None:
    """Force a tier (``"python"`` or ``"compiled"``) with no background compile: for
    ``warmup`` and for tests that compare the two."""
    if name not in ("python", "compiled"):
        raise ValueError(f"tier: expected 'python' or 'compiled', got {name!r}")
    if _state.hold:
        raise RuntimeError("tier: cannot switch while a world steps")
    _state.pending = False
    _state.started = True
    _state.tier = name
    _state.early = set(EARLY) if name == "compiled" else set()
    for ks in _sets:
        ks._fill(name)  # every module now: a forced tier is for warm-up and comparisons
    for callback in _on_switch:
        callback()


def enter() -> None:
    """A world starts stepping: switch first if the compile is done, then hold the tier."""
    if _state.pending and not _state.hold:
        poll()
    _state.hold += 1


def leave() -> None:
    _state.hold -= 1


_choose_tier()
