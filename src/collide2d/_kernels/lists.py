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
            ptr = _item_pointer(context, builder, list_ty, lst, index)
            model = context.data_model_manager[list_ty.item_type]
            item = model.load_from_data_pointer(builder, ptr)
            if context.enable_nrt:
                # Where references are counted, the caller owns (and will drop) one.
                context.nrt.incref(builder, list_ty.item_type, item)
            return item

        return sig, codegen

    def _item_pointer(context, builder, list_ty, lst, index):
        """The address of ``lst[index]``, read as Numba's getitem does."""
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
        return _cgutils.gep(builder, builder.bitcast(base, item_ty.as_pointer()), index)

    def _arrays(ty, value, builder, path=()):
        """(type, value, path) of every array in a view (nested tuples of arrays)."""
        if isinstance(ty, _types.Array):
            yield ty, value, path
        elif isinstance(ty, _types.BaseTuple):
            for k, member in enumerate(ty.types):
                yield from _arrays(member, builder.extract_value(value, k), builder,
                                   path + (k,))

    def _only_arrays(ty) -> bool:
        """Whether every leaf of a view (nested tuples) is an array: a scalar member would
        be the layout's in ``rebased``, so such views never share a layout."""
        if isinstance(ty, _types.Array):
            return True
        if isinstance(ty, _types.BaseTuple):
            return all(_only_arrays(member) for member in ty.types)
        return False

    @_intrinsic
    def rebased(typingctx, items, delta):
        """``items[0]`` with every array's data ``delta`` bytes on, borrowed: the views of
        a world laid out as ``items[0]``'s world (``same_layout``). The arrays carry no
        reference count (as arrays made from a pointer), so threads stepping worlds of one
        layout never share a count."""
        sig = items.item_type(items, _types.int64)

        def codegen(context, builder, sig, args):
            list_ty = sig.args[0]
            lst, delta = args
            ptr = _item_pointer(context, builder, list_ty, lst, _ir.IntType(64)(0))
            model = context.data_model_manager[list_ty.item_type]
            item = model.load_from_data_pointer(builder, ptr)
            i8p = _ir.IntType(8).as_pointer()
            out = item
            for ty, value, path in list(_arrays(list_ty.item_type, item, builder)):
                arr = context.make_array(ty)(context, builder, value=value)
                moved = builder.gep(builder.bitcast(arr.data, i8p), [delta])
                arr.data = builder.bitcast(moved, arr.data.type)
                arr.meminfo = _cgutils.get_null_value(arr.meminfo.type)
                arr.parent = _cgutils.get_null_value(arr.parent.type)
                out = builder.insert_value(out, arr._getvalue(), list(path))
            return out

        return sig, codegen

    @_intrinsic
    def same_layout(typingctx, items, i, layout, delta):
        """Whether every array of ``items[i]`` has the shape and strides of the same array
        of ``layout[0]`` and its data ``delta`` bytes after it (an empty array anywhere),
        and the views hold arrays only: then ``rebased(layout, delta)`` is ``items[i]``."""
        sig = _types.boolean(items, _types.intp, layout, _types.int64)

        def codegen(context, builder, sig, args):
            items_ty, _, layout_ty, _ = sig.args
            lst, index, ref, delta = args
            view_ty = items_ty.item_type
            if not _only_arrays(view_ty):
                return _cgutils.false_bit
            model = context.data_model_manager[view_ty]
            mine = model.load_from_data_pointer(
                builder, _item_pointer(context, builder, items_ty, lst, index))
            theirs = model.load_from_data_pointer(
                builder, _item_pointer(context, builder, layout_ty, ref,
                                       _ir.IntType(64)(0)))
            ok = _cgutils.true_bit
            pairs = zip(_arrays(view_ty, mine, builder), _arrays(view_ty, theirs, builder),
                        strict=True)
            for (ty, a, _), (_, b, _) in pairs:
                x = context.make_array(ty)(context, builder, value=a)
                y = context.make_array(ty)(context, builder, value=b)
                for k in range(ty.ndim):
                    for field in ("shape", "strides"):
                        u = builder.extract_value(getattr(x, field), k)
                        v = builder.extract_value(getattr(y, field), k)
                        ok = builder.and_(ok, builder.icmp_unsigned("==", u, v))
                apart = builder.sub(builder.ptrtoint(x.data, _ir.IntType(64)),
                                    builder.ptrtoint(y.data, _ir.IntType(64)))
                empty = builder.icmp_unsigned("==", x.nitems, x.nitems.type(0))
                moved = builder.icmp_unsigned("==", apart, delta)
                ok = builder.and_(ok, builder.or_(empty, moved))
            return ok

        return sig, codegen
else:  # the pure-Python kernels
    _List = list

    def borrow(items, i):
        """``items[i]`` (a plain list's item: nothing to count)."""
        return items[i]

    def same_layout(items, i, layout, delta):
        """False: plain lists' items are used as they are (``rebased`` is never called)."""
        return False

    def rebased(items, delta):
        """Not reached in this tier (``same_layout`` is False); ``items[0]``."""
        return items[0]


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
