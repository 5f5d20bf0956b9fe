"""Every Example in the public modules' docstrings runs and prints what it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import collide2d

PUBLIC = sorted(
    m.name for m in pkgutil.walk_packages(collide2d.__path__, "collide2d.")
    # Kernels and their twin have no examples; the demo's modules open windows.
    if not any(part in m.name for part in ("._kernels", "._pykernels", ".demo", "__main__")))


@pytest.mark.parametrize("name", PUBLIC)
def test_examples_run(name):
    if name.startswith("collide2d.envs"):
        pytest.importorskip("gymnasium")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                             report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"
