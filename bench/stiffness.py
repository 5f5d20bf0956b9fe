"""What the contact stiffness trades: collide2d at several ``contact_hertz`` (4 substeps)
and Box2D v3 at its defaults (30 Hz), on the suite's scenes that pull the setting each way.

A stiffer spring rests shallower (a stack sags by load / (m_eff (2 pi f)^2)) and holds
taller towers, but at 4 substeps Gauss-Seidel no longer settles some piles: a pyramid whose
boxes each rest on two below, off centre, rocks for ever. Columns: that pyramid's largest
box speed over its fourth second (rows 0.02 m apart), the plain B = 40 pyramid's largest
displacement and speed, the largest offset of a column of 20 and of 30 boxes after 10 s
(1 cm shifts; a fallen column reads metres), a 1000 kg box's drop into a 1 kg one, and
the B = 100 pyramid's sag. The scenes are ``tests/solver_scenes.py``'s.

    python bench/stiffness.py [30 40 50]   # and 30 Hz with max_substeps=8
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solver_suite import B2D3, S  # noqa: E402

COLUMNS = {
    "gapped B = 40 speed (m/s)": lambda e: S.pyramid(e, 40, 240, gap=0.02)["speed"],
    "B = 40 moved (m)": lambda e: S.pyramid(e, 40, 600)["moved"],
    "B = 40 speed (m/s)": lambda e: S.pyramid(e, 40, 600)["speed"],
    "column of 20 offset (m)": lambda e: S.column_of_boxes(e, n=20)["offset"],
    "column of 30 offset (m)": lambda e: S.column_of_boxes(e, n=30)["offset"],
    "1:1000 drop (m)": lambda e: S.heavy_on_light(e, 1000.0)["drop"],
    "B = 100 sag (m)": lambda e: S.pyramid(e, 100, 500)["sag"],
}


def _engine(settings):
    if settings is None:
        return B2D3

    class Stiff(S.C2D):
        pass

    Stiff.settings = settings
    return Stiff


def main(argv):
    hertz = [float(a) for a in argv[1:]] or [30.0, 40.0, 50.0]
    rows = [(f"collide2d {hz:g} Hz", {"contact_hertz": hz}) for hz in hertz]
    rows.append(("collide2d 30 Hz, max_substeps 8", {"contact_hertz": 30.0, "max_substeps": 8}))
    rows.append(("Box2D v3 (30 Hz)", None))
    print("| engine | " + " | ".join(COLUMNS) + " |")
    print("|---|" + "---|" * len(COLUMNS))
    for name, settings in rows:
        engine = _engine(settings)
        t0 = time.perf_counter()
        cells = [f"{figure(engine()):.3g}" for figure in COLUMNS.values()]
        print(f"| {name} | " + " | ".join(cells) + f" |  <!-- {time.perf_counter() - t0:.0f} s -->",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
