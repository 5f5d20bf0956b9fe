"""``python -m collide2d COMMAND``: command-line tools.

Commands:
  demo [SCENE]   the interactive demo (pygame-ce), or headless PNG/GIF output
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
    args = parser.parse_args(argv)
    if args.command == "demo":
        from .demo.run import main as demo_main

        return demo_main(args)
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
