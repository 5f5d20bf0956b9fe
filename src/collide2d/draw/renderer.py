"""The renderer protocol every drawing backend implements, and the colour palette.

Renderers work in screen pixels (x right, y down, origin at the top-left corner); the
:class:`~collide2d.draw.Camera` turns world metres into pixels before a renderer sees them.
Colours are ``(r, g, b)`` or ``(r, g, b, a)`` with 0..255 channels. A method that takes
``fill`` and ``outline`` draws only what is not ``None``.

A new backend needs the nine methods of :class:`Renderer`; nothing else in collide2d knows
which backend it talks to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

Color = tuple


@runtime_checkable
class Renderer(Protocol):
    """What :func:`~collide2d.draw.draw_world` and the demo need from a backend.

    ``points`` arguments are (n, 2) arrays of pixels; ``segments`` is (k, 2, 2) (start, end
    per row). Widths and radii are in pixels.
    """

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the drawing area in pixels."""

    def begin(self, camera, background: Color | None = None) -> None:
        """Start a picture seen through ``camera``; clear it to ``background`` if given."""

    def polygon(self, points, fill: Color | None = None, outline: Color | None = None,
                width: float = 1.0) -> None:
        """A closed polygon, filled and/or outlined."""

    def polyline(self, points, color: Color, width: float = 1.0, closed: bool = False) -> None:
        """Connected line segments through ``points``."""

    def lines(self, segments, color, width: float = 1.0) -> None:
        """Separate segments; ``color`` is one colour or one per segment ((k, 3|4) array)."""

    def circle(self, center, radius: float, fill: Color | None = None,
               outline: Color | None = None, width: float = 1.0) -> None:
        """A circle of ``radius`` pixels."""

    def points(self, points, color: Color, radius: float = 2.0) -> None:
        """Dots (small filled discs) at ``points``."""

    def text(self, position, text: str, color: Color, size: int = 14,
             anchor: str = "topleft") -> None:
        """One line of text; ``anchor`` is "topleft", "center" or "topright"."""

    def text_size(self, text: str, size: int = 14) -> tuple[int, int]:
        """(width, height) in pixels that :meth:`text` would cover."""


def color_array(colors, n: int) -> np.ndarray:
    """One colour or n colours as an (n, 4) uint8 array (alpha 255 where not given)."""
    c = np.asarray(colors, dtype=np.float64)
    if c.ndim == 1:
        c = np.broadcast_to(c, (n, c.shape[0]))
    if c.shape[1] == 3:
        c = np.concatenate((c, np.full((c.shape[0], 1), 255.0)), axis=1)
    return np.clip(np.rint(c), 0, 255).astype(np.uint8)


def mix(a, b, t: float) -> tuple[int, ...]:
    """The colour ``t`` of the way from ``a`` to ``b`` (channel-wise)."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b, strict=False))


@dataclass
class Palette:
    """Colours of the debug drawing (RGB, 0..255). The default is a dark theme."""

    background: Color = (22, 24, 31)
    static: Color = (68, 76, 92)
    kinematic: Color = (112, 92, 168)
    #: Dynamic bodies cycle through these by body id.
    dynamic: tuple = field(default_factory=lambda: (
        (231, 111, 81), (244, 162, 97), (233, 196, 106), (42, 157, 143),
        (98, 141, 238), (181, 131, 214), (126, 200, 120), (239, 131, 168)))
    #: Sleeping bodies are blended this far towards ``sleeping``.
    sleeping: Color = (96, 104, 122)
    sleeping_mix: float = 0.65
    #: Outlines are the fill blended this far towards white.
    outline_mix: float = 0.45
    sensor: Color = (250, 214, 80)
    aabb: Color = (88, 204, 128)
    contact_point: Color = (255, 72, 72)
    contact_normal: Color = (255, 214, 64)
    mtd: Color = (96, 214, 255)
    overlap: Color = (255, 138, 40)
    center: Color = (235, 235, 240)
    velocity: Color = (140, 230, 255)
    particle: Color = (214, 226, 240)
    #: Joints: the line between the anchors and the anchors; prismatic and wheel axes;
    #: limit marks; springs (zigzags); disabled or broken joints.
    joint: Color = (120, 224, 176)
    joint_axis: Color = (160, 170, 255)
    joint_limit: Color = (255, 96, 96)
    joint_spring: Color = (255, 176, 92)
    joint_disabled: Color = (120, 124, 136)
    text: Color = (232, 234, 242)
