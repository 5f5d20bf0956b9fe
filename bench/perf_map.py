"""Name collide2d's compiled code for Linux ``perf``.

    perf record -F 2000 -g python bench/perf_map.py SCRIPT [ARGS...]
    perf report --no-children --sort sym

Runs ``SCRIPT`` as ``__main__`` and, when it ends, writes ``/tmp/perf-<pid>.map``, the
file ``perf report`` reads to name the samples that fall in JIT-loaded code: without it
every sample in a kernel is a bare address. Each function of every compiled library the
process loaded (from Numba's cache or compiled in it) is listed at its address with its
size, named ``module.function`` (``step.run_step``, ``envs._lander_world``); the kernels
LLVM inlined into a caller are counted in the caller.

Numba hands the engine each library's object code and keeps no copy, so the hook that
keeps it (:func:`install`) must be in place before the first kernel loads: this script
installs it before it runs ``SCRIPT``. The object's symbol table gives every function's
offset and size, local ones too; one exported function per section, looked up in the
engine, gives the section's address.
"""

from __future__ import annotations

import atexit
import os
import re
import runpy
import struct
import sys

_KEPT: list = []  # (library, object code) of every library loaded since install()


def install() -> None:
    """Keep each library's object code as Numba hands it to the engine: loaded from the
    cache (``_set_compiled_object``) or compiled in this process (the engine's hook,
    which Numba registers when it makes its code generator, so install first)."""
    from numba.core import codegen

    library = codegen.CPUCodeLibrary
    if getattr(library._set_compiled_object, "_perf_map", False):
        return
    loaded = library._set_compiled_object
    compiled = library._object_compiled_hook.__func__

    def keep_loaded(self, value):
        _KEPT.append((self, value))
        return loaded(self, value)

    def keep_compiled(cls, ll_module, buf):
        compiled(cls, ll_module, buf)
        lib = getattr(ll_module, "_CPUCodeLibrary__library", None)
        if lib is not None and lib._object_caching_enabled:
            _KEPT.append((lib, buf))

    keep_loaded._perf_map = True
    library._set_compiled_object = keep_loaded
    library._object_compiled_hook = classmethod(keep_compiled)


def short_name(name: str) -> str:
    """``module.function`` of an Itanium-mangled collide2d name, else the name (cut)."""
    if not name.startswith("_ZN"):
        return name[:80]
    i, parts = 3, []
    while i < len(name) and name[i].isdigit():
        digits = re.match(r"\d+", name[i:]).group()
        i += len(digits)
        parts.append(name[i:i + int(digits)])
        i += int(digits)
    kept = [p for p in parts if p not in ("collide2d", "_kernels")]
    return ".".join(kept)[:80] or name[:80]


def functions(obj: bytes):
    """(name, section index, offset, size, exported) of each function defined in an ELF64
    little-endian object."""
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + k * shentsize)
                for k in range(shnum)]
    for _, sh_type, _, _, off, size, link, _, _, entsize in sections:
        if sh_type != 2:  # SHT_SYMTAB
            continue
        str_off = sections[link][4]
        for k in range(size // entsize):
            st_name, info, _, shndx, value, sym_size = struct.unpack_from(
                "<IBBHQQ", obj, off + k * entsize)
            if info & 0xF != 2 or shndx == 0:  # STT_FUNC, defined
                continue
            end = obj.index(b"\0", str_off + st_name)
            yield (obj[str_off + st_name:end].decode(), shndx, value, sym_size,
                   info >> 4 == 1)  # STB_GLOBAL


def write_map(path: str | None = None) -> tuple[str, int]:
    """Write the map of every kept library's functions; returns its path and how many."""
    path = path or f"/tmp/perf-{os.getpid()}.map"
    rows = []
    for library, obj in _KEPT:
        engine = library._codegen._engine
        funcs = list(functions(obj))
        base = {}
        for name, shndx, value, _, exported in funcs:
            if exported and shndx not in base:
                address = engine.get_function_address(name)
                if address:
                    base[shndx] = address - value
        for name, shndx, value, size, _ in funcs:
            if shndx in base:
                rows.append((base[shndx] + value, max(size, 1), short_name(name)))
    rows.sort()
    with open(path, "w") as f:
        f.writelines(f"{a:x} {n:x} {name}\n" for a, n, name in rows)
    return path, len(rows)


def _report() -> None:
    path, n = write_map()
    print(f"perf map: {path} ({n} functions)", file=sys.stderr)


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    install()
    atexit.register(_report)
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
