"""Typed lists of kernel views (one entry per world of a ``WorldBatch``), made and edited by
compiled helpers that are cached on disk.

Numba compiles a typed list's Python-level methods (construction, item assignment) in every
process, for every item type, and never caches them: for the batch's wide view types that
was over a minute per process on a loaded machine. Helpers compiled with ``cache=True`` do
the same work once. In the pure-Python twin (and without Numba, or with
``NUMBA_DISABLE_JIT=1``) they make plain lists, which the twin's kernels take; the batch
makes its lists again when the kernels change tier.
"""

from .._jit import JIT_ENABLED, TWIN_PACKAGE, njit

if JIT_ENABLED and not __name__.startswith(TWIN_PACKAGE + "."):
    from llvmlite import ir as _ir
    from numba.core import cgutils as _cgutils
    from numba.core import types as _types
    from numba.core.runtime.nrtdynmod import meminfo_data_ty as _meminfo_data_ty
    from numba.extending import intrinsic as _intrinsic
    from numba.typed import List as _List
    from numba.typed.listobject import ll_list_type as _ll_list_type
    from numba.typed.listobject import ll_voidptr_type as _ll_voidptr_type

    @_intrinsic
    def borrow(typingctx, items, i):
        """``items[i]`` for kernels compiled without reference counting (``_nrt=False``):
        Numba's own getitem counts a reference to each of the item's arrays (two hundred
        for a world's views) and cannot be compiled there. Without counting the item is
        borrowed (the list must outlive the call, as the batch's lists do); with counting
        it is counted as getitem does. Reads the list as Numba's getitem does
        (``numba.typed.listobject``), without the bounds check: ``0 <= i < len(items)``."""
        sig = items.item_type(items, _types.intp)

        def codegen(context, builder, sig, args):
            list_ty = sig.args[0]
            lst, index = args
            proxy = _cgutils.create_struct_proxy(list_ty)(context, builder, value=lst)
            data = _cgutils.get_or_insert_function(builder.module, _meminfo_data_ty,
                                                   "NRT_MemInfo_data_fast")
            raw = builder.call(data, [proxy.meminfo])
            handle = builder.load(builder.bitcast(raw, _ll_list_type.as_pointer()))
            base_fn = _cgutils.get_or_insert_function(
                builder.module, _ir.FunctionType(_ll_voidptr_type, [_ll_list_type]),
                "numba_list_base_ptr")
            base = builder.call(base_fn, [handle])
            item_ty = context.get_data_type(list_ty.item_type)
            ptr = _cgutils.gep(builder, builder.bitcast(base, item_ty.as_pointer()), index)
            model = context.data_model_manager[list_ty.item_type]
            item = model.load_from_data_pointer(builder, ptr)
            if context.enable_nrt:
                # Where references are counted, the caller owns (and will drop) one.
                context.nrt.incref(builder, list_ty.item_type, item)
            return item

        return sig, codegen
else:  # the pure-Python kernels
    _List = list

    def borrow(items, i):
        """``items[i]`` (a plain list's item: nothing to count)."""
        return items[i]


@njit(_nrt=True, entry=True)
def filled(item, n):
    """A typed list of ``n`` references to ``item``."""
    out = _List()
    for _ in range(n):
        out.append(item)
    return out


@njit(_nrt=True, entry=True)
def put(items, i, item):
    """``items[i] = item``."""
    items[i] = item
