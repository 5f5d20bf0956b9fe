"""Debug drawing of a whole world: shapes coloured by kind, and optional overlays.

One vectorised pass over the world's public arrays (``world.shape_geometry()``,
``world.joint_geometry()`` and the batch getters) gathers what to draw (which convex parts
are in view, their colours, their vertices in pixels); then each shape is one renderer call
and each overlay (joints, boxes, contact points, normals, MTD arrows) is one batched call.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from .camera import Camera
from .renderer import Palette


@dataclass
class DrawOptions:
    """What :func:`draw_world` draws. Lengths and widths are in pixels.

    Parameters
    ----------
    shapes : bodies' shapes, filled and outlined, coloured by kind (static, kinematic,
        dynamic by body id; sensors see-through).
    aabbs : each convex part's bounding box.
    contacts : contact points (dots) and normals (from shape A to shape B).
    mtd : minimum translation vectors of overlapping pairs (arrow: how to move shape A out
        of shape B, true length).
    sleeping : tint sleeping bodies grey.
    overlaps : outline shapes in a sensor overlap (or dynamic pairs of a world with
        ``dynamic_response="sensor"``) in the overlap colour.
    centers : body origins as dots; ``velocities``: velocity vectors (0.25 s of travel).
    particles : particle systems' live particles as dots.
    tiles : tile-map tiles that rigid bodies do not meet: "oneway" tiles as their top edge,
        "cross" tiles see-through (solid tiles are boxes of the map's body, drawn as shapes).
    joints : joints as their two anchors (dots) and the line between them; a spring (a
        distance or wheel joint with ``spring_hertz > 0``) as a zigzag; prismatic and wheel
        joints' axis through anchor A, from the lower to the upper limit where set (limits
        as red ticks), ``joint_axis_length`` pixels each way where not; disabled or broken
        joints grey.
    body_colors : fill colour per body: a mapping ``{body or body.id: (r, g, b)}``.
    background : clear to the palette's background first (False: draw over what is there).
    """

    shapes: bool = True
    aabbs: bool = False
    contacts: bool = False
    mtd: bool = False
    sleeping: bool = False
    overlaps: bool = False
    centers: bool = False
    velocities: bool = False
    particles: bool = True
    tiles: bool = True
    joints: bool = True
    body_colors: Mapping | None = None
    background: bool = True
    palette: Palette = field(default_factory=Palette)
    line_width: float = 1.0
    normal_length: float = 16.0
    point_radius: float = 3.0
    particle_radius: float = 1.5
    joint_axis_length: float = 20.0
    #: Half the width of a spring's zigzag (pixels).
    spring_width: float = 5.0
    #: Opacity (0..255) of sensors' fill in the sensor colour (0: outline only).
    sensor_alpha: int = 48
    cull: bool = True

    @classmethod
    def debug(cls, **overrides) -> DrawOptions:
        """Every overlay on (the demo's ``d`` key)."""
        on = dict(aabbs=True, contacts=True, mtd=True, sleeping=True, overlaps=True,
                  centers=True)
        on.update(overrides)
        return cls(**on)


def world_bounds(world) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper corners (m) of the box around every live shape (a unit box at the
    origin for an empty world)."""
    a = world.shape_geometry().aabb
    if a.shape[0] == 0:
        return np.array([-1.0, -1.0]), np.array([1.0, 1.0])
    return a[:, :2].min(axis=0), a[:, 2:].max(axis=0)


def fit_camera(world, size=(800, 600), margin: float = 0.05) -> Camera:
    """A camera showing the whole world (see :meth:`Camera.fit`)."""
    lo, hi = world_bounds(world)
    return Camera.fit(lo, hi, size, margin)


def draw_world(world, renderer, camera: Camera | None = None,
               options: DrawOptions | None = None) -> Camera:
    """Draw ``world`` through ``renderer`` as seen by ``camera``.

    World coordinates are metres with y up; the camera turns them into pixels (y down) for
    the renderer. Shapes are drawn where the world's arrays put them after the last step
    (or after a pose was set).

    Parameters
    ----------
    world : collide2d.World
    renderer : a :class:`~collide2d.draw.Renderer` (pygame, matplotlib or SVG backend).
    camera : the view (pixels per metre, centre, screen size); default: fit the world.
    options : :class:`DrawOptions`; default: shapes only.

    Returns
    -------
    Camera
        The camera used (handy when it was fitted).

    Example
    -------
    >>> import collide2d as c2d
    >>> from collide2d.draw import Camera, SvgRenderer, draw_world
    >>> world = c2d.World()
    >>> _ = world.add_body(position=(0, 1)).add_box(2, 2)
    >>> svg = SvgRenderer((100, 100))
    >>> _ = draw_world(world, svg, Camera((0, 0), 10, (100, 100)))
    >>> svg.to_string().count("<polygon")
    1
    """
    opt = options if options is not None else DrawOptions()
    if camera is None:
        camera = fit_camera(world, renderer.size)
    pal = opt.palette
    renderer.begin(camera, pal.background if opt.background else None)
    geo = world.shape_geometry()
    rows = _visible_rows(geo, camera, opt.cull)
    if opt.tiles:
        _draw_tiles(world, renderer, camera, opt)
    if opt.shapes:
        _draw_shapes(world, geo, renderer, camera, opt, rows)
    if opt.particles:
        _draw_particles(world, renderer, camera, opt)
    if opt.joints:
        _draw_joints(world, renderer, camera, opt)
    if opt.aabbs:
        _draw_aabbs(geo, renderer, camera, opt, rows)
    if opt.mtd:
        _draw_mtd(world, geo, renderer, camera, opt)
    if opt.contacts:
        _draw_contacts(world, renderer, camera, opt)
    if opt.centers or opt.velocities:
        _draw_bodies(world, renderer, camera, opt)
    return camera


# ---------------------------------------------------------------------------- gathering
def _visible_rows(geo, camera: Camera, cull: bool) -> np.ndarray:
    """Rows of ``geo`` (convex parts) to draw; a concave shape's parts all stay if any part
    is in view."""
    rows = np.arange(geo.shape.size)
    if not cull or rows.size == 0:
        return rows
    x0, y0, x1, y1 = camera.visible_box()
    a = geo.aabb
    seen = (a[:, 2] >= x0) & (a[:, 0] <= x1) & (a[:, 3] >= y0) & (a[:, 1] <= y1)
    return rows[np.isin(geo.shape, geo.shape[seen])]


def _fill_colors(world, geo, opt: DrawOptions, rows: np.ndarray) -> np.ndarray:
    """(m, 3) float fill colour per part."""
    pal = opt.palette
    body = geo.body[rows]
    kind = world.kinds(body)
    dyn = np.asarray(pal.dynamic, dtype=np.float64)
    fill = dyn[body % len(dyn)]
    fill[kind == "static"] = pal.static
    fill[kind == "kinematic"] = pal.kinematic
    if opt.body_colors:
        bc = opt.body_colors
        # Keys are Body handles or body ids; a removed body's colour matches nothing.
        keys = np.fromiter(((k.id if k.alive else -1) if hasattr(k, "alive") else k
                            for k in bc), np.int64, len(bc))
        vals = np.array([tuple(v)[:3] for v in bc.values()], dtype=np.float64)
        order = np.argsort(keys, kind="stable")
        keys, vals = keys[order], vals[order]
        at = np.minimum(np.searchsorted(keys, body), max(len(keys) - 1, 0))
        has = keys[at] == body
        fill[has] = vals[at[has]]
    if opt.sleeping:
        asleep = (kind == "dynamic") & ~world.awake(body)
        fill[asleep] += (np.asarray(pal.sleeping, float) - fill[asleep]) * pal.sleeping_mix
    return fill


def _part_pairs(geo, pairs: np.ndarray) -> np.ndarray:
    """Shape-id pairs (k, 2) expanded to every pair of their convex parts (rows of geo)."""
    rows = np.argsort(geo.shape, kind="stable")
    ids, first, count = np.unique(geo.shape[rows], return_index=True, return_counts=True)
    pa, pb = np.searchsorted(ids, pairs[:, 0]), np.searchsorted(ids, pairs[:, 1])
    ca, cb = count[pa], count[pb]
    m = ca * cb
    k = np.repeat(np.arange(len(pairs)), m)
    j = np.arange(m.sum()) - np.repeat(np.cumsum(m) - m, m)
    ia = first[pa[k]] + j // cb[k]
    ib = first[pb[k]] + j % cb[k]
    return np.column_stack((rows[ia], rows[ib])).astype(np.int64)


# ---------------------------------------------------------------------------- shapes
def _draw_shapes(world, geo, renderer, camera: Camera, opt: DrawOptions,
                 rows: np.ndarray) -> None:
    if rows.size == 0:
        return
    pal = opt.palette
    fill = _fill_colors(world, geo, opt, rows)
    outline = fill + (255.0 - fill) * pal.outline_mix
    width = np.full(rows.size, opt.line_width)
    sensor = geo.sensor[rows]
    outline[sensor] = pal.sensor
    owner = geo.shape[rows]
    if opt.overlaps:
        hot_rows = np.isin(owner, world.sensor_overlaps().ravel())
        outline[hot_rows] = pal.overlap
        width[hot_rows] = 2.0 * opt.line_width + 1.0

    uniq, counts = np.unique(owner, return_counts=True)
    is_multi = np.isin(owner, uniq[counts > 1])

    zoom = camera.zoom
    verts = geo.vertices
    scr = camera.world_to_screen(verts)
    vstart, vcount = geo.offset[rows], geo.count[rows]
    radius = geo.radius[rows]
    fill_t = [tuple(c) for c in np.rint(fill).astype(np.int64).tolist()]
    line_t = [tuple(c) for c in np.rint(outline).astype(np.int64).tolist()]
    sensor_fill = tuple(pal.sensor) + (int(opt.sensor_alpha),) if opt.sensor_alpha > 0 else None

    ticks = []        # circle orientation marks: (start, end) in pixels
    tick_colors = []
    bare = []         # segments without radius
    bare_colors = []
    angle = world.angles(geo.body[rows])
    for i in range(rows.size):
        a, n = int(vstart[i]), int(vcount[i])
        f = sensor_fill if sensor[i] else fill_t[i]
        o, w = line_t[i], float(width[i])
        r = float(radius[i])
        if n == 1:
            c = scr[a]
            renderer.circle(c, r * zoom, f, o, w)
            th = float(angle[i])
            ticks.append((c, (c[0] + r * zoom * math.cos(th), c[1] - r * zoom * math.sin(th))))
            tick_colors.append(o)
        elif r > 0.0:
            pts = camera.world_to_screen(_rounded_outline(verts[a : a + n], r))
            renderer.polygon(pts, f, o, w)
        elif n == 2:
            bare.append((scr[a], scr[a + 1]))
            bare_colors.append(o)
        elif is_multi[i]:
            # Outlined in its own fill colour so that no seam shows between parts.
            renderer.polygon(scr[a : a + n], f, None if sensor[i] else f, 1.0)
        else:
            renderer.polygon(scr[a : a + n], f, o, w)
    if bare:
        renderer.lines(np.array(bare), np.array(bare_colors), 2.0 * opt.line_width)
    if ticks:
        renderer.lines(np.array(ticks), np.array(tick_colors), opt.line_width)
    if is_multi.any():
        seg, idx = _outlines(world, geo, rows[is_multi])
        sub = np.flatnonzero(is_multi)[idx]
        renderer.lines(camera.world_to_screen(seg), outline[sub], float(width[sub].max()))


def _rounded_outline(verts: np.ndarray, radius: float, step: float = math.pi / 10) -> np.ndarray:
    """Outline of a convex CCW polygon (or a 2-point segment: a capsule) grown by ``radius``:
    at each vertex an arc from the previous edge's outward normal to the next one's."""
    n = verts.shape[0]
    out = []
    for i in range(n):
        p, v, q = verts[i - 1], verts[i], verts[(i + 1) % n]
        e0, e1 = v - p, q - v
        a0 = math.atan2(-e0[0], e0[1])   # outward normal (ey, -ex) of a CCW edge
        a1 = math.atan2(-e1[0], e1[1])
        sweep = (a1 - a0) % (2.0 * math.pi)
        if n == 2:
            sweep = math.pi
        k = max(1, int(math.ceil(sweep / step)))
        t = a0 + sweep * np.arange(k + 1) / k
        out.append(v + radius * np.column_stack((np.cos(t), np.sin(t))))
    return np.concatenate(out)


_OUTLINES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _outlines(world, geo, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Outlines of decomposed shapes (several convex parts), in the world frame.

    The outline of a shape in its body frame never changes while the shape lives, so it is
    worked out once per Shape handle (a new shape in a reused id has a new handle) and then
    only moved with the body. Returns (k, 2, 2) segments and, per segment, the position in
    ``rows`` of one of the shape's parts (for its colour)."""
    cache = _OUTLINES.setdefault(world, weakref.WeakKeyDictionary())
    if len(cache) > 4096:   # shapes come and go (tile chunks rebuilt): forget the old ones
        cache.clear()
    owners, where = np.unique(geo.shape[rows], return_index=True)
    segs, idx = [], []
    for o, w in zip(owners.tolist(), where.tolist(), strict=True):
        shape = world.shape(o)
        local = cache.get(shape)
        if local is None:
            local = cache[shape] = _boundary(shape.parts)
        segs.append(local)
        idx.append(np.full(len(local), w))
    seg = np.concatenate(segs)
    idx = np.concatenate(idx)
    body = geo.body[rows[idx]]
    ang = world.angles(body)
    c, s_ = np.cos(ang)[:, None], np.sin(ang)[:, None]
    x, y = seg[..., 0], seg[..., 1]
    out = np.stack((c * x - s_ * y, s_ * x + c * y), axis=-1) + world.positions(body)[:, None, :]
    return out, idx


def _boundary(parts: list[np.ndarray], tol: float = 1e-9) -> np.ndarray:
    """The outline of a union of convex parts that meet edge to edge: every edge, less the
    stretches where two parts' edges lie on the same line running opposite ways (the
    decomposition's diagonals, or tile rectangles side by side). (k, 2, 2) segments."""
    p = np.concatenate(parts)
    q = np.concatenate([np.roll(v, -1, axis=0) for v in parts])
    d = q - p
    u = d / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-300)[:, None]
    # One direction per line (angle in [0, pi)); each edge runs along it (+1) or against (-1).
    flip = (u[:, 1] < -tol) | ((np.abs(u[:, 1]) <= tol) & (u[:, 0] < 0))
    c = np.where(flip[:, None], -u, u)
    n = np.column_stack((-c[:, 1], c[:, 0]))
    offset = (p * n).sum(axis=1)
    t0, t1 = (p * c).sum(axis=1), (q * c).sum(axis=1)
    sign = np.where(flip, -1, 1)
    key = np.column_stack((np.round(np.arctan2(c[:, 1], c[:, 0]) / tol),
                           np.round(offset / tol)))
    _, line = np.unique(key, axis=0, return_inverse=True)
    line = line.ravel()
    out = []
    for g in np.unique(line):
        e = np.flatnonzero(line == g)
        if e.size == 1:
            out.append(np.stack((p[e[0]], q[e[0]])))
            continue
        # Sweep along the line: the running sum of directions is 0 where edges cancel.
        ts = np.concatenate((np.minimum(t0[e], t1[e]), np.maximum(t0[e], t1[e])))
        dv = np.concatenate((sign[e], -sign[e]))
        order = np.argsort(ts, kind="stable")
        ts, acc = ts[order], np.cumsum(dv[order])
        cg, ng, og = c[e[0]], n[e[0]], offset[e[0]]
        start = end = None
        for k in range(ts.size - 1):
            if ts[k + 1] - ts[k] <= tol:
                continue
            if acc[k] != 0:
                start = ts[k] if start is None else start
                end = ts[k + 1]
            elif start is not None:
                out.append(np.stack((cg * start + ng * og, cg * end + ng * og)))
                start = None
        if start is not None:
            out.append(np.stack((cg * start + ng * og, cg * end + ng * og)))
    return np.array(out).reshape(-1, 2, 2)


# ---------------------------------------------------------------------------- overlays
def _draw_tiles(world, renderer, camera: Camera, opt: DrawOptions) -> None:
    pal = opt.palette
    x0, y0, x1, y1 = camera.visible_box()
    for tm in getattr(world, "tilemaps", ()):
        grid = tm.grid
        s, (ox, oy) = tm.tile_size, tm.origin
        ny, nx = grid.shape
        # Only the cells in view.
        j0, j1 = max(int((x0 - ox) // s), 0), min(int((x1 - ox) // s) + 1, nx)
        i0, i1 = max(int((y0 - oy) // s), 0), min(int((y1 - oy) // s) + 1, ny)
        if j0 >= j1 or i0 >= i1:
            continue
        view = grid[i0:i1, j0:j1]
        for value in np.unique(view[view != 0]).tolist():
            kind = tm.response(value)
            if kind not in ("oneway", "cross"):
                continue
            i, j = np.nonzero(view == value)
            lo = np.column_stack((ox + (j + j0) * s, oy + (i + i0) * s))
            if kind == "oneway":   # the top edge is all that blocks
                seg = np.stack((lo + (0.0, s), lo + (s, s)), axis=1)
                renderer.lines(camera.world_to_screen(seg), pal.static, 3.0)
            else:
                for q in lo:
                    box = np.array([q, q + (s, 0.0), q + (s, s), q + (0.0, s)])
                    renderer.polygon(camera.world_to_screen(box), tuple(pal.sensor) + (40,),
                                     pal.sensor, 1.0)


def _draw_particles(world, renderer, camera: Camera, opt: DrawOptions) -> None:
    for system in getattr(world, "particle_systems", ()):
        pos = getattr(system, "positions", None)
        alive = getattr(system, "alive", None)
        if pos is None or alive is None:
            continue
        p = np.asarray(pos)[np.asarray(alive, dtype=bool)]
        if p.size:
            renderer.points(camera.world_to_screen(p), opt.palette.particle,
                            opt.particle_radius)


#: Joint kinds with an axis (drawn through anchor A) and limits along it.
_AXIAL = ("prismatic", "wheel")
#: Joint kinds drawn as a zigzag between their anchors when their spring is on.
_SPRUNG = ("distance", "wheel")


def _draw_joints(world, renderer, camera: Camera, opt: DrawOptions) -> None:
    geometry = getattr(world, "joint_geometry", None)
    if geometry is None:
        return
    g = geometry()
    n = len(g.kind)
    if n == 0:
        return
    from .. import JOINT_KINDS

    pal = opt.palette
    names = np.asarray(JOINT_KINDS)[np.asarray(g.kind, dtype=np.int64)]
    enabled = np.asarray(g.enabled, dtype=bool)
    a = camera.world_to_screen(np.asarray(g.anchor_a, dtype=np.float64).reshape(n, 2))
    b = camera.world_to_screen(np.asarray(g.anchor_b, dtype=np.float64).reshape(n, 2))
    grey = np.asarray(pal.joint_disabled, dtype=np.float64)

    # Spring settings and limits are not in the batch view: read them from the handles of
    # the few joints that have them (axial and distance joints; world.joints is in the same
    # creation order as the view's rows).
    axial = np.isin(names, _AXIAL)
    sprung = np.zeros(n, dtype=bool)
    lower = np.full(n, np.nan)
    upper = np.full(n, np.nan)
    rows = np.flatnonzero(np.isin(names, _SPRUNG) | axial)
    if rows.size:
        handles = world.joints
        for i in rows.tolist():
            j = handles[i]
            sprung[i] = names[i] in _SPRUNG and j.spring_hertz > 0.0
            if axial[i]:
                lower[i] = np.nan if j.lower is None else j.lower
                upper[i] = np.nan if j.upper is None else j.upper

    if axial.any():
        _draw_joint_axes(camera, renderer, opt, a[axial], np.asarray(g.axis)[axial],
                         lower[axial], upper[axial], enabled[axial])
    straight = ~sprung
    if straight.any():
        col = np.where(enabled[straight, None], np.asarray(pal.joint, float), grey)
        renderer.lines(np.stack((a[straight], b[straight]), axis=1), col, opt.line_width)
    if sprung.any():
        seg, owner = _zigzags(a[sprung], b[sprung], opt.spring_width)
        col = np.where(enabled[sprung][owner, None], np.asarray(pal.joint_spring, float), grey)
        renderer.lines(seg, col, opt.line_width)
    dots = np.concatenate((a, b))
    on = np.concatenate((enabled, enabled))
    r = max(1.0, opt.point_radius - 0.5)
    if on.any():
        renderer.points(dots[on], pal.joint, r)
    if not on.all():
        renderer.points(dots[~on], pal.joint_disabled, r)


def _draw_joint_axes(camera: Camera, renderer, opt: DrawOptions, a: np.ndarray,
                     axis: np.ndarray, lower: np.ndarray, upper: np.ndarray,
                     enabled: np.ndarray) -> None:
    """Each axial joint's axis through anchor A (pixels ``a``), between its limits where set
    (metres along the world ``axis``), with a tick across the axis at each limit."""
    pal = opt.palette
    d = camera.vector_to_screen(axis)
    d /= np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-300)[:, None]
    free = opt.joint_axis_length
    lo = np.where(np.isnan(lower), -free, lower * camera.zoom)[:, None]
    hi = np.where(np.isnan(upper), free, upper * camera.zoom)[:, None]
    grey = np.asarray(pal.joint_disabled, dtype=np.float64)
    col = np.where(enabled[:, None], np.asarray(pal.joint_axis, float), grey)
    renderer.lines(np.stack((a + lo * d, a + hi * d), axis=1), col, opt.line_width)
    perp = np.column_stack((-d[:, 1], d[:, 0])) * opt.spring_width
    ticks = [np.stack((a + t * d - perp, a + t * d + perp), axis=1)[~np.isnan(v)]
             for t, v in ((lo, lower), (hi, upper))]
    tick_on = [enabled[~np.isnan(v)] for v in (lower, upper)]
    ticks, tick_on = np.concatenate(ticks), np.concatenate(tick_on)
    if len(ticks):
        col = np.where(tick_on[:, None], np.asarray(pal.joint_limit, float), grey)
        renderer.lines(ticks, col, opt.line_width + 1.0)


def _zigzags(p0: np.ndarray, p1: np.ndarray, width: float,
             coils: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Springs from ``p0`` to ``p1`` (pixels, (k, 2) each) as zigzags: a straight lead at
    each end (15 % of the length) and ``2 * coils`` teeth ``width`` pixels either side
    between. Returns the (k * m, 2, 2) segments and the spring of each segment."""
    m = 2 * coils
    t = np.concatenate(([0.0, 0.15], 0.15 + 0.7 * (np.arange(m) + 0.5) / m, [0.85, 1.0]))
    side = np.concatenate(([0.0, 0.0], np.where(np.arange(m) % 2 == 0, 1.0, -1.0),
                           [0.0, 0.0]))
    d = p1 - p0
    u = d / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-300)[:, None]
    perp = np.column_stack((-u[:, 1], u[:, 0]))
    pts = (p0[:, None, :] + t[None, :, None] * d[:, None, :]
           + (width * side)[None, :, None] * perp[:, None, :])
    seg = np.stack((pts[:, :-1], pts[:, 1:]), axis=2).reshape(-1, 2, 2)
    return seg, np.repeat(np.arange(len(p0)), t.size - 1)


def _draw_aabbs(geo, renderer, camera: Camera, opt: DrawOptions, rows: np.ndarray) -> None:
    if rows.size == 0:
        return
    a = geo.aabb[rows]
    x0, y0, x1, y1 = a[:, 0], a[:, 1], a[:, 2], a[:, 3]
    corners = np.stack([np.column_stack(c) for c in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))],
                       axis=1)                                 # (m, 4, 2)
    nxt = np.roll(corners, -1, axis=1)
    seg = np.stack((corners, nxt), axis=2).reshape(-1, 2, 2)
    renderer.lines(camera.world_to_screen(seg), opt.palette.aabb, opt.line_width)


def _draw_contacts(world, renderer, camera: Camera, opt: DrawOptions) -> None:
    ca = world.contacts()
    if len(ca.count) == 0:
        return
    valid = np.arange(2)[None, :] < ca.count[:, None]
    pts = ca.points[valid]
    normal = np.repeat(ca.normal, ca.count, axis=0)
    p = camera.world_to_screen(pts)
    d = camera.vector_to_screen(normal)
    d *= opt.normal_length / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-300)[:, None]
    renderer.lines(np.stack((p, p + d), axis=1), opt.palette.contact_normal, opt.line_width)
    renderer.points(p, opt.palette.contact_point, opt.point_radius)


def _draw_mtd(world, geo, renderer, camera: Camera, opt: DrawOptions) -> None:
    from ..geometry import ShapePool, _penetration_pairs

    ca = world.contacts()
    pairs = np.concatenate((np.column_stack((ca.shape_a, ca.shape_b)),
                            world.sensor_overlaps())).astype(np.int64)
    if len(pairs) == 0:
        return
    pairs = _part_pairs(geo, pairs)
    n = geo.shape.size
    pool = ShapePool(geo.vertices, geo.offset, geo.count, geo.radius, geo.aabb,
                     np.ones(n, dtype=bool))
    # The world's own parts, rounded polygons and capsules included, which the public
    # penetration_many refuses (a pool from pack_shapes rounds only circles): skip its check.
    hit, normal, depth = _penetration_pairs(pool, np.ascontiguousarray(pairs, dtype=np.int64))
    hit &= depth * camera.zoom >= 1.0
    if not hit.any():
        return
    ba, bb = geo.aabb[pairs[hit, 0]], geo.aabb[pairs[hit, 1]]
    # Anchor each arrow at the middle of the two boxes' intersection: inside the overlap.
    lo = np.maximum(ba[:, :2], bb[:, :2])
    hi = np.minimum(ba[:, 2:], bb[:, 2:])
    start = 0.5 * (lo + hi)
    # penetration_many's normal points from A to B: A moves out along -normal.
    end = start - normal[hit] * depth[hit, None]
    renderer.lines(_arrows(camera.world_to_screen(start), camera.world_to_screen(end)),
                   opt.palette.mtd, opt.line_width + 1.0)


def _arrows(p0: np.ndarray, p1: np.ndarray, head: float = 6.0) -> np.ndarray:
    """Segments of arrows p0 -> p1 (pixels): the shaft and two head strokes each."""
    d = p1 - p0
    length = np.hypot(d[:, 0], d[:, 1])
    u = d / np.maximum(length, 1e-300)[:, None]
    h = np.minimum(head, 0.5 * length)[:, None]
    perp = np.column_stack((-u[:, 1], u[:, 0]))
    left = p1 - h * u + 0.6 * h * perp
    right = p1 - h * u - 0.6 * h * perp
    return np.concatenate((np.stack((p0, p1), 1), np.stack((p1, left), 1),
                           np.stack((p1, right), 1)))


def _draw_bodies(world, renderer, camera: Camera, opt: DrawOptions) -> None:
    ids = world.body_ids()
    ids = ids[world.kinds(ids) != "static"]
    if ids.size == 0:
        return
    p = camera.world_to_screen(world.positions(ids))
    if opt.velocities:
        v = camera.vector_to_screen(world.velocities(ids)) * 0.25
        renderer.lines(np.stack((p, p + v), axis=1), opt.palette.velocity, opt.line_width)
    if opt.centers:
        renderer.points(p, opt.palette.center, max(1.0, opt.point_radius - 1.0))


def overlay_text(renderer, lines, position=(8, 8), color=None, size: int = 16,
                 panel=(0, 0, 0, 150), padding: int = 6) -> tuple[int, int]:
    """Lines of text on a translucent panel (a HUD); returns the panel's (width, height)."""
    color = color or Palette().text
    sizes = [renderer.text_size(t, size) for t in lines]
    w = max((s[0] for s in sizes), default=0) + 2 * padding
    line_h = max((s[1] for s in sizes), default=size)
    h = line_h * len(lines) + 2 * padding
    x, y = position
    if panel is not None:
        renderer.polygon(np.array([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], float),
                         panel, None)
    for i, t in enumerate(lines):
        renderer.text((x + padding, y + padding + i * line_h), t, color, size)
    return w, h


__all__ = ["DrawOptions", "draw_world", "fit_camera", "world_bounds", "overlay_text"]
