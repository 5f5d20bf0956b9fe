"""matplotlib backend: draws into an ``Axes`` in world metres (y up), for notebooks.

The renderer protocol speaks pixels; this backend maps them back to metres through the
camera, so the axes' ticks read in metres and matplotlib handles zooming. Polygons and
circles become patches (one per shape), batches of lines one ``LineCollection``, dots one
scatter; pixel widths become points (1 px = 72 / dpi pt).
"""

from __future__ import annotations

import numpy as np

from .renderer import color_array


def _rgba(color):
    if color is None:
        return "none"
    c = tuple(float(x) / 255.0 for x in color)
    return c if len(c) == 4 else c + (1.0,)


class MatplotlibRenderer:
    """Renderer over a matplotlib ``Axes``.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    size : (width, height) in pixels of the camera's screen (sets the aspect and the scale
        of pixel widths; the axes may be any size on the page).

    Example
    -------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import collide2d as c2d
    >>> from collide2d.draw import MatplotlibRenderer, draw_world
    >>> world = c2d.World()
    >>> _ = world.add_body(position=(0, 1)).add_box(2, 2)
    >>> _ = world.add_body(position=(3, 1)).add_circle(1)
    >>> fig, ax = plt.subplots()
    >>> _ = draw_world(world, MatplotlibRenderer(ax))
    >>> len(ax.patches)      # one polygon and one circle
    2
    >>> plt.close(fig)
    """

    def __init__(self, ax, size=(800, 600)):
        self.ax = ax
        w, h = size
        self._size = (int(w), int(h))
        self.camera = None
        self._z = 1.0

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    def begin(self, camera, background=None) -> None:
        self.camera = camera
        x0, y0, x1, y1 = camera.visible_box()
        self.ax.set_xlim(x0, x1)
        self.ax.set_ylim(y0, y1)
        self.ax.set_aspect("equal")
        if background is not None:
            self.ax.set_facecolor(_rgba(background))

    # ------------------------------------------------------------------ helpers
    def _w(self, pixels):
        """Pixel coordinates to world metres."""
        return self.camera.screen_to_world(np.asarray(pixels, dtype=np.float64))

    def _pt(self, width) -> float:
        return float(width) * 72.0 / self.ax.figure.dpi

    def _next_z(self) -> float:
        # Later calls draw on top, as on a canvas.
        self._z += 1e-3
        return self._z

    # ------------------------------------------------------------------ protocol
    def polygon(self, points, fill=None, outline=None, width=1.0) -> None:
        from matplotlib.patches import Polygon

        p = self._w(np.asarray(points, dtype=np.float64).reshape(-1, 2))
        self.ax.add_patch(Polygon(p, closed=True, facecolor=_rgba(fill),
                                  edgecolor=_rgba(outline),
                                  linewidth=self._pt(width) if outline is not None else 0.0,
                                  zorder=self._next_z()))

    def polyline(self, points, color, width=1.0, closed=False) -> None:
        p = self._w(np.asarray(points, dtype=np.float64).reshape(-1, 2))
        if closed:
            p = np.vstack((p, p[:1]))
        self.ax.plot(p[:, 0], p[:, 1], color=_rgba(color), linewidth=self._pt(width),
                     zorder=self._next_z())

    def lines(self, segments, color, width=1.0) -> None:
        from matplotlib.collections import LineCollection

        seg = np.asarray(segments, dtype=np.float64).reshape(-1, 2, 2)
        if seg.shape[0] == 0:
            return
        cols = color_array(color, seg.shape[0]) / 255.0
        self.ax.add_collection(LineCollection(self._w(seg), colors=cols,
                                              linewidths=self._pt(width),
                                              zorder=self._next_z()), autolim=False)

    def circle(self, center, radius, fill=None, outline=None, width=1.0) -> None:
        from matplotlib.patches import Circle

        c = self._w(np.asarray(center, dtype=np.float64))
        self.ax.add_patch(Circle(tuple(c), float(radius) / self.camera.zoom,
                                 facecolor=_rgba(fill), edgecolor=_rgba(outline),
                                 linewidth=self._pt(width) if outline is not None else 0.0,
                                 zorder=self._next_z()))

    def points(self, points, color, radius=2.0) -> None:
        p = self._w(np.asarray(points, dtype=np.float64).reshape(-1, 2))
        if p.shape[0] == 0:
            return
        # scatter's size is an area in pt^2.
        self.ax.scatter(p[:, 0], p[:, 1], s=(2.0 * self._pt(radius)) ** 2, c=[_rgba(color)],
                        linewidths=0, zorder=self._next_z())

    def text(self, position, text, color, size=14, anchor="topleft") -> None:
        x, y = self._w(np.asarray(position, dtype=np.float64))
        ha = {"topleft": "left", "center": "center", "topright": "right"}.get(anchor, "left")
        va = "center" if anchor == "center" else "top"
        self.ax.text(x, y, text, color=_rgba(color), fontsize=self._pt(size), ha=ha, va=va,
                     zorder=self._next_z())

    def text_size(self, text, size=14) -> tuple[int, int]:
        return (int(0.6 * size * len(text)) + 1, int(1.25 * size))
