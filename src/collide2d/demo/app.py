"""The demo's state machine: input events in, one physics frame per update, a picture out.

:class:`Demo` never opens a window or reads the event queue itself: the caller passes the
events (``pygame.event.get()`` in a window, a scripted list in tests or headless runs) and
the surface to draw on. So every key and mouse action can be tested without a display.
"""

from __future__ import annotations

import time

import numpy as np

from ..draw import Camera, PygameRenderer, draw_world
from ..draw.pygame_backend import _pygame
from .bridge import Bridge
from .car import Car
from .cradle import Cradle
from .dungeon import Dungeon
from .naval import Naval
from .pyramid import Pyramid
from .ragdolls import Ragdolls
from .rain import Rain
from .scene import Scene, pick_body
from .tumble import Tumble
from .wrecking import Wrecking

#: The scenes in ``n`` / ``b`` order.
SCENES: dict[str, type[Scene]] = {
    cls.name: cls for cls in (Naval, Dungeon, Tumble, Pyramid, Rain, Ragdolls, Car, Bridge,
                              Wrecking, Cradle)}
DEFAULT_SCENE = "naval"

HELP = (
    ("left drag", "on a body: drag it (a mouse joint); on empty space: attract bodies"),
    ("right click", "spawn something"),
    ("wheel, + / -", "zoom about the cursor"),
    ("middle drag", "pan"),
    ("p", "pause and resume"),
    ("space", "single step (pauses)"),
    ("n / b", "next / previous scene"),
    ("r", "restart the scene"),
    ("d", "debug overlays: AABBs, contacts and normals, MTD vectors, sleeping"),
    ("h", "show or hide this help"),
    ("esc / q", "quit"),
)

# Mouse drag: a mouse joint, a damped spring from the grabbed point to the cursor (frequency,
# damping ratio), its force at most the grabbed body's mass times DRAG_MAX_ACCEL (m/s^2).
DRAG_HZ, DRAG_ZETA, DRAG_MAX_ACCEL = 4.0, 0.7, 400.0
# Attraction: radius in pixels (see Scene.attract for the pull).
ATTRACT_PX = 160.0


HUD_PANEL = (10, 12, 18, 180)
HUD_TEXT = (222, 228, 238)


def _ema(old: float, new: float, k: float = 0.1) -> float:
    return new if old == 0.0 else old + k * (new - old)


class Demo:
    """The interactive demo without its window.

    Parameters
    ----------
    scene : name of the first scene (see ``SCENES``).
    size : (width, height) of the picture in pixels.
    seed : random seed of the scenes.
    dt : physics time step (s); one step per :meth:`update`.
    debug : start with the debug overlays on.

    Example
    -------
    >>> import pygame
    >>> from collide2d.demo import Demo
    >>> demo = Demo("pyramid", size=(320, 200))
    >>> demo.handle([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p)])
    >>> demo.paused, demo.update()        # paused: no step
    (True, 0)
    >>> demo.handle([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE)])
    >>> demo.update(), demo.update(), demo.steps   # space: exactly one step
    (1, 0, 1)
    """

    def __init__(self, scene: str = DEFAULT_SCENE, size=(960, 600), seed: int = 0,
                 dt: float = 1.0 / 60.0, debug: bool = False):
        self.pg = _pygame()
        self.names = list(SCENES)
        if scene not in SCENES:
            raise ValueError(f"scene: expected one of {self.names}, got {scene!r}")
        self.size = (int(size[0]), int(size[1]))
        self.seed = seed
        self.dt = float(dt)
        self.debug = bool(debug)
        self.paused = False
        self.show_help = False
        self.running = True
        self.pending_steps = 0
        self.frames = 0            # frames drawn or updated since the start
        self.fps = 0.0
        #: Headless: show 1 / (update + draw) as the frame rate (a window sets ``fps``).
        self.rate_from_timings = False
        self.update_ms = 0.0       # the last update: scene logic and the step
        self.step_ms = 0.0
        self.draw_ms = 0.0
        self.mouse = (0.0, 0.0)    # pixels
        self._renderer = None
        #: A message drawn across the middle of the picture (None: nothing).
        self.notice = None
        self.load(self.names.index(scene))

    # ------------------------------------------------------------------ scenes
    def load(self, index: int) -> None:
        """Start scene number ``index`` (wraps around) afresh."""
        self.index = index % len(self.names)
        self.scene = SCENES[self.names[self.index]](seed=self.seed)
        x0, y0, x1, y1 = self.scene.view
        self.camera = Camera.fit((x0, y0), (x1, y1), self.size, margin=0.01)
        self.steps = 0             # physics steps of this scene
        self.step_ms = 0.0
        self.drag = None           # (body, anchor in the body frame, mouse joint)
        self.attracting = False
        self.panning = False

    @property
    def world(self):
        return self.scene.world

    # ------------------------------------------------------------------ input
    def handle(self, events) -> None:
        """Apply input events (pygame events, or anything with the same ``type`` and
        attributes) to the demo's state."""
        pg = self.pg
        for ev in events:
            t = ev.type
            if t == pg.QUIT:
                self.running = False
            elif t == pg.KEYDOWN:
                self._key(ev.key)
            elif t == pg.KEYUP:
                self.scene.key(ev.key, False)
            elif t == pg.MOUSEMOTION:
                old = self.mouse
                self.mouse = tuple(float(c) for c in ev.pos)
                if self.panning:
                    self.camera.pan(self.mouse[0] - old[0], self.mouse[1] - old[1])
                self._move_drag()
            elif t == pg.MOUSEBUTTONDOWN:
                self.mouse = tuple(float(c) for c in ev.pos)
                self._press(ev.button)
            elif t == pg.MOUSEBUTTONUP:
                self.mouse = tuple(float(c) for c in ev.pos)
                if ev.button == 1:
                    self._release_drag()
                    self.attracting = False
                elif ev.button == 2:
                    self.panning = False
            elif t == pg.MOUSEWHEEL:
                self.camera.zoom_at(1.15 ** ev.y, self.mouse)
                self._move_drag()

    def _key(self, key: int) -> None:
        pg = self.pg
        if self.scene.key(key, True):
            return
        if key in (pg.K_ESCAPE, pg.K_q):
            self.running = False
        elif key == pg.K_p:
            self.paused = not self.paused
            self.pending_steps = 0
        elif key == pg.K_SPACE:
            self.paused = True
            self.pending_steps += 1
        elif key == pg.K_n:
            self.load(self.index + 1)
        elif key == pg.K_b:
            self.load(self.index - 1)
        elif key == pg.K_r:
            self.load(self.index)
        elif key == pg.K_d:
            self.debug = not self.debug
        elif key == pg.K_h:
            self.show_help = not self.show_help
        elif key in (pg.K_PLUS, pg.K_EQUALS, pg.K_KP_PLUS):
            self.camera.zoom_at(1.25)
        elif key in (pg.K_MINUS, pg.K_KP_MINUS):
            self.camera.zoom_at(0.8)

    def _press(self, button: int) -> None:
        p = self.camera.screen_to_world(self.mouse)
        if button == 1:
            body = pick_body(self.world, p)
            if body is not None:
                self._release_drag()
                joint = self.world.add_mouse_joint(body, p, max_force=DRAG_MAX_ACCEL * body.mass,
                                                   hertz=DRAG_HZ, damping_ratio=DRAG_ZETA)
                self.drag = (body, body.local_point(p), joint)
            else:
                self.attracting = True
        elif button == 2:
            self.panning = True
        elif button == 3:
            self.scene.spawn(p)

    def _move_drag(self) -> None:
        """The dragged body's mouse joint follows the cursor."""
        if self.drag is not None:
            if self.drag[2].alive:
                self.drag[2].target = self.camera.screen_to_world(self.mouse)
            else:
                self.drag = None

    def _release_drag(self) -> None:
        if self.drag is not None:
            joint = self.drag[2]
            self.drag = None
            if joint.alive:   # else the scene removed the body, and its joints with it
                self.world.remove(joint)

    def _mouse_forces(self) -> None:
        if self.drag is not None and not self.drag[2].alive:
            self.drag = None
        elif self.drag is None and self.attracting:
            target = self.camera.screen_to_world(self.mouse)
            self.scene.attract(target, ATTRACT_PX / self.camera.zoom)

    # ------------------------------------------------------------------ time
    def update(self) -> int:
        """One frame of simulation: a physics step unless paused (a pending single step
        still runs). Returns the number of steps taken (0 or 1)."""
        self.frames += 1
        if self.paused:
            if self.pending_steps == 0:
                return 0
            self.pending_steps -= 1
        t_update = time.perf_counter()
        self._mouse_forces()
        scene = self.scene
        scene.before_step(self.dt)
        t0 = time.perf_counter()
        self.world.step(self.dt)
        self.step_ms = _ema(self.step_ms, 1e3 * (time.perf_counter() - t0))
        scene.after_step(self.dt)
        scene.time += self.dt
        self.steps += 1
        self.update_ms = 1e3 * (time.perf_counter() - t_update)
        return 1

    # ------------------------------------------------------------------ drawing
    def render(self, surface) -> None:
        """Draw the current frame (world, overlays, HUD, help) on a pygame Surface."""
        t0 = time.perf_counter()
        r = self._renderer
        if r is None or r.surface is not surface:
            r = self._renderer = PygameRenderer(surface)
        if surface.get_size() != self.camera.size:
            self.camera.size = surface.get_size()
        cam, scene = self.camera, self.scene
        opts = scene.draw_options(self.debug)
        r.begin(cam, opts.palette.background)
        scene.draw_under(r, cam)
        opts.background = False
        draw_world(self.world, r, cam, opts)
        scene.draw_over(r, cam, self.debug)
        self._draw_mouse(r)
        # "draw" is the scene's drawing, measured before the HUD that shows it.
        self.draw_ms = _ema(self.draw_ms, 1e3 * (time.perf_counter() - t0))
        if self.rate_from_timings:
            self.fps = 1e3 / max(self.update_ms + self.draw_ms, 1e-3)
        self._draw_hud(r)
        if self.show_help:
            self._draw_help(r)
        if self.notice:
            w, h = r.size
            tw, th = r.text_size(self.notice, 20)
            r.polygon(np.array([(w / 2 - tw / 2 - 16, h / 2 - th / 2 - 12),
                                (w / 2 + tw / 2 + 16, h / 2 - th / 2 - 12),
                                (w / 2 + tw / 2 + 16, h / 2 + th / 2 + 12),
                                (w / 2 - tw / 2 - 16, h / 2 + th / 2 + 12)]), HUD_PANEL, None)
            r.text((w / 2, h / 2), self.notice, (255, 214, 64), 20, anchor="center")

    def _draw_mouse(self, r) -> None:
        if self.drag is not None and self.drag[0].alive:
            body, anchor, _ = self.drag
            a = self.camera.world_to_screen(body.world_point_of(anchor))
            r.lines(np.array([[a, self.mouse]]), (255, 255, 255), 2.0)
            r.points(np.array([a]), (255, 255, 255), 4.0)
        elif self.attracting:
            r.circle(self.mouse, ATTRACT_PX, None, (255, 255, 255), 1.0)
            r.points(np.array([self.mouse]), (255, 255, 255), 3.0)

    def hud_lines(self) -> list[str]:
        """The HUD text: scene, timing, counts."""
        world = self.world
        n_bodies = len(world.bodies)
        n_contacts = int(len(world.contacts().count))
        counts = f"{n_bodies} bodies   {n_contacts} contacts"
        n_joints = len(getattr(world, "joints", ()))
        if n_joints:
            counts += f"   {n_joints} joints"
        n_particles = sum(int(np.count_nonzero(getattr(s, "alive", ())))
                          for s in world.particle_systems)
        if n_particles:
            counts += f"   {n_particles} particles"
        lines = [
            f"collide2d demo  \u00b7  {self.scene.name}  ({self.index + 1}/{len(self.names)})",
            f"{self.fps:4.0f} FPS    step {self.step_ms:5.2f} ms    draw {self.draw_ms:4.1f} ms",
            counts,
        ]
        lines += self.scene.stats()
        if self.paused:
            lines.append("PAUSED    space: one step    p: run")
        return lines

    def _font_scale(self, r) -> float:
        # Text sized for 960 x 600, smaller on small pictures, larger on big windows.
        w, h = r.size
        return min(max(min(w / 960.0, h / 600.0), 0.7), 1.6)

    def _draw_hud(self, r) -> None:
        lines = self.hud_lines()
        k = self._font_scale(r)
        small = round(19 * k)
        sizes = [round(24 * k)] + [small] * (len(lines) - 1)
        dims = [r.text_size(t, s) for t, s in zip(lines, sizes, strict=True)]
        pad, gap = 10, 3
        w = max(d[0] for d in dims) + 2 * pad
        h = sum(d[1] + gap for d in dims) + 2 * pad - gap
        r.polygon(np.array([(6, 6), (6 + w, 6), (6 + w, 6 + h), (6, 6 + h)], float),
                  HUD_PANEL, None)
        y = 6 + pad
        for i, (t, s, d) in enumerate(zip(lines, sizes, dims, strict=True)):
            color = (255, 255, 255) if i == 0 else HUD_TEXT
            if t.startswith("PAUSED"):
                color = (255, 214, 64)
            r.text((6 + pad, y), t, color, s)
            y += d[1] + gap
        hint = "h: help    d: debug " + ("on" if self.debug else "off")
        tw, th = r.text_size(hint, small)
        x = r.size[0] - tw - 6 - 2 * pad
        r.polygon(np.array([(x, 6), (x + tw + 2 * pad, 6), (x + tw + 2 * pad, 6 + th + 2 * pad),
                            (x, 6 + th + 2 * pad)], float), HUD_PANEL, None)
        r.text((x + pad, 6 + pad), hint, HUD_TEXT, small)

    def _draw_help(self, r) -> None:
        width, height = r.size
        lines = [(k, v) for k, v in HELP] + [("", "")] + [("", t) for t in self.scene.help]
        title = f"{self.scene.name}: {self.scene.title}"
        k = self._font_scale(r)
        size = round(18 * k)
        key_w = max(r.text_size(k, size)[0] for k, _ in lines) + 24
        text_w = max(r.text_size(v, size)[0] for _, v in lines)
        line_h = r.text_size("Ag", size)[1] + 4
        w = max(key_w + text_w, r.text_size(title, round(20 * k))[0]) + 40
        h = line_h * (len(lines) + 2) + 36
        x0, y0 = (width - w) / 2, (height - h) / 2
        r.polygon(np.array([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)]),
                  (10, 12, 18, 215), (120, 130, 150), 1.0)
        r.text((x0 + 20, y0 + 16), title, (255, 255, 255), round(20 * k))
        y = y0 + 16 + 2 * line_h
        for k, v in lines:
            r.text((x0 + 20, y), k, (255, 214, 64), size)
            r.text((x0 + 20 + key_w, y), v, (225, 230, 240), size)
            y += line_h

    # ------------------------------------------------------------------ checks
    def finite(self) -> bool:
        """True when every live body's pose and velocity is finite (no NaN or inf)."""
        w = self.world
        return bool(np.isfinite(w.positions()).all() and np.isfinite(w.velocities()).all()
                    and np.isfinite(w.angles()).all()
                    and np.isfinite(w.angular_velocities()).all())
