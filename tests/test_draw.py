"""Debug drawing: the camera transform, and what each backend draws where.

Expected pixels are worked out here from the camera's definition (screen x = width / 2 +
(x - cx) * zoom, screen y = height / 2 - (y - cy) * zoom: y up in the world, down on the
screen), never read back from the code. The SVG output is parsed with ElementTree; the
matplotlib backend is checked by its patches (one per convex polygon, circle or capsule).
"""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from numpy.testing import assert_allclose

import collide2d as c2d
from collide2d.draw import (
    Camera,
    DrawOptions,
    MatplotlibRenderer,
    Palette,
    SvgRenderer,
    draw_world,
    fit_camera,
    world_svg,
)

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

SVG = "{http://www.w3.org/2000/svg}"
PAL = Palette()
nojit = pytest.mark.nojit


def hexcolor(rgb) -> str:
    r, g, b = (int(c) for c in rgb[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def points_of(el) -> np.ndarray:
    return np.array([[float(v) for v in p.split(",")] for p in el.get("points").split()])


def path_segments(el) -> np.ndarray:
    """The (k, 2, 2) segments of a path made of 'Mx yLx y' pairs."""
    out = []
    for part in el.get("d").split("M")[1:]:
        a, b = part.split("L")
        out.append([[float(v) for v in a.split()], [float(v) for v in b.split()]])
    return np.array(out)


# ---------------------------------------------------------------------------- camera
@nojit
def test_camera_maps_world_to_screen_with_y_up():
    cam = Camera(center=(2.0, 1.0), zoom=10.0, size=(200, 100))
    # The centre maps to the middle of the screen; +x goes right, +y goes up (smaller row).
    assert_allclose(cam.world_to_screen((2.0, 1.0)), (100.0, 50.0))
    assert_allclose(cam.world_to_screen((5.0, 3.0)), (130.0, 30.0))
    assert_allclose(cam.world_to_screen([[2.0, 0.0], [-8.0, 6.0]]), [[100.0, 60.0], [0.0, 0.0]])
    assert_allclose(cam.screen_to_world((130.0, 30.0)), (5.0, 3.0))
    assert_allclose(cam.vector_to_screen((1.0, 1.0)), (10.0, -10.0))
    assert cam.visible_box() == (-8.0, -4.0, 12.0, 6.0)


@nojit
def test_camera_pan_and_zoom_at_a_pixel():
    cam = Camera(center=(0.0, 0.0), zoom=10.0, size=(200, 100))
    cam.pan(20.0, -10.0)  # drag the picture 20 px right, 10 px up
    # The content follows the drag: the origin is now 20 px right and 10 px up of centre.
    assert_allclose(cam.world_to_screen((0.0, 0.0)), (120.0, 40.0))
    assert_allclose(cam.center, (-2.0, -1.0))
    anchor = cam.screen_to_world((150.0, 20.0))
    cam.zoom_at(2.0, (150.0, 20.0))
    assert cam.zoom == 20.0
    assert_allclose(cam.world_to_screen(anchor), (150.0, 20.0), atol=1e-12)


@nojit
def test_camera_fit_shows_the_box_whole():
    # A 10 x 5 m box on 220 x 120 px: the width binds (22 px/m < 24 px/m).
    cam = Camera.fit((0.0, 0.0), (10.0, 5.0), size=(220, 120), margin=0.0)
    assert cam.zoom == pytest.approx(22.0)
    assert_allclose(cam.center, (5.0, 2.5))
    # With a 10 % margin each side only 80 % of the width is used: 176 / 10.
    assert Camera.fit((0, 0), (10, 5), size=(220, 120), margin=0.1).zoom == pytest.approx(17.6)


@nojit
@pytest.mark.parametrize(
    "kwargs, name, exc",
    [
        (dict(zoom=0.0), "zoom", ValueError),
        (dict(zoom=math.nan), "zoom", ValueError),
        (dict(center=(0.0, math.inf)), "center", ValueError),
        (dict(size=(100, 0)), "size", ValueError),
        (dict(size=(100.5, 50)), "size", ValueError),
        (dict(size=7), "size", TypeError),
    ],
)
def test_camera_rejects_bad_input(kwargs, name, exc):
    with pytest.raises(exc, match=name):
        Camera(**kwargs)


@nojit
def test_fit_camera_covers_every_shape():
    world = c2d.World()
    world.add_body(kind="static").add_box(10.0, 2.0, offset=(0.0, -1.0))
    world.add_body(position=(3.0, 4.0)).add_circle(1.0)
    cam = fit_camera(world, (400, 300), margin=0.0)
    # Bounds: x in [-5, 5], y in [-2, 5]: 10 x 7 m; 40 px/m by width, 42.9 by height.
    assert cam.zoom == pytest.approx(40.0)
    assert_allclose(cam.center, (0.0, 1.5))


# ---------------------------------------------------------------------------- pygame
def _scene():
    """A static 2 x 2 box centred at (3, 2) and a dynamic red ball of radius 1 at (-2, -1)."""
    world = c2d.World(gravity=(0.0, 0.0))
    box = world.add_body(kind="static", position=(3.0, 2.0))
    box.add_box(2.0, 2.0)
    ball = world.add_body(position=(-2.0, -1.0))
    ball.add_circle(1.0)
    return world, box, ball


def test_pygame_draws_bodies_at_their_pixels():
    pygame = pytest.importorskip("pygame")
    from collide2d.draw import PygameRenderer

    world, box, ball = _scene()
    surf = pygame.Surface((200, 120))
    cam = Camera(center=(0.0, 0.0), zoom=20.0, size=(200, 120))
    red = (255, 0, 0)
    draw_world(world, PygameRenderer(surf), cam, DrawOptions(body_colors={ball.id: red}))

    def at(x, y):
        return tuple(surf.get_at((x, y)))[:3]

    # Box centre (3, 2): x = 100 + 3 * 20 = 160, y = 60 - 2 * 20 = 20; half side 20 px.
    assert at(160, 20) == PAL.static
    assert at(175, 35) == PAL.static
    assert at(186, 20) == PAL.background  # 26 px right of the centre: outside
    assert at(160, 45) == PAL.background
    # Ball centre (-2, -1): x = 100 - 40 = 60, y = 60 + 20 = 80; radius 20 px.
    assert at(60, 68) == red  # above the centre (off the angle tick)
    assert at(48, 80) == red
    assert at(60, 57) == PAL.background  # 23 px above: outside
    assert at(100, 60) == PAL.background  # the origin: empty


def test_pygame_follows_the_camera():
    pygame = pytest.importorskip("pygame")
    from collide2d.draw import PygameRenderer

    world, box, _ = _scene()
    surf = pygame.Surface((200, 120))
    cam = Camera(center=(0.0, 0.0), zoom=20.0, size=(200, 120))
    cam.pan(-40.0, 30.0)  # picture moved 40 px left, 30 px down
    draw_world(world, PygameRenderer(surf), cam)
    assert tuple(surf.get_at((120, 50)))[:3] == PAL.static  # (160 - 40, 20 + 30)
    assert tuple(surf.get_at((160, 20)))[:3] == PAL.background
    cam = Camera(center=(3.0, 2.0), zoom=5.0, size=(200, 120))  # box centred, 10 x 10 px
    draw_world(world, PygameRenderer(surf), cam)
    assert tuple(surf.get_at((100, 60)))[:3] == PAL.static
    assert tuple(surf.get_at((100, 67)))[:3] == PAL.background


def test_pygame_sleeping_bodies_are_tinted():
    pygame = pytest.importorskip("pygame")
    from collide2d.draw import PygameRenderer

    world = c2d.World(gravity=(0.0, 0.0))
    body = world.add_body(position=(0.0, 0.0))
    body.add_box(4.0, 4.0)
    body.awake = False
    surf = pygame.Surface((100, 100))
    cam = Camera((0.0, 0.0), 10.0, (100, 100))
    draw_world(world, PygameRenderer(surf), cam, DrawOptions(sleeping=True))
    base = np.array(PAL.dynamic[body.id % len(PAL.dynamic)], float)
    want = base + (np.array(PAL.sleeping, float) - base) * PAL.sleeping_mix
    assert_allclose(tuple(surf.get_at((50, 50)))[:3], np.rint(want), atol=1)
    draw_world(world, PygameRenderer(surf), cam, DrawOptions(sleeping=False))
    assert tuple(surf.get_at((50, 50)))[:3] == tuple(base.astype(int))


def test_pygame_particles_many_dots_are_pixels():
    pygame = pytest.importorskip("pygame")
    from collide2d.draw import PygameRenderer

    surf = pygame.Surface((50, 40))
    r = PygameRenderer(surf)
    r.begin(None, (0, 0, 0))
    r.points(np.array([[3.2, 4.7], [49.9, 39.9], [60.0, 5.0], [-1.0, 2.0]]), (9, 8, 7), 1.0)
    assert tuple(surf.get_at((3, 4)))[:3] == (9, 8, 7)
    assert tuple(surf.get_at((49, 39)))[:3] == (9, 8, 7)  # off-screen dots are dropped


# ---------------------------------------------------------------------------- SVG
@nojit
def test_svg_polygon_and_circle_coordinates():
    world, box, ball = _scene()
    cam = Camera(center=(0.0, 0.0), zoom=20.0, size=(200, 120))
    root = parse(world_svg(world, cam))
    assert root.tag == SVG + "svg" and root.get("width") == "200" and root.get("height") == "120"
    polys = root.findall(SVG + "polygon")
    assert len(polys) == 1
    pts = points_of(polys[0])
    # Box corners (2, 1), (4, 1), (4, 3), (2, 3) -> x 140 / 180, y 40 / 0.
    assert_allclose(sorted(map(tuple, pts)), [(140, 0), (140, 40), (180, 0), (180, 40)])
    assert polys[0].get("fill") == hexcolor(PAL.static)
    circles = root.findall(SVG + "circle")
    assert len(circles) == 1
    c = circles[0]
    assert (float(c.get("cx")), float(c.get("cy")), float(c.get("r"))) == (60.0, 80.0, 20.0)
    assert c.get("fill") == hexcolor(PAL.dynamic[ball.id % len(PAL.dynamic)])


@nojit
def test_svg_concave_shape_outline_skips_the_diagonals():
    world = c2d.World(gravity=(0.0, 0.0))
    L = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]
    shape = world.add_body(kind="static").add_polygon(L)
    assert len(shape.parts) >= 2
    cam = Camera(center=(1.0, 1.0), zoom=10.0, size=(40, 40))
    root = parse(world_svg(world, cam))
    assert len(root.findall(SVG + "polygon")) == len(shape.parts)
    seg = np.concatenate([path_segments(p) for p in root.findall(SVG + "path")])
    # The outline is the L's six edges, in pixels (x = 20 + 10 (x - 1), y = 20 - 10 (y - 1)).
    want = {
        ((10, 30), (30, 30)),
        ((30, 30), (30, 20)),
        ((30, 20), (20, 20)),
        ((20, 20), (20, 10)),
        ((20, 10), (10, 10)),
        ((10, 10), (10, 30)),
    }
    got = {tuple(sorted((tuple(a), tuple(b)))) for a, b in seg.round(6).tolist()}
    assert got == {tuple(sorted(e)) for e in want}


@nojit
def test_svg_culls_shapes_out_of_view():
    world, box, ball = _scene()
    cam = Camera(center=(3.0, 2.0), zoom=20.0, size=(60, 60))  # sees x 1.5..4.5
    root = parse(world_svg(world, cam))
    assert len(root.findall(SVG + "polygon")) == 1
    assert len(root.findall(SVG + "circle")) == 0


def test_svg_contact_points_and_normals():
    world = c2d.World(gravity=(0.0, -10.0))
    world.add_body(kind="static").add_box(10.0, 1.0, offset=(0.0, -0.5))
    world.add_body(position=(0.0, 0.5)).add_box(1.0, 1.0)
    for _ in range(30):
        world.step(1.0 / 60.0)
    cam = Camera(center=(0.0, 0.0), zoom=40.0, size=(200, 200))
    r = SvgRenderer(cam.size)
    draw_world(world, r, cam, DrawOptions(contacts=True, normal_length=16.0))
    root = parse(r.to_string())
    dots = [g for g in root.findall(SVG + "g") if g.get("fill") == hexcolor(PAL.contact_point)]
    assert len(dots) == 1
    pts = np.array([[float(c.get("cx")), float(c.get("cy"))] for c in dots[0]])
    # A box resting on the ground: two points at its bottom corners x = -0.5, 0.5 on y = 0,
    # i.e. pixels x = 100 -+ 20, y = 100 (within 1 px: the contact sits within a few mm).
    assert len(pts) == 2
    assert_allclose(sorted(pts[:, 0]), [80.0, 120.0], atol=1.0)
    assert_allclose(pts[:, 1], [100.0, 100.0], atol=1.0)
    normals = [
        p for p in root.findall(SVG + "path") if p.get("stroke") == hexcolor(PAL.contact_normal)
    ]
    seg = path_segments(normals[0])
    # Normals point from the ground (shape A) to the box: up, 16 px long.
    assert_allclose(seg[:, 1] - seg[:, 0], [[0.0, -16.0]] * 2, atol=0.05)


def test_svg_mtd_arrow_and_overlap_highlight():
    world = c2d.World(gravity=(0.0, 0.0), dynamic_response="sensor")
    a = world.add_body(position=(0.0, 0.0))
    a.add_box(2.0, 2.0)
    b = world.add_body(position=(1.5, 0.0))
    b.add_box(2.0, 2.0)
    world.step(1.0 / 60.0)
    cam = Camera(center=(0.75, 0.0), zoom=20.0, size=(120, 80))
    r = SvgRenderer(cam.size)
    draw_world(world, r, cam, DrawOptions(mtd=True, overlaps=True))
    root = parse(r.to_string())
    arrows = [p for p in root.findall(SVG + "path") if p.get("stroke") == hexcolor(PAL.mtd)]
    assert len(arrows) == 1
    shaft = path_segments(arrows[0])[0]
    # Overlap 0.5 m along x: the MTD moves A (the left box) 0.5 m left = 10 px, and starts
    # in the middle of the overlap (x = 0.75 m -> pixel 60, y = 0 -> pixel 40).
    assert_allclose(shaft, [[60.0, 40.0], [50.0, 40.0]], atol=1e-6)
    outlined = [
        p for p in root.findall(SVG + "polygon") if p.get("stroke") == hexcolor(PAL.overlap)
    ]
    assert len(outlined) == 2


def test_svg_mtd_arrow_for_a_rounded_polygon():
    # Rounded polygons and capsules are world shapes that pack_shapes never makes: the MTD
    # overlay must draw them, not trip over the public pool check (the demo's tumble scene).
    world = c2d.World(gravity=(0.0, 0.0), dynamic_response="sensor")
    a = world.add_body(position=(0.0, 0.0))
    a.add_polygon([(-0.75, -0.75), (0.75, -0.75), (0.75, 0.75), (-0.75, 0.75)], radius=0.25)
    b = world.add_body(position=(1.5, 0.0))
    b.add_box(2.0, 2.0)
    world.step(1.0 / 60.0)
    cam = Camera(center=(0.75, 0.0), zoom=20.0, size=(120, 80))
    r = SvgRenderer(cam.size)
    draw_world(world, r, cam, DrawOptions(mtd=True))
    root = parse(r.to_string())
    arrows = [p for p in root.findall(SVG + "path") if p.get("stroke") == hexcolor(PAL.mtd)]
    assert len(arrows) == 1
    shaft = path_segments(arrows[0])[0]
    # A reaches x = 1 (0.75 + the 0.25 rounding), B starts at 0.5: A moves 0.5 m left.
    assert_allclose(shaft[0] - shaft[1], [10.0, 0.0], atol=1e-6)


@nojit
def test_svg_debug_overlays_draw_boxes():
    world, box, ball = _scene()
    cam = Camera(center=(0.0, 0.0), zoom=20.0, size=(200, 120))
    r = SvgRenderer(cam.size)
    draw_world(world, r, cam, DrawOptions(aabbs=True))
    root = parse(r.to_string())
    boxes = [p for p in root.findall(SVG + "path") if p.get("stroke") == hexcolor(PAL.aabb)]
    seg = path_segments(boxes[0])
    assert seg.shape == (8, 2, 2)  # two shapes, four sides each
    # The ball's box: x -3..-1, y -2..0 -> pixels x 40..80, y 60..100.
    xs, ys = seg[..., 0], seg[..., 1]
    ball_side = xs.max(axis=1) <= 80.0 + 1e-9
    assert_allclose([xs[ball_side].min(), xs[ball_side].max()], [40.0, 80.0])
    assert_allclose([ys[ball_side].min(), ys[ball_side].max()], [60.0, 100.0])


@nojit
def test_svg_text_is_escaped():
    r = SvgRenderer((50, 20))
    r.text((1, 2), "a < b & c", (255, 255, 255))
    root = parse(r.to_string())
    assert root.find(SVG + "text").text == "a < b & c"


# ---------------------------------------------------------------------------- matplotlib
def test_matplotlib_one_patch_per_part_in_metres():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    world = c2d.World(gravity=(0.0, 0.0))
    body = world.add_body(kind="static")
    body.add_box(2.0, 2.0, offset=(3.0, 2.0))
    body.add_polygon([(-1, 0), (1, 0), (0, 1)])
    world.add_body(position=(-2.0, -1.0)).add_circle(1.0)
    world.add_body(position=(0.0, -3.0)).add_segment((-1, 0), (1, 0), radius=0.25)
    concave = world.add_body(position=(-4.0, 2.0)).add_polygon(
        [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]
    )
    fig, ax = plt.subplots()
    cam = Camera(center=(0.0, 0.0), zoom=20.0, size=(400, 300))
    draw_world(world, MatplotlibRenderer(ax, cam.size), cam)
    # Box, triangle, circle, capsule: one patch each; the L: one per convex part.
    assert len(ax.patches) == 4 + len(concave.parts)
    # The axes are in metres, y up: the box patch has the box's corners.
    boxes = [
        p
        for p in ax.patches
        if hasattr(p, "get_xy")
        and np.allclose(
            sorted(map(tuple, np.asarray(p.get_xy())[:4])), [(2, 1), (2, 3), (4, 1), (4, 3)]
        )
    ]
    assert len(boxes) == 1
    circles = [p for p in ax.patches if type(p).__name__ == "Circle"]
    assert len(circles) == 1
    assert_allclose(circles[0].center, (-2.0, -1.0))
    assert circles[0].radius == pytest.approx(1.0)
    assert ax.get_xlim() == pytest.approx((-10.0, 10.0))
    assert ax.get_ylim() == pytest.approx((-7.5, 7.5))
    plt.close(fig)


def test_plot_world_makes_axes():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from collide2d.draw import plot_world

    world, _, _ = _scene()
    ax = plot_world(world, options=DrawOptions.debug())
    assert len(ax.patches) == 2
    plt.close(ax.figure)


def test_particles_are_drawn_where_they_are():
    pygame = pytest.importorskip("pygame")
    from collide2d.draw import PygameRenderer

    world = c2d.World(gravity=(0.0, 0.0))
    world.add_particles([(1.0, 1.0), (-2.0, 0.5)], [(0.0, 0.0), (0.0, 0.0)])
    surf = pygame.Surface((100, 100))
    cam = Camera((0.0, 0.0), 10.0, (100, 100))
    draw_world(world, PygameRenderer(surf), cam, DrawOptions(particle_radius=1.0))
    # (1, 1) -> pixel (60, 40); (-2, 0.5) -> (30, 45).
    assert tuple(surf.get_at((60, 40)))[:3] == PAL.particle
    assert tuple(surf.get_at((30, 45)))[:3] == PAL.particle
    assert tuple(surf.get_at((50, 50)))[:3] == PAL.background


@nojit
def test_svg_tilemap_oneway_and_cross_tiles():
    world = c2d.World(gravity=(0.0, 0.0))
    grid = np.zeros((3, 4), dtype=np.int64)
    grid[0, :] = 1          # solid floor: the map body's boxes
    grid[2, 1] = 2          # a one-way platform tile
    grid[1, 3] = 3          # a crossable tile (water)
    tm = world.add_tilemap(grid, tile_size=1.0, origin=(0.0, 0.0))
    tm.set_response(2, "oneway")
    tm.set_response(3, "cross")
    cam = Camera(center=(2.0, 1.5), zoom=10.0, size=(40, 30))
    r = SvgRenderer(cam.size)
    draw_world(world, r, cam)
    root = parse(r.to_string())
    # Pixels: x = 20 + 10 (x - 2), y = 15 - 10 (y - 1.5).
    tops = [p for p in root.findall(SVG + "path") if p.get("stroke-width") == "3"]
    assert len(tops) == 1
    # Tile (2, 1) covers x 1..2, y 2..3: its top edge y = 3 -> pixel row 0, x 10..20.
    assert_allclose(path_segments(tops[0]), [[[10.0, 0.0], [20.0, 0.0]]])
    polys = [points_of(p) for p in root.findall(SVG + "polygon")]
    # The floor (one box of 4 tiles: x 0..4, y 0..1 -> rows 30..20) and the water tile
    # (x 3..4, y 1..2 -> columns 30..40, rows 20..10).
    spans = sorted((p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()) for p in polys)
    assert_allclose(spans, [(0.0, 20.0, 40.0, 30.0), (30.0, 10.0, 40.0, 20.0)])


# ---------------------------------------------------------------------------- joints
def _joint_scene():
    """One joint of each drawn style, seen by Camera((0, 0), 10, (200, 200)): a world point
    (x, y) is pixel (100 + 10 x, 100 - 10 y)."""
    world = c2d.World(gravity=(0.0, 0.0))
    ground = world.add_body(kind="static")
    ground.add_box(1.0, 1.0, offset=(0.0, -8.0))
    wheel = world.add_body(position=(1.0, 2.0))
    wheel.add_circle(0.5)
    pin = world.add_revolute_joint(ground, wheel, (1.0, 2.0))           # pixel (110, 80)
    bob = world.add_body(position=(-3.0, 1.0))
    bob.add_circle(0.5)
    spring = world.add_distance_joint(ground, bob, (-3.0, 4.0), (-3.0, 1.0),
                                      spring_hertz=2.0)                 # (70, 60) - (70, 90)
    slider = world.add_body(position=(4.0, 0.0))
    slider.add_box(1.0, 1.0)
    rail = world.add_prismatic_joint(ground, slider, (4.0, 0.0), (1.0, 0.0), lower=-1.0,
                                     upper=2.0)                         # axis through (140, 100)
    rod_end = world.add_body(position=(-6.0, -4.0))
    rod_end.add_circle(0.5)
    rod = world.add_distance_joint(ground, rod_end, (-2.0, -4.0), (-6.0, -4.0))
    rod.enabled = False                                                 # (80, 140) - (40, 140)
    return world, pin, spring, rail, rod


def _paths(root, color) -> list:
    return [path_segments(p) for p in root.findall(SVG + "path")
            if p.get("stroke") == hexcolor(color)]


def _dots(root, color) -> np.ndarray:
    groups = [g for g in root.findall(SVG + "g") if g.get("fill") == hexcolor(color)]
    return np.array([[float(c.get("cx")), float(c.get("cy"))]
                     for g in groups for c in g.findall(SVG + "circle")])


@nojit
def test_svg_joints_anchors_lines_springs_axes_and_limits():
    world, *_ = _joint_scene()
    cam = Camera((0.0, 0.0), 10.0, (200, 200))
    root = parse(world_svg(world, cam, DrawOptions(shapes=False)))
    # Straight joints (the revolute's zero-length line, the prismatic's anchors 0 apart)
    # in the joint colour; the disabled rod grey.
    straight = np.concatenate(_paths(root, PAL.joint))
    assert sorted(map(tuple, straight.reshape(-1, 4).tolist())) == [
        (110.0, 80.0, 110.0, 80.0), (140.0, 100.0, 140.0, 100.0)]
    assert_allclose(np.concatenate(_paths(root, PAL.joint_disabled)),
                    [[[80.0, 140.0], [40.0, 140.0]]])
    # The spring: a zigzag from (70, 60) to (70, 90), its teeth 5 px either side.
    (zig,) = _paths(root, PAL.joint_spring)
    assert_allclose(zig[0, 0], (70.0, 60.0))
    assert_allclose(zig[-1, 1], (70.0, 90.0))
    assert_allclose(zig[1:, 0], zig[:-1, 1])            # one connected line
    assert_allclose(np.abs(zig[:, :, 0] - 70.0).max(), 5.0)
    assert zig.shape[0] == 11                            # 2 leads + 8 teeth + 1
    # The prismatic axis spans its limits, -1 m to 2 m from anchor A: x 130 to 160; a red
    # tick across it at each limit.
    assert_allclose(np.concatenate(_paths(root, PAL.joint_axis)),
                    [[[130.0, 100.0], [160.0, 100.0]]])
    ticks = np.concatenate(_paths(root, PAL.joint_limit))
    assert_allclose(sorted(ticks.reshape(-1, 4).tolist()),
                    [[130.0, 95.0, 130.0, 105.0], [160.0, 95.0, 160.0, 105.0]])
    # Anchors as dots: both anchors of each enabled joint; the rod's in grey.
    assert sorted(map(tuple, _dots(root, PAL.joint).tolist())) == sorted(
        [(110.0, 80.0)] * 2 + [(70.0, 60.0), (70.0, 90.0)] + [(140.0, 100.0)] * 2)
    assert sorted(map(tuple, _dots(root, PAL.joint_disabled).tolist())) == [
        (40.0, 140.0), (80.0, 140.0)]


@nojit
def test_svg_joints_follow_their_bodies_and_can_be_left_out():
    world, pin, spring, rail, rod = _joint_scene()
    world.remove(pin.body_b)                              # its joint goes with it
    spring.body_b.position = (-3.0, 0.0)                  # anchor B moves with the body
    rail.lower = None                                     # free below: 20 px of axis
    cam = Camera((0.0, 0.0), 10.0, (200, 200))
    root = parse(world_svg(world, cam, DrawOptions(shapes=False)))
    (zig,) = _paths(root, PAL.joint_spring)
    assert_allclose(zig[-1, 1], (70.0, 100.0))
    assert_allclose(np.concatenate(_paths(root, PAL.joint_axis)),
                    [[[120.0, 100.0], [160.0, 100.0]]])  # 20 px down the axis, up to 2 m
    assert_allclose(np.concatenate(_paths(root, PAL.joint_limit)),
                    [[[160.0, 95.0], [160.0, 105.0]]])
    assert (110.0, 80.0) not in map(tuple, _dots(root, PAL.joint).tolist())
    root = parse(world_svg(world, cam, DrawOptions(shapes=False, joints=False)))
    colours = {hexcolor(c) for c in (PAL.joint, PAL.joint_spring, PAL.joint_axis,
                                     PAL.joint_limit, PAL.joint_disabled)}
    assert not [e for e in root.iter() if e.get("stroke") in colours
                or e.get("fill") in colours]


def test_pygame_and_matplotlib_draw_joints():
    pygame = pytest.importorskip("pygame")
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from collide2d.draw import PygameRenderer

    world, *_ = _joint_scene()
    cam = Camera((0.0, 0.0), 10.0, (200, 200))
    surf = pygame.Surface((200, 200))
    draw_world(world, PygameRenderer(surf), cam, DrawOptions(shapes=False))
    # The grey rod from (80, 140) to (40, 140), away from its end dots; the axis at y 100.
    assert tuple(surf.get_at((60, 140)))[:3] == PAL.joint_disabled
    assert tuple(surf.get_at((150, 100)))[:3] == PAL.joint_axis
    assert tuple(surf.get_at((60, 120)))[:3] == PAL.background
    fig, ax = plt.subplots()
    draw_world(world, MatplotlibRenderer(ax, cam.size), cam, DrawOptions(shapes=False))
    # Line batches are in metres: the rod's segment is there, from (-2, -4) to (-6, -4).
    segs = np.concatenate([np.asarray(c.get_segments()).reshape(-1, 2, 2)
                           for c in ax.collections if hasattr(c, "get_segments")])
    assert np.isclose(segs, [[-2.0, -4.0], [-6.0, -4.0]]).all(axis=(1, 2)).any()
    plt.close(fig)
