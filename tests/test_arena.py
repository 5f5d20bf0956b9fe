"""The stores' allocator: arrays carved out of shared blocks inside ``_arena.packed``."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import collide2d as c2d
from collide2d import _arena


@pytest.mark.nojit
def test_outside_packed_each_array_is_numpys_own():
    a = _arena.zeros((3, 2))
    b = _arena.full(4, 7, np.int64)
    assert a.base is None and b.base is None
    assert a.tolist() == [[0.0, 0.0]] * 3 and b.tolist() == [7] * 4


@pytest.mark.nojit
def test_packed_arrays_follow_each_other_aligned_and_filled():
    with _arena.packed():
        a = _arena.zeros(3, np.bool_)  # 3 bytes: the next starts at the next 64-byte line
        b = _arena.full((2, 3), -1.5)
        c = _arena.zeros_like(b)
        with _arena.packed():  # nested: the same blocks
            d = _arena.full(5, 9, np.int8)
    assert a.base is b.base is c.base is d.base
    addresses = [x.ctypes.data for x in (a, b, c, d)]
    assert all(p % 64 == 0 for p in addresses)
    # 3 bytes, then 48 bytes twice: each next array one cache line on
    assert np.diff(addresses).tolist() == [64, 64, 64]
    assert a.tolist() == [False] * 3 and b.tolist() == [[-1.5] * 3] * 2
    assert c.tolist() == [[0.0] * 3] * 2 and d.dtype == np.int8 and d.tolist() == [9] * 5
    assert b.flags.c_contiguous and b.flags.writeable
    # Writing one array leaves its neighbours alone.
    b[:] = 2.0
    assert c.tolist() == [[0.0] * 3] * 2 and a.tolist() == [False] * 3


@pytest.mark.nojit
def test_a_full_block_starts_a_larger_one_and_large_arrays_get_their_own():
    mib = 1 << 20
    with _arena.packed():
        first = _arena.zeros(1000)  # the first block: 1 MiB
        big = _arena.zeros(3 * mib, np.uint8)  # more than that: a block of its own size
        after = _arena.zeros(10)  # big's block is full: the next doubled size, 4 MiB
    assert first.base.size == mib
    assert big.base is not first.base and big.base.size == 3 * mib + 64
    assert after.base is not big.base and after.base is not first.base
    assert after.base.size == 4 * mib
    big[:] = 1
    assert first.sum() == 0 and after.sum() == 0


@pytest.mark.nojit
def test_packing_is_per_thread():
    seen = {}

    def other():
        seen["base"] = _arena.zeros(4).base

    with _arena.packed():
        t = threading.Thread(target=other)
        t.start()
        t.join()
        mine = _arena.zeros(4)
    assert seen["base"] is None and mine.base is not None


def test_a_batchs_worlds_share_blocks_and_step_as_single_worlds():
    world = c2d.World()
    world.add_body(kind="static").add_box(10, 1)
    for k in range(3):
        world.add_body(position=(0.3 * k, 1 + 1.1 * k)).add_box(1, 1)
    batch = c2d.WorldBatch(world, 4)
    bases = {id(batch._worlds[i]._bodies.pos.base) for i in range(4)}
    assert len(bases) == 1  # four small worlds in the first block
    single = c2d.World.restore(world.snapshot())
    for _ in range(30):
        batch.step(1 / 60)
        single.step(1 / 60)
    ids = [b.id for b in single.bodies]
    got = batch.body_states(ids).position
    want = np.array([b.position for b in single.bodies])
    assert all(np.array_equal(got[i], want) for i in range(4))
