"""Remake the pictures of docs/demo.md (and the README) from the demo itself.

    python docs/make_images.py            # everything, about a minute
    python docs/make_images.py naval      # only the pictures whose name contains "naval"

Every picture but two comes from the documented command line,
``python -m collide2d demo SCENE --headless --frames N --out FILE``, run as a subprocess;
the help overlay needs a key press (``h``), injected through the Python API, and the
matplotlib / SVG pictures come from ``collide2d.draw``. Needs ``pip install -e ".[demo,draw]"``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
IMAGES = HERE / "images"

# (file name, command-line arguments after "demo").
COMMANDS = [
    ("demo-naval.gif", ["naval", "--frames", "240", "--size", "640x400", "--every", "3"]),
    ("demo-naval.png", ["naval", "--frames", "75"]),
    ("demo-dungeon.png", ["dungeon", "--frames", "200"]),
    ("demo-tumble.png", ["tumble", "--frames", "420"]),
    ("demo-pyramid-debug.png", ["pyramid", "--frames", "150", "--debug"]),
    ("demo-rain.png", ["rain", "--frames", "150"]),
    ("demo-tumble-debug.png", ["tumble", "--frames", "300", "--debug"]),
]


def run_command(name: str, args: list[str]) -> None:
    out = IMAGES / name
    cmd = [sys.executable, "-m", "collide2d", "demo", *args, "--headless", "--out", str(out)]
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    print("$", " ".join(["python", *cmd[1:]]).replace(str(HERE.parent) + os.sep, ""))
    subprocess.run(cmd, check=True, env=env)


def help_overlay() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from collide2d.demo import run_headless

    press_h = [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h)]
    run_headless("dungeon", 90, IMAGES / "demo-help.png", events={0: press_h})


def notebook_pictures() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import collide2d as c2d
    from collide2d.draw import Camera, DrawOptions, plot_world, world_svg

    world = c2d.World(gravity=(0.0, -10.0))
    ground = world.add_body(kind="static")
    ground.add_box(14.0, 0.5, offset=(0.0, -0.25))
    ground.add_polygon([(-7, 0), (-4, 0), (-7, 3)])
    for i in range(4):
        world.add_body(position=(-1.5 + 1.02 * i, 0.5)).add_box(1.0, 1.0)
    world.add_body(position=(0.2, 1.6), angle=0.3).add_box(2.0, 0.5)
    world.add_body(position=(3.5, 0.6)).add_circle(0.6)
    world.add_body(position=(-4.5, 2.5), angle=0.4).add_polygon(
        [(0, 0), (1.2, 0), (1.2, 0.4), (0.4, 0.4), (0.4, 1.2), (0, 1.2)])
    for _ in range(40):
        world.step(1.0 / 60.0)
    cam = Camera(center=(-0.5, 1.6), zoom=55.0, size=(800, 300))
    ax = plot_world(world, camera=cam, options=DrawOptions(contacts=True, aabbs=True))
    ax.set_title("plot_world(world, camera=cam, options=DrawOptions(contacts=True, aabbs=True))",
                 fontsize=10)
    ax.figure.tight_layout()
    ax.figure.savefig(IMAGES / "draw-matplotlib.png", dpi=100)
    plt.close(ax.figure)
    (IMAGES / "draw-world.svg").write_text(world_svg(world, cam, DrawOptions(contacts=True)))
    print("wrote docs/images/draw-matplotlib.png, docs/images/draw-world.svg")


def main(argv: list[str]) -> int:
    IMAGES.mkdir(exist_ok=True)
    want = argv[0] if argv else ""
    for name, args in COMMANDS:
        if want in name:
            run_command(name, args)
    if want in "demo-help.png":
        help_overlay()
    if want in "draw-matplotlib.png draw-world.svg":
        notebook_pictures()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
