"""Running the demo: in a window, or headless into a PNG (last frame) or an animated GIF.

``python -m collide2d demo [SCENE] [--headless --frames N --out FILE]``. Without a display
(no ``DISPLAY`` / ``WAYLAND_DISPLAY`` on Linux, or a window that cannot open) the plain
command says so and writes a GIF instead of failing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

DEFAULT_FRAMES = 240


def _parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected WIDTHxHEIGHT, e.g. 960x600, got {text!r}") from None
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size must be within 64..8192 pixels, got {text!r}")
    return w, h


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {v}")
    return v


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    from .app import DEFAULT_SCENE, SCENES

    p = parser or argparse.ArgumentParser(prog="python -m collide2d demo")
    p.description = ("Interactive collide2d demo (pygame-ce). Scenes: " + ", ".join(SCENES)
                     + ". Keys: p pause, space step, n/b next/previous scene, d debug, "
                     "h help.")
    p.add_argument("scene", nargs="?", default=DEFAULT_SCENE, choices=list(SCENES),
                   help=f"scene to start with (default {DEFAULT_SCENE})")
    p.add_argument("--headless", action="store_true",
                   help="no window: simulate --frames frames and write --out")
    p.add_argument("--frames", type=_positive, default=DEFAULT_FRAMES,
                   help=f"frames to simulate headless (default {DEFAULT_FRAMES}, 60 per second)")
    p.add_argument("--out", default=None,
                   help="output file: .png (last frame) or .gif (animation); "
                        "default collide2d-demo-SCENE.gif")
    p.add_argument("--every", type=_positive, default=2,
                   help="GIF: keep every k-th frame (default 2: a 30 fps GIF)")
    p.add_argument("--size", type=_parse_size, default=(960, 600),
                   help="picture size WIDTHxHEIGHT in pixels (default 960x600)")
    p.add_argument("--seed", type=int, default=0, help="random seed of the scenes")
    p.add_argument("--debug", action="store_true", help="start with the debug overlays on")
    return p


# ---------------------------------------------------------------------------- headless
def run_headless(scene: str, frames: int, out, size=(960, 600), seed: int = 0,
                 debug: bool = False, every: int = 2, events=None, quiet: bool = False):
    """Simulate ``frames`` frames without a window and write ``out``: a ``.png`` of the last
    frame or an animated ``.gif`` of every ``every``-th frame (ending on the last).
    ``events`` maps a frame number to a list of input events fed to the demo before that
    frame. Returns the :class:`~collide2d.demo.Demo` (for inspection)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from .app import Demo

    out = os.fspath(out)
    ext = os.path.splitext(out)[1].lower()
    if ext not in (".png", ".gif"):
        raise ValueError(f"out: expected a .png or .gif file name, got {out!r}")
    if ext == ".gif":
        try:
            from PIL import Image
        except ImportError:
            raise ImportError("out: writing a GIF needs Pillow; pip install 'collide2d[demo]' "
                              "or write a .png") from None
    demo = Demo(scene, size, seed, debug=debug)
    pg = demo.pg
    surface = pg.Surface(demo.size)
    if not quiet:
        print(f"collide2d demo {scene}: {frames} frames headless -> {out}", flush=True)
    events = events or {}
    images = []
    t_start = time.perf_counter()
    # Headless, the HUD's rate is what this machine could sustain: 1 / (update + draw).
    demo.rate_from_timings = True
    for f in range(frames):
        demo.handle(events.get(f, ()))
        demo.update()
        last = f == frames - 1
        # GIF frames are evenly spaced and end on the last frame.
        if (ext == ".gif" and (frames - 1 - f) % every == 0) or last:
            if last and ext == ".png":
                demo.render(surface)   # once to load the fonts: the HUD shows warm timings
                demo.draw_ms = 0.0
            demo.render(surface)
            if ext == ".gif":
                rgb = Image.frombytes("RGB", demo.size, pg.image.tobytes(surface, "RGB"))
                images.append(rgb.quantize(colors=255, method=Image.Quantize.FASTOCTREE,
                                           dither=Image.Dither.NONE))
        if f == 0 and time.perf_counter() - t_start > 2.0 and not quiet:
            print(f"collide2d: first step took {time.perf_counter() - t_start:.1f} s "
                  "(Numba compiled the kernels; cached for the next run)", file=sys.stderr)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    if ext == ".png":
        pg.image.save(surface, out)
    else:
        images[0].save(out, save_all=True, append_images=images[1:], loop=0,
                       duration=round(1000.0 * demo.dt * every), disposal=1)
    if not quiet:
        print(f"collide2d demo {scene}: {frames} frames in "
              f"{time.perf_counter() - t_start:.1f} s -> {out}")
    return demo


# ---------------------------------------------------------------------------- window
def display_problem() -> str | None:
    """Why no window can open here (None when a display seems available)."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver in ("dummy", "offscreen"):
        return f"no display (SDL_VIDEODRIVER={driver})"
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            return "no display (DISPLAY and WAYLAND_DISPLAY are not set)"
    return None


def run_window(scene: str, size=(960, 600), seed: int = 0, debug: bool = False,
               fps: int = 60) -> None:
    """Open a window and run the demo until it is closed (raises pygame.error when no
    window can be opened)."""
    from .app import Demo

    demo = Demo(scene, size, seed, debug=debug)
    pg = demo.pg
    pg.display.init()
    pg.font.init()
    try:
        screen = pg.display.set_mode(demo.size)
        pg.display.set_caption("collide2d demo")
        clock = pg.time.Clock()
        # The first step may compile the kernels (first run with the background compile
        # switched off): say so on screen.
        demo.notice = "starting: the first run compiles the physics kernels (cached afterwards)"
        demo.render(screen)
        pg.display.flip()
        demo.update()
        demo.notice = None
        while demo.running:
            demo.handle(pg.event.get())
            demo.update()
            demo.render(screen)
            pg.display.flip()
            clock.tick(fps)
            demo.fps = clock.get_fps()
    finally:
        pg.display.quit()


def main(args=None) -> int:
    """Command line entry point (``python -m collide2d demo ...``); returns the exit code."""
    if not isinstance(args, argparse.Namespace):
        args = build_parser().parse_args(args)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame  # noqa: F401
    except ImportError:
        print("collide2d demo needs pygame-ce (and Pillow for GIFs): "
              "pip install -e \".[demo]\"", file=sys.stderr)
        return 2
    if args.out is not None and os.path.splitext(args.out)[1].lower() not in (".png", ".gif"):
        print(f"collide2d demo: --out must name a .png or .gif file, got {args.out!r}",
              file=sys.stderr)
        return 2
    if args.headless:
        out = args.out or f"collide2d-demo-{args.scene}.gif"
        run_headless(args.scene, args.frames, out, args.size, args.seed, args.debug,
                     args.every)
        return 0
    problem = display_problem()
    if problem is None:
        try:
            run_window(args.scene, args.size, args.seed, args.debug)
            return 0
        except Exception as exc:   # pygame.error and friends: no usable display
            if type(exc).__name__ != "error":
                raise
            problem = f"cannot open a window ({exc})"
    out = args.out or f"collide2d-demo-{args.scene}.gif"
    print(f"collide2d demo: {problem}; writing {args.frames} frames headless to {out} "
          "instead (choose with --headless --frames N --out FILE.gif|.png)", file=sys.stderr)
    run_headless(args.scene, args.frames, out, args.size, args.seed, args.debug, args.every)
    return 0
