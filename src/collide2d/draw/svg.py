"""SVG backend: the picture as SVG text (no dependency), for files, docs and notebooks.

SVG counts pixels like the screen (y down), so coordinates go through unchanged.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

import numpy as np

from .renderer import color_array

_ANCHORS = {"topleft": "start", "center": "middle", "topright": "end"}


def _paint(color) -> str:
    r, g, b = (int(c) for c in color[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def _alpha(color) -> float:
    return 1.0 if len(color) < 4 else int(color[3]) / 255.0


def _style(fill, outline, width) -> str:
    parts = []
    if fill is None:
        parts.append('fill="none"')
    else:
        parts.append(f'fill="{_paint(fill)}"')
        if _alpha(fill) < 1.0:
            parts.append(f'fill-opacity="{_alpha(fill):.3g}"')
    if outline is not None:
        parts.append(f'stroke="{_paint(outline)}" stroke-width="{width:.3g}"')
        if _alpha(outline) < 1.0:
            parts.append(f'stroke-opacity="{_alpha(outline):.3g}"')
    return " ".join(parts)


def _pts(points) -> str:
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in p)


class SvgRenderer:
    """Collects drawing calls as SVG elements; :meth:`to_string` gives the document.

    Parameters
    ----------
    size : (width, height) in pixels.

    Example
    -------
    >>> r = SvgRenderer((64, 32))
    >>> r.circle((10, 10), 4, fill=(255, 0, 0))
    >>> r.to_string().splitlines()[1]
    '<circle cx="10.00" cy="10.00" r="4.00" fill="#ff0000"/>'
    """

    def __init__(self, size=(800, 600)):
        w, h = size
        self._size = (int(w), int(h))
        self.elements: list[str] = []

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    def begin(self, camera, background=None) -> None:
        self.elements.clear()
        if background is not None:
            w, h = self._size
            self.elements.append(f'<rect x="0" y="0" width="{w}" height="{h}" '
                                 f'{_style(background, None, 0)}/>')

    def polygon(self, points, fill=None, outline=None, width=1.0) -> None:
        self.elements.append(f'<polygon points="{_pts(points)}" {_style(fill, outline, width)}/>')

    def polyline(self, points, color, width=1.0, closed=False) -> None:
        tag = "polygon" if closed else "polyline"
        self.elements.append(f'<{tag} points="{_pts(points)}" {_style(None, color, width)}/>')

    def lines(self, segments, color, width=1.0) -> None:
        seg = np.asarray(segments, dtype=np.float64).reshape(-1, 2, 2)
        if seg.shape[0] == 0:
            return
        cols = color_array(color, seg.shape[0])
        # One <path> per colour keeps the file small.
        keys, inverse = np.unique(cols, axis=0, return_inverse=True)
        inverse = inverse.ravel()
        for k, col in enumerate(keys):
            d = " ".join(f"M{a[0]:.2f} {a[1]:.2f}L{b[0]:.2f} {b[1]:.2f}"
                         for a, b in seg[inverse == k])
            self.elements.append(f'<path d="{d}" {_style(None, tuple(col), width)} '
                                 'stroke-linecap="round"/>')

    def circle(self, center, radius, fill=None, outline=None, width=1.0) -> None:
        x, y = float(center[0]), float(center[1])
        self.elements.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{float(radius):.2f}" '
                             f'{_style(fill, outline, width)}/>')

    def points(self, points, color, radius=2.0) -> None:
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if p.shape[0] == 0:
            return
        body = "".join(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{radius:.3g}"/>' for x, y in p)
        self.elements.append(f'<g {_style(color, None, 0)}>{body}</g>')

    def text(self, position, text, color, size=14, anchor="topleft") -> None:
        x, y = float(position[0]), float(position[1])
        baseline = "central" if anchor == "center" else "hanging"
        self.elements.append(
            f'<text x="{x:.1f}" y="{y:.1f}" font-family="DejaVu Sans, Arial, sans-serif" '
            f'font-size="{size}" text-anchor="{_ANCHORS.get(anchor, "start")}" '
            f'dominant-baseline="{baseline}" {_style(color, None, 0)}>{escape(text)}</text>')

    def text_size(self, text, size=14) -> tuple[int, int]:
        return (int(0.6 * size * len(text)) + 1, int(1.25 * size))

    def to_string(self) -> str:
        """The SVG document."""
        w, h = self._size
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}">')
        return "\n".join([head, *self.elements, "</svg>"]) + "\n"

    def save(self, path) -> None:
        """Write the SVG document to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_string())
