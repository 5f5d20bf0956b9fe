"""``python -m collide2d COMMAND``: command-line tools.

Commands:
  demo [SCENE]   the interactive demo (pygame-ce), or headless PNG/GIF output
  warmup         compile every kernel ahead of time (once; they are cached on disk)
"""

from __future__ import annotations

import argparse
import sys


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m collide2d",
                                     description="collide2d command-line tools")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser("demo", help="interactive demo, or headless PNG/GIF output")
    from .demo.run import build_parser

    build_parser(demo)
    warmup = sub.add_parser("warmup", help="compile every kernel now (about a minute, once), "
                            "so a program's first step does not wait for it")
    warmup.add_argument("--background", action="store_true",
                        help="quietly, one process at a time (what a program started on a "
                        "cold cache runs while it steps uncompiled)")
    args = parser.parse_args(argv)
    if args.command == "warmup":
        from .warmup import run, run_background

        if args.background:
            return run_background()
        run(sys.stdout)
        return 0
    if args.command == "demo":
        from .demo.run import main as demo_main

        return demo_main(args)
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
