"""The view transform: world metres (y up) to screen pixels (y down), with zoom and pan.

A screen point ``(sx, sy)`` is measured in pixels from the top-left corner of the image,
x to the right and y downwards, as pygame, SVG and image files count them. The camera looks
at ``center`` (m) with ``zoom`` pixels per metre, so::

    sx = width / 2 + (x - center_x) * zoom
    sy = height / 2 - (y - center_y) * zoom

A point at ``sx = 400.0`` lies on the left edge of pixel column 400 (pixel ``i`` covers
``[i, i + 1)``).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as V


class Camera:
    """World-to-screen transform with y up, zoom and pan.

    Parameters
    ----------
    center : (x, y)
        World point (m) shown at the centre of the screen.
    zoom : float
        Pixels per metre (> 0).
    size : (width, height)
        Screen size in pixels (ints > 0).

    Example
    -------
    >>> cam = Camera(center=(0, 0), zoom=10, size=(200, 100))
    >>> cam.world_to_screen((1, 2)).tolist()     # 10 px right of centre, 20 px up
    [110.0, 30.0]
    >>> cam.screen_to_world((110, 30)).tolist()
    [1.0, 2.0]
    >>> cam.zoom_at(2.0, (110, 30))              # zoom in, keeping (1, 2) under the pixel
    >>> cam.world_to_screen((1, 2)).tolist(), cam.zoom
    ([110.0, 30.0], 20.0)
    """

    def __init__(self, center=(0.0, 0.0), zoom: float = 20.0, size=(800, 600)):
        self.center = center
        self.zoom = zoom
        self.size = size

    # ------------------------------------------------------------------ properties
    @property
    def center(self) -> np.ndarray:
        """World point (m) at the centre of the screen."""
        return self._center.copy()

    @center.setter
    def center(self, value):
        self._center = V.vector("center", value)

    @property
    def zoom(self) -> float:
        """Pixels per metre."""
        return self._zoom

    @zoom.setter
    def zoom(self, value):
        self._zoom = V.finite_scalar("zoom", value, positive=True)

    @property
    def size(self) -> tuple[int, int]:
        """Screen (width, height) in pixels."""
        return self._size

    @size.setter
    def size(self, value):
        try:
            w, h = value
        except (TypeError, ValueError):
            raise TypeError(f"size: expected (width, height) in pixels, got {value!r}") from None
        for name, v in (("size[0]", w), ("size[1]", h)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v <= 0:
                raise ValueError(f"{name}: expected a pixel count (int > 0), got {v!r}")
        self._size = (int(w), int(h))

    # ------------------------------------------------------------------ transforms
    def world_to_screen(self, points) -> np.ndarray:
        """World points (..., 2) in metres to screen pixels (..., 2), float64."""
        p = np.asarray(points, dtype=np.float64)
        out = np.empty(p.shape)
        out[..., 0] = 0.5 * self._size[0] + (p[..., 0] - self._center[0]) * self._zoom
        out[..., 1] = 0.5 * self._size[1] - (p[..., 1] - self._center[1]) * self._zoom
        return out

    def screen_to_world(self, pixels) -> np.ndarray:
        """Screen pixels (..., 2) to world points (..., 2) in metres."""
        s = np.asarray(pixels, dtype=np.float64)
        out = np.empty(s.shape)
        out[..., 0] = self._center[0] + (s[..., 0] - 0.5 * self._size[0]) / self._zoom
        out[..., 1] = self._center[1] - (s[..., 1] - 0.5 * self._size[1]) / self._zoom
        return out

    def vector_to_screen(self, vectors) -> np.ndarray:
        """World directions (..., 2) to screen directions (y flipped, scaled by zoom)."""
        v = np.asarray(vectors, dtype=np.float64)
        out = np.empty(v.shape)
        out[..., 0] = v[..., 0] * self._zoom
        out[..., 1] = -v[..., 1] * self._zoom
        return out

    def visible_box(self) -> tuple[float, float, float, float]:
        """World box (min_x, min_y, max_x, max_y) that the screen shows."""
        hw = 0.5 * self._size[0] / self._zoom
        hh = 0.5 * self._size[1] / self._zoom
        cx, cy = self._center
        return (float(cx - hw), float(cy - hh), float(cx + hw), float(cy + hh))

    # ------------------------------------------------------------------ moving the view
    def pan(self, dx: float, dy: float) -> None:
        """Move the picture by (dx, dy) pixels, as a mouse drag does (content follows)."""
        dx = V.finite_scalar("dx", dx)
        dy = V.finite_scalar("dy", dy)
        self._center = self._center + np.array([-dx / self._zoom, dy / self._zoom])

    def zoom_at(self, factor: float, pixel=None) -> None:
        """Multiply the zoom by ``factor``, keeping the world point under ``pixel`` (default:
        the screen centre) where it is."""
        f = V.finite_scalar("factor", factor, positive=True)
        if pixel is None:
            self._zoom *= f
            return
        anchor = self.screen_to_world(V.vector("pixel", pixel))
        self._zoom *= f
        # Shift so that the anchor maps back to the same pixel.
        moved = self.world_to_screen(anchor)
        self.pan(float(pixel[0] - moved[0]), float(pixel[1] - moved[1]))

    @classmethod
    def fit(cls, lower, upper, size=(800, 600), margin: float = 0.05) -> Camera:
        """The camera that shows the world box ``lower``..``upper`` (m) whole, centred, with
        ``margin`` (a fraction of the screen) left free on every side.

        >>> Camera.fit((0, 0), (10, 5), size=(220, 120), margin=0.0).zoom   # width-bound
        22.0
        """
        lo = V.vector("lower", lower)
        hi = V.vector("upper", upper)
        m = V.finite_scalar("margin", margin, nonnegative=True)
        if m >= 0.5:
            raise ValueError(f"margin: must be < 0.5 (a fraction of the screen), got {m}")
        cam = cls(0.5 * (lo + hi), 1.0, size)
        span = np.maximum(hi - lo, 1e-9)
        w, h = cam.size
        cam.zoom = float(min(w * (1 - 2 * m) / span[0], h * (1 - 2 * m) / span[1]))
        return cam

    def copy(self) -> Camera:
        return Camera(self._center, self._zoom, self._size)

    def __repr__(self) -> str:
        c = self._center
        return f"Camera(center=({c[0]:.4g}, {c[1]:.4g}), zoom={self._zoom:.4g}, size={self._size})"
