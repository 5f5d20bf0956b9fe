"""One place that decides how kernels run: compiled by Numba, or as plain Python.

Every kernel in ``collide2d._kernels`` is decorated with :func:`njit` from here. With Numba
importable, it is ``numba.njit(cache=True)``: compiled on first call, cached on disk. A
compile that lasts more than a moment says so once per process on stderr (silenced by
``COLLIDE2D_QUIET=1``), so a first run is not mistaken for a hang. Without
Numba (PyPy, Pyodide, a CPython newer than Numba's wheels) the kernels run unchanged as
Python after a single warning, so collide2d still works, slowly. ``NUMBA_DISABLE_JIT=1`` is
Numba's own switch for the same pure-Python path (used by the test suite's ``nojit`` subset).
On a cold cache the surface normally runs the kernels' pure-Python twin while a background
process compiles them (``_tiers``); the notice here is for compiles in this process.
"""

from __future__ import annotations

import os
import sys
import time
import warnings

try:  # pragma: no cover - which branch runs depends on the interpreter
    import numba as _numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    _numba = None
    HAVE_NUMBA = False
    warnings.warn(
        "collide2d: Numba is not available on this interpreter; kernels run as plain Python "
        "and are 50-500x slower. `pip install numba` where wheels exist.",
        RuntimeWarning,
        stacklevel=2,
    )

#: True when kernels are really compiled (Numba present and not disabled).
JIT_ENABLED = HAVE_NUMBA and os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")


def _import_arraymath_without_scipy() -> None:
    """Import ``numba.np.arraymath`` without the ``scipy.linalg`` import of its BLAS probe.

    A compile's first refresh of Numba's target context imports arraymath, which at import
    asks whether BLAS works by importing ``scipy.linalg`` (0.15 s, with NumPy's f2py). No
    kernel calls BLAS; the answer only decides whether Numba builds the inner product of its
    own ``np.cov`` / ``np.correlate`` on ``np.dot``. So before a kernel compiles (a miss in
    :class:`_KernelCache`) arraymath is imported with the probe answered by whether scipy is
    installed at all, which imports nothing. ``np.dot`` and ``np.linalg`` in anyone's
    kernels still run Numba's full check (``numba.np.linalg.ensure_blas``) when they
    compile. A warm start loads every kernel from the cache and imports neither.
    """
    if "numba.np.arraymath" in sys.modules:
        return
    try:
        import importlib.util

        from numba.np import linalg
    except ImportError:  # pragma: no cover - a Numba without this layout
        return
    real = getattr(linalg, "ensure_blas", None)
    if real is None:  # pragma: no cover
        return
    have_scipy = importlib.util.find_spec("scipy") is not None

    def probe() -> None:
        if not have_scipy:
            raise ImportError("scipy 0.16+ is required for linear algebra")

    linalg.ensure_blas = probe
    try:
        from numba.np import arraymath
    except ImportError:  # pragma: no cover
        return
    finally:
        linalg.ensure_blas = real
    if getattr(arraymath, "ensure_blas", None) is probe:
        arraymath.ensure_blas = real


def _copy_inlined_ir_once() -> None:
    """Make Numba's inliner copy an inlined kernel's IR in time linear in its size.

    ``inline="always"`` inlines a callee's IR after copying it (twice) block by block, each
    block with its own ``copy.deepcopy``; every variable of a block refers to the
    function's scope, which holds every variable, so each block copies the whole scope
    again: blocks times variables. For the step's stages, whose inlined callees are large
    after their own inlining, that copying was a sixth of a cold compile. Here, for
    inlined collide2d kernels only, the blocks of one copy share one ``deepcopy`` memo, so
    the scope is copied once; the copy is the same IR (Numba's own IR shares one scope
    among a function's blocks, and the inliner renames variables from that scope), so the
    compiled code is too. The inliner's second copy (of the first, kept "unmutated" for its
    caller, which discards it: ``InlineInlinables``) is not made: it is the first copy's
    blocks themselves. Any other inlining is left exactly as Numba does it.
    """
    import copy
    import threading

    try:
        from numba.core import inline_closurecall, ir
    except ImportError:  # pragma: no cover - a Numba without this layout
        return
    worker = getattr(inline_closurecall, "InlineWorker", None)
    if (worker is None or getattr(inline_closurecall, "copy", None) is not copy
            or getattr(worker.inline_ir, "_collide2d", False)):
        return
    original = worker.inline_ir
    state = threading.local()

    class _Copy:
        """The ``copy`` module as the inliner sees it: a block's deep copy shares the
        memo of the current copy of its IR (keyed by the scope its blocks share), and a
        block of that copy is not copied again."""

        def __getattr__(self, name):
            return getattr(copy, name)

        @staticmethod
        def deepcopy(x, memo=None):
            memos = getattr(state, "memos", None)
            if memo is None and memos is not None and isinstance(x, ir.Block):
                made = memos[None]
                if id(x.scope) in made:
                    return x
                out = copy.deepcopy(x, memos.setdefault(id(x.scope), {}))
                made.add(id(out.scope))
                return out
            return copy.deepcopy(x, memo)

    def inline_ir(self, caller_ir, block, i, callee_ir, callee_freevars, arg_typs=None):
        outer = getattr(state, "memos", None)
        mine = str(getattr(callee_ir.func_id, "modname", "")).startswith("collide2d.")
        state.memos = {None: set()} if mine else None
        try:
            return original(self, caller_ir, block, i, callee_ir, callee_freevars, arg_typs)
        finally:
            state.memos = outer

    inline_ir._collide2d = True
    inline_closurecall.copy = _Copy()
    worker.inline_ir = inline_ir


#: The package name of the kernels' pure-Python twin (see ``_tiers``): for its modules
#: :func:`njit` returns the plain function.
TWIN_PACKAGE = "collide2d._pykernels"

_KERNEL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_kernels")


def _source_hash() -> str:
    """One SHA-256 over every kernel source file and this module, which decides how they
    compile (names and bytes)."""
    import hashlib
    from pathlib import Path

    digest = hashlib.sha256()
    try:
        for src in [*sorted(Path(_KERNEL_DIR).glob("*.py")), Path(__file__)]:
            digest.update(src.name.encode())
            digest.update(src.read_bytes())
    except OSError:
        pass
    return digest.hexdigest()


#: The kernel sources' hash: keys the stale-cache check and the warm-cache stamp.
SOURCE_HASH = _source_hash()


def _invalidate_stale_cache() -> None:
    """Drop cached kernels when any kernel source changed.

    Numba keys a cached function on its own file only: ``step_world`` compiled against an
    older ``sat.py`` keeps running the old code after ``sat.py`` changes. One hash over all
    kernel sources, kept beside the cache, makes every kernel recompile together instead.
    """
    from pathlib import Path

    if not JIT_ENABLED or os.environ.get("NUMBA_CACHE_DIR"):
        return  # a custom cache folder is the caller's to manage
    here = Path(_KERNEL_DIR)
    try:
        stamp = here / "__pycache__" / "collide2d-kernels.sha256"
        if stamp.exists() and stamp.read_text() == SOURCE_HASH:
            return
        for cached in here.glob("__pycache__/*.nb[ic]"):
            cached.unlink()
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(SOURCE_HASH)
    except OSError:
        pass  # read-only install: Numba then compiles in memory or uses its own fallback


_invalidate_stale_cache()


#: Seconds a compile must last before the first-use notice is printed: loading from the
#: cache never compiles, and a short compile is not worth a line.
NOTICE_AFTER_S = 1.0

FIRST_USE_NOTICE = (
    "collide2d: compiling physics kernels on first use (up to about a minute per feature, "
    "once; cached afterwards in {cache}). Run 'python -m collide2d warmup' to do this ahead "
    "of time; set COLLIDE2D_QUIET=1 to silence this message."
)


def quiet() -> bool:
    """True when ``COLLIDE2D_QUIET`` asks for no first-use notice."""
    return os.environ.get("COLLIDE2D_QUIET", "").strip().lower() not in ("", "0", "false", "no")


def cache_dir(dispatcher=None) -> str:
    """Where Numba keeps collide2d's compiled kernels (``NUMBA_CACHE_DIR`` or beside them)."""
    try:  # Numba's own answer covers read-only installs (a per-user folder)
        return str(dispatcher._cache._cache_path)
    except AttributeError:
        pass
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        return custom
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_kernels", "__pycache__")


if JIT_ENABLED:
    import numba.core.event as _event

    class _FirstUseNotice(_event.Listener):
        """Prints :data:`FIRST_USE_NOTICE` once, when a collide2d kernel's compile (with the
        kernels it pulls in) has lasted :data:`NOTICE_AFTER_S`.

        Driven by Numba's compile, compiler-pass and LLVM-lock events, which fire many times
        a second while compiling and never on a call of compiled code, so it adds nothing to a
        step; no thread is needed. Numba fires ``numba:compile`` only on a cache miss, so a run
        from a warm cache stays silent.
        """

        def __init__(self) -> None:
            self.done = False
            self.depth = 0  # nesting of compile events inside a collide2d kernel's compile
            self.t0 = 0.0
            self.outer = None

        def on_start(self, event) -> None:
            if self.done:
                return
            if event.kind == "numba:compile":
                if self.depth:
                    self.depth += 1
                else:
                    disp = event.data.get("dispatcher") if event.data else None
                    module = getattr(getattr(disp, "py_func", None), "__module__", "") or ""
                    if not module.startswith("collide2d."):
                        return  # someone else's function; it may still call ours
                    self.depth, self.t0, self.outer = 1, time.perf_counter(), disp
            self._check()

        def on_end(self, event) -> None:
            if self.done:
                return
            self._check()
            if event.kind == "numba:compile" and self.depth:
                self.depth -= 1
                if not self.depth:
                    self.outer = None

        def _check(self) -> None:
            if not self.depth or time.perf_counter() - self.t0 < NOTICE_AFTER_S:
                return
            self.done = True
            if quiet():
                return
            print(FIRST_USE_NOTICE.format(cache=cache_dir(self.outer)), file=sys.stderr,
                  flush=True)

    _notice = _FirstUseNotice()
    _event.register("numba:compile", _notice)
    _event.register("numba:run_pass", _notice)
    _event.register("numba:llvm_lock", _notice)
else:
    _notice = None


def silence_first_use_notice() -> None:
    """No first-use notice in this process (``python -m collide2d warmup`` reports its own)."""
    if _notice is not None:
        _notice.done = True


#: Kernel modules whose functions still compile once per constant argument value: the
#: contact solver's passes take ``use_bias`` as a constant, and each pass's compiled body
#: has that branch folded out of its inner loop. (The joint passes take it as a runtime
#: bool: one body serves both.)
LITERAL_MODULES = ("collide2d._kernels.solver",)

if JIT_ENABLED:
    from numba.core import types as _types
    from numba.core.caching import FunctionCache as _FunctionCache
    from numba.core.registry import CPUDispatcher as _CPUDispatcher
    from numba.core.runtime import rtsys as _rtsys

    class _KernelCache(_FunctionCache):
        """Numba's disk cache of one kernel, loading without the compiler's set-up.

        Numba's load first refreshes the target context: it imports and registers every
        typing and lowering implementation Numba has (0.1 s of CPU, a fifth of a warm
        start), which only a compile reads, and every compile refreshes again itself. A
        load needs only the runtime (NRT), whose symbols the cached machine code links
        against, and the hash secret's symbols, which ``numba.cpython.hashing`` registers
        when imported (the threading layer's come with the code's own re-initialisers). On
        a miss Numba compiles next, so arraymath is imported first, without its scipy
        probe (:func:`_import_arraymath_without_scipy`), and the inliner's copies are made
        linear (:func:`_copy_inlined_ir_once`)."""

        def load_overload(self, sig, target_context):
            import numba.cpython.hashing  # noqa: F401 - registers symbols; see above

            _rtsys.initialize(target_context)
            cres = None
            with self._guard_against_spurious_io_errors():
                cres = self._load_overload(sig, target_context)
            if cres is None:
                _import_arraymath_without_scipy()
                _copy_inlined_ir_once()
            return cres

    from numba.core import codegen as _codegen
    from numba.core import compiler as _compiler
    from numba.core.compiler_machinery import LoweringPass as _LoweringPass
    from numba.core.compiler_machinery import register_pass as _register_pass
    from numba.core.typed_passes import AnnotateTypes as _AnnotateTypes

    def _internalize_linked_kernels() -> None:
        """Let LLVM inline the collide2d kernels linked into a library and drop the
        arguments they never read.

        Numba links every callee into its caller's module as ``linkonce_odr``: a definition
        another module may replace, so LLVM keeps each callee's signature whole. A kernel
        takes an array as seven to nine words (meminfo, parent, size, item size, data,
        shape, strides), and the step's stages take the world's views: a stage's call
        copied about 1,500 words onto the stack, a substep's calls as many again, and a
        batched world's call of ``run_step`` as many: most of a small world's step (a
        lander 7.9 -> 5.9 us in a batch of 1,024, an empty world 1.6 -> 0.34 us). The copies
        linked into a module are that module's alone (each caller links its own), so before
        it is optimised they are made ``internal``: a callee called once is inlined, and the
        arguments a callee never reads are dropped. The kernels' own definitions, which
        other modules link, stay as they were. Only collide2d's functions are touched, in
        every library optimised in this process (an entry's, and the gufunc of a ``prange``
        loop, which Numba compiles in a library of its own); the arithmetic is the same
        instructions, so results are bit for bit those of the uninlined code."""
        if getattr(_codegen.CPUCodeLibrary._optimize_final_module, "_collide2d", False):
            return
        original = _codegen.CPUCodeLibrary._optimize_final_module
        linkonce = _codegen.ll.Linkage.linkonce_odr
        internal = _codegen.ll.Linkage.internal

        def _optimize_final_module(self):
            for fn in self._final_module.functions:
                # (Itanium-mangled names of collide2d's functions start "_ZN9collide2d".)
                if (fn.linkage == linkonce and not fn.is_declaration
                        and fn.name.startswith("_ZN9collide2d")):
                    fn.linkage = internal
            original(self)

        _optimize_final_module._collide2d = True
        _codegen.CPUCodeLibrary._optimize_final_module = _optimize_final_module

    _internalize_linked_kernels()

    class _CalleeLibrary(_codegen.JITCodeLibrary):
        """The code of a kernel that only other kernels call (not an ``entry``).

        Numba links a callee's code into each caller's library, optimises it there again
        with the caller and emits machine code for the whole: the callee's own optimised
        module and machine code are never run. Numba still makes both (a fifth of a first
        step's cold compile, most of it the step's callees). Here the callee's module is
        kept as its functions were optimised one by one, for its callers to link, and only
        its environment pointers (which Numba fills in after lowering) are given to the
        engine. Its disk cache holds that module as bitcode: a later compile of another
        caller links it from there."""

        def _optimize_final_module(self):
            pass  # every caller optimises the linked copy with its own code

        def _finalize_final_module(self):
            self._finalize_dynamic_globals()
            self._verify_declare_only_symbols()
            envs = [str(gv) for gv in self._final_module.global_variables
                    if "NumbaEnv" in gv.name]
            if envs:
                text = "\n".join([str(self._codegen._create_empty_module(self.name)), *envs])
                self._codegen._add_module(_codegen.ll.parse_assembly(text))
                self._codegen._engine.finalize_object()
            self._finalized = True

        def serialize_using_object_code(self):
            self._ensure_finalized()
            return (self.name, "bitcode", self._final_module.as_bitcode())

    @_register_pass(mutates_CFG=False, analysis_only=False)
    class _CalleeLibraryPass(_LoweringPass):
        """Before lowering: the kernel's code goes into a :class:`_CalleeLibrary`."""

        _name = "collide2d_callee_library"

        def __init__(self):
            _LoweringPass.__init__(self)

        def run_pass(self, state):
            if state.library is None:
                state.library = _CalleeLibrary(state.targetctx.codegen(),
                                               state.func_id.func_qualname)
                state.library.enable_object_caching()
            return True

    class _CalleeCompiler(_compiler.CompilerBase):
        """Numba's nopython pipeline, lowering into a :class:`_CalleeLibrary`."""

        def define_pipelines(self):
            pm = _compiler.DefaultPassBuilder.define_nopython_pipeline(self.state)
            pm.add_pass_after(_CalleeLibraryPass, _AnnotateTypes)
            pm.finalize()
            return [pm]

    class _Kernel(_CPUDispatcher):
        """A kernel's dispatcher. One that is not an ``entry`` has no Python wrapper (the
        C function Numba compiles beside each kernel to unbox its arguments from Python
        objects: for the step's views, thousands of lines) and its code lives in a
        :class:`_CalleeLibrary`; called from Python it raises ``TypeError`` (Numba would
        call a null pointer)."""

        def __init__(self, py_func, locals=None, targetoptions=None, entry=None):
            if entry is None:  # rebuilt by Numba (a pickle): as it was compiled
                entry = not (targetoptions or {}).get("no_cpython_wrapper", False)
            super().__init__(py_func=py_func, locals=locals or {},
                             targetoptions=targetoptions or {},
                             pipeline_class=_compiler.Compiler if entry else _CalleeCompiler)
            self.is_entry = entry

        def add_overload(self, cres):
            # A kernel compiled without reference counting hands back no counted reference:
            # a caller with counting would release one it never got (freed memory, read
            # later). Only scalars and tuples of scalars may come back from one.
            if self.targetoptions.get("_nrt") is False:
                ret = cres.signature.return_type
                if cres.target_context.data_model_manager[ret].contains_nrt_meminfo():
                    raise TypeError(
                        f"{self.py_func.__qualname__} is compiled without reference counting "
                        f"(_nrt=False) but returns {ret}")
            if self.is_entry:
                super().add_overload(cres)
            else:  # kept for callers' typing; never in the table Python calls go through
                self.overloads[tuple(cres.signature.args)] = cres

        def _compile_for_args(self, *args, **kws):
            if not self.is_entry:
                raise TypeError(
                    f"{self.py_func.__module__}.{self.py_func.__qualname__} is compiled for "
                    "other kernels only: call it from a kernel, or declare it "
                    "njit(entry=True)")
            return super()._compile_for_args(*args, **kws)

        # Numba opens a kernel's disk cache when the kernel is decorated, writing a
        # temporary file to check the folder is writable: two hundred of them at import,
        # most for kernels a program never calls from Python (those compiled inside another
        # live in its cache). The cache is opened on first use instead.
        _cache_wanted = False

        def enable_caching(self):
            self._cache_wanted = True

        @property
        def _cache(self):
            if self._cache_wanted:
                self._cache_wanted = False
                self.__dict__["_cache_now"] = _KernelCache(self.py_func)
            return self.__dict__["_cache_now"]

        @_cache.setter
        def _cache(self, value):
            self._cache_wanted = False
            self.__dict__["_cache_now"] = value

    class _OneSignature(_Kernel):
        """A kernel called from another kernel compiles for its arguments' plain types.

        Numba types a constant argument (``0``, ``4``, ``True``) at a call site as a literal
        and compiles the callee once more for each such value: ``shape_distance`` was
        compiled ten times for one step, a raycast and a mover's move, each copy a few
        seconds of a cold start. Calls from Python already pass plain types."""

        def get_call_template(self, args, kws):
            args = tuple(_types.unliteral(a) for a in args)
            kws = {k: _types.unliteral(v) for k, v in kws.items()}
            return super().get_call_template(args, kws)


def njit(fn=None, *, entry=False, **options):
    """``numba.njit(cache=True, nogil=True, ...)`` compiling one signature per kernel
    (constant arguments are typed by their plain type: :class:`_OneSignature`); the
    identity decorator without Numba and for the kernels' pure-Python twin.

    ``entry=True`` marks a kernel the surface calls from Python. Any other kernel is
    compiled for kernels only: no Python wrapper, and no machine code of its own (its
    callers' libraries hold its code: :class:`_CalleeLibrary`)."""

    def wrap(f):
        if _numba is None or f.__module__.startswith(TWIN_PACKAGE + "."):
            return f
        # No kernel is passed as a first-class function, so none needs the C wrapper Numba
        # otherwise compiles beside each (for run_step, 1,700 lines of LLVM IR unpacking
        # its views).
        opts = {"cache": True, "nogil": True, "no_cfunc_wrapper": True}
        opts.update(options)
        if not JIT_ENABLED:
            return _numba.njit(**opts)(f)
        cache = opts.pop("cache")
        opts.update(nopython=True, boundscheck=opts.get("boundscheck"),
                    no_cpython_wrapper=not entry)
        kind = _Kernel if f.__module__.startswith(LITERAL_MODULES) else _OneSignature
        disp = kind(py_func=f, locals=opts.pop("locals", {}), targetoptions=opts, entry=entry)
        if cache:
            disp.enable_caching()
        return disp

    if fn is not None:
        return wrap(fn)
    return wrap


#: ``numba.prange`` (a parallel loop in kernels compiled with ``parallel=True``), or
#: ``range`` without Numba.
prange = _numba.prange if _numba is not None else range
