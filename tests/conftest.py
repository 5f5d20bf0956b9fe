"""Test configuration: hypothesis profiles.

``HYPOTHESIS_PROFILE=ci`` (the default) is quick and reproducible; ``HYPOTHESIS_PROFILE=long``
runs many more examples for a soak before a release.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# The suite runs the compiled kernels from the start (compiling in-process when the cache is
# cold); tests of the tiers choose theirs, and subprocess tests set this themselves.
os.environ.setdefault("COLLIDE2D_BACKGROUND_COMPILE", "0")

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
