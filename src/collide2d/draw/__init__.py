"""Debug drawing of a collide2d world: pygame surfaces, matplotlib axes, SVG text.

``draw_world(world, renderer, camera, options)`` draws every shape (coloured by kind; see
:class:`DrawOptions` for the overlays: bounding boxes, contact points and normals, MTD
vectors, sleeping bodies, sensor overlaps). A :class:`Camera` maps world metres (y up) to
screen pixels (y down) with zoom and pan. Renderers implement the small
:class:`Renderer` protocol; three come with collide2d:

* :class:`PygameRenderer` (pygame-ce; on a window or an off-screen ``Surface``),
* :class:`MatplotlibRenderer` (an ``Axes``, in metres; for notebooks),
* :class:`SvgRenderer` (SVG text; no dependency).

pygame and matplotlib are imported only when their renderer is created.

Example
-------
>>> import collide2d as c2d
>>> from collide2d.draw import Camera, DrawOptions, SvgRenderer, draw_world
>>> world = c2d.World()
>>> _ = world.add_body(kind="static").add_box(10, 1)
>>> _ = world.add_body(position=(0, 2)).add_circle(0.5)
>>> svg = SvgRenderer((200, 100))
>>> cam = Camera(center=(0, 1), zoom=15, size=(200, 100))
>>> _ = draw_world(world, svg, cam, DrawOptions.debug())
>>> svg.to_string().startswith("<svg")
True
"""

from .camera import Camera
from .debug import DrawOptions, draw_world, fit_camera, overlay_text, world_bounds
from .matplotlib_backend import MatplotlibRenderer
from .pygame_backend import PygameRenderer
from .renderer import Palette, Renderer, mix
from .svg import SvgRenderer


def plot_world(world, ax=None, camera=None, options=None, size=(800, 600)):
    """Draw ``world`` on a matplotlib ``ax`` (a new figure if None) and return the axes."""
    size = camera.size if camera is not None else size
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(size[0] / 100, size[1] / 100), dpi=100)
    draw_world(world, MatplotlibRenderer(ax, size), camera, options)
    return ax


def world_svg(world, camera=None, options=None, size=(800, 600)) -> str:
    """The world drawn as an SVG document (text)."""
    r = SvgRenderer(camera.size if camera is not None else size)
    draw_world(world, r, camera, options)
    return r.to_string()


__all__ = [
    "Camera", "DrawOptions", "Palette", "Renderer", "PygameRenderer", "MatplotlibRenderer",
    "SvgRenderer", "draw_world", "fit_camera", "world_bounds", "overlay_text", "plot_world",
    "world_svg", "mix",
]
