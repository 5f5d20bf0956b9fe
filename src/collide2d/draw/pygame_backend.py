"""pygame(-ce) backend: draws on any ``pygame.Surface``, a window's or an off-screen one.

No display is needed: ``PygameRenderer(pygame.Surface((w, h)))`` draws off-screen, which is
how the demo writes PNG and GIF files on a machine without one. Outlines and circles are
antialiased; colours with alpha < 255 are blended through a small temporary surface.
"""

from __future__ import annotations

import os

import numpy as np

from .renderer import color_array


def _pygame():
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("collide2d.draw: the pygame backend needs pygame-ce; "
                          "pip install 'collide2d[demo]' (or pip install pygame-ce)") from None
    return pygame


class PygameRenderer:
    """Renderer over a ``pygame.Surface``.

    Example
    -------
    >>> import pygame
    >>> from collide2d.draw import PygameRenderer
    >>> surf = pygame.Surface((40, 20))
    >>> r = PygameRenderer(surf)
    >>> r.circle((10, 10), 5, fill=(255, 0, 0))
    >>> tuple(surf.get_at((10, 10)))
    (255, 0, 0, 255)
    """

    def __init__(self, surface):
        self.pg = _pygame()
        self.surface = surface
        self._fonts: dict[int, object] = {}

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def begin(self, camera, background=None) -> None:
        if background is not None:
            self.surface.fill(background[:3])

    # ------------------------------------------------------------------ helpers
    def _blend(self, draw, points, color, extra=0.0):
        """Run ``draw(surface, color, offset)`` on a temporary surface covering ``points``
        and blit it with alpha: pygame's draw functions do not blend."""
        pg = self.pg
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        lo = np.floor(p.min(axis=0) - extra - 1).astype(int)
        hi = np.ceil(p.max(axis=0) + extra + 1).astype(int)
        w, h = self.size
        lo = np.maximum(lo, 0)
        hi = np.minimum(hi, (w, h))
        if np.any(hi <= lo):
            return
        tmp = pg.Surface((int(hi[0] - lo[0]), int(hi[1] - lo[1])), pg.SRCALPHA)
        draw(tmp, tuple(int(c) for c in color), lo.astype(np.float64))
        self.surface.blit(tmp, (int(lo[0]), int(lo[1])))

    @staticmethod
    def _opaque(color) -> bool:
        return len(color) < 4 or int(color[3]) >= 255

    # ------------------------------------------------------------------ protocol
    def polygon(self, points, fill=None, outline=None, width=1.0) -> None:
        pg = self.pg
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if p.shape[0] < 3:
            return
        pts = p.tolist()
        if fill is not None:
            if self._opaque(fill):
                pg.draw.polygon(self.surface, fill[:3], pts)
            else:
                self._blend(lambda s, c, o: pg.draw.polygon(s, c, (p - o).tolist()), p, fill)
        if outline is not None:
            self.polyline(p, outline, width, closed=True)

    def polyline(self, points, color, width=1.0, closed=False) -> None:
        pg = self.pg
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2).tolist()
        if len(pts) < 2:
            return
        if width <= 1.0:
            pg.draw.aalines(self.surface, color[:3], closed, pts)
        else:
            pg.draw.lines(self.surface, color[:3], closed, pts, int(round(width)))

    def lines(self, segments, color, width=1.0) -> None:
        pg = self.pg
        seg = np.asarray(segments, dtype=np.float64).reshape(-1, 2, 2)
        if seg.shape[0] == 0:
            return
        cols = color_array(color, seg.shape[0])[:, :3].tolist()
        w = max(1, int(round(width)))
        surf = self.surface
        # Axis-aligned lines (grids, boxes) need no antialiasing; plain lines are faster.
        straight = ((seg[:, 0, 0] == seg[:, 1, 0]) | (seg[:, 0, 1] == seg[:, 1, 1])).tolist()
        aaline, line = pg.draw.aaline, pg.draw.line
        for (a, b), c, s in zip(seg.tolist(), cols, straight, strict=True):
            if s:
                line(surf, c, a, b, w)
            else:
                aaline(surf, c, a, b, w)

    def circle(self, center, radius, fill=None, outline=None, width=1.0) -> None:
        pg = self.pg
        c = (float(center[0]), float(center[1]))
        r = max(float(radius), 0.5)
        if fill is not None:
            if self._opaque(fill):
                pg.draw.aacircle(self.surface, fill[:3], c, r)
            else:
                self._blend(lambda s, col, o: pg.draw.aacircle(s, col, (c[0] - o[0],
                                                                     c[1] - o[1]), r),
                            np.array([c]), fill, extra=r)
        if outline is not None:
            pg.draw.aacircle(self.surface, outline[:3], c, r, max(1, int(round(width))))

    def points(self, points, color, radius=2.0) -> None:
        pg = self.pg
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if p.shape[0] == 0:
            return
        col = tuple(int(c) for c in color[:3])
        if radius <= 1.0:
            # Many particles: write pixels in one vectorised assignment.
            w, h = self.size
            ij = np.floor(p).astype(np.int64)
            ok = (ij[:, 0] >= 0) & (ij[:, 0] < w) & (ij[:, 1] >= 0) & (ij[:, 1] < h)
            px = pg.surfarray.pixels3d(self.surface)
            px[ij[ok, 0], ij[ok, 1]] = col
            del px
            return
        # Dots are small: plain discs, several times faster than antialiased ones.
        surf = self.surface
        circle = pg.draw.circle
        for x, y in p.tolist():
            circle(surf, col, (x, y), radius)

    def _font(self, size: int):
        f = self._fonts.get(size)
        if f is None:
            pg = self.pg
            if not pg.font.get_init():
                pg.font.init()
            f = self._fonts[size] = pg.font.Font(None, int(size))
        return f

    def text(self, position, text, color, size=14, anchor="topleft") -> None:
        img = self._font(size).render(str(text), True, color[:3])
        x, y = float(position[0]), float(position[1])
        if anchor == "center":
            x -= img.get_width() / 2
            y -= img.get_height() / 2
        elif anchor == "topright":
            x -= img.get_width()
        self.surface.blit(img, (int(round(x)), int(round(y))))

    def text_size(self, text, size=14) -> tuple[int, int]:
        return self._font(size).size(str(text))
