"""A step's fixed cost: what ``world.step`` costs when there is nothing to simulate.

Rows (microseconds per call, the best of several repeats, from one warm process):

- ``one body, world.step``: a world with one falling box, the whole public call;
- ``empty world, world.step``: no bodies at all, sleeping off (with it on, an empty world
  is still: its step skips the compiled call, ``World._still_step``);
- ``still world, world.step``: the same world with sleeping on;
- ``run_step, checked entry``: the compiled step called past the dispatcher, as
  ``World.step`` calls it for a small world (``step.run_listed``, the views in one typed
  list), on the empty world (the kernel's own fixed cost);
- ``no-op kernel, same views``: a compiled function that takes the same views and returns
  at once: the cost of passing the views' arrays in (unboxing each array and counting its
  reference), which the step pays whatever it does.

The Python around the compiled call is the first row minus the third. Run directly:
``python bench/step_overhead.py``.
"""

from __future__ import annotations

import timeit


def _views_count(view) -> int:
    return sum(_views_count(v) if isinstance(v, tuple) else 1 for v in view)


def measure(number: int = 5000, repeat: int = 7) -> dict:
    """Seconds per call of each row (see the module docstring), and the arrays passed."""
    import numba

    import collide2d as c2d
    from collide2d import world as world_module

    def best(fn) -> float:
        return min(timeit.repeat(fn, number=number, repeat=repeat)) / number

    one = c2d.World(gravity=(0, -10))
    one.add_body(position=(0, 5)).add_box(1, 1)
    empty = c2d.World(gravity=(0, -10), sleeping=False)
    still = c2d.World(gravity=(0, -10))
    for world in (one, empty, still):
        for _ in range(3):
            world.step(1 / 60)

    @numba.njit
    def no_op(w, p, t, first):
        return first

    _, w, buffers = empty._begin_step(1 / 60)
    t, p = buffers.view(), empty._params
    no_op(w, p, t, 0)
    no_op_entry = next(iter(no_op.overloads.values())).entry_point
    step_call = world_module._run_step
    held: dict = {}  # the lists the step keeps, as World._listed
    rows = {
        "one body, world.step": best(lambda: one.step(1 / 60)),
        "empty world, world.step": best(lambda: empty.step(1 / 60)),
        "still world, world.step": best(lambda: still.step(1 / 60)),
        "run_step, checked entry": best(lambda: step_call(w, p, t, 0, held)),
        "no-op kernel, same views": best(lambda: no_op_entry(w, p, t, 0)),
    }
    rows["arrays passed"] = _views_count(w) + _views_count(t) + 1
    return rows


if __name__ == "__main__":
    res = measure()
    for name, value in res.items():
        shown = f"{value * 1e6:.2f} us" if isinstance(value, float) else str(value)
        print(f"{name}: {shown}")
