"""The demo without a window: scenes run headless, the command writes real pictures, and
input events injected into the demo loop do what the help says.

Pixel expectations come from the scene's view box and the camera's definition, worked out
by hand in the test (see ``test_headless_png_draws_the_pyramid_top_where_the_camera_puts_it``).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from numpy.testing import assert_allclose

pygame = pytest.importorskip("pygame")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from collide2d.__main__ import main as cli  # noqa: E402
from collide2d.demo import SCENES, Demo, display_problem, run_headless  # noqa: E402
from collide2d.draw import Palette  # noqa: E402

SIZE = (960, 600)


def key(k):
    return pygame.event.Event(pygame.KEYDOWN, key=k)


def key_up(k):
    return pygame.event.Event(pygame.KEYUP, key=k)


def click(pos, button=1):
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


def release(pos, button=1):
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)


def move(pos):
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0))


# ---------------------------------------------------------------------------- scenes
# 300 frames (5 simulated seconds) per scene; drawn every 60th frame, with and without the
# debug overlays. The whole parametrised test takes a few seconds with the kernels cached.
@pytest.mark.parametrize("name", list(SCENES))
def test_scene_runs_300_frames_without_nan(name):
    demo = Demo(name, size=(480, 300))
    surface = pygame.Surface(demo.size)
    for frame in range(300):
        assert demo.update() == 1
        if frame % 60 == 59:
            assert demo.finite(), f"{name}: NaN or inf at frame {frame}"
            demo.debug = not demo.debug
            demo.render(surface)
    assert demo.steps == 300
    assert demo.finite()
    assert len(demo.world.bodies) > 0
    lines = demo.hud_lines()
    assert name in lines[0] and "FPS" in lines[1] and "bodies" in lines[2]


def test_naval_broadsides_hit_only_the_enemy():
    demo = Demo("naval", size=(320, 200))
    scene = demo.scene
    team_of = {ship.id: team for ship, team, _ in scene.ships}
    enemy_hits = 0
    for _ in range(240):
        demo.update()
        for team, gun in enumerate(scene.guns):
            for b in gun.hits.body.tolist():
                body = demo.world.bodies[b]
                if body.kind == "dynamic":
                    assert team_of[body.id] != team, "a fleet hit its own ship"
                    enemy_hits += 1
    assert scene.fired > 0 and enemy_hits > 0
    assert enemy_hits == sum(scene.hits)


def test_demo_has_its_ten_scenes_in_order():
    assert list(SCENES) == ["naval", "dungeon", "tumble", "pyramid", "rain", "ragdolls", "car",
                            "bridge", "wrecking", "cradle"]


# ---------------------------------------------------------------------------- joint scenes
JOINT_SCENES = ["ragdolls", "car", "bridge", "wrecking", "cradle"]


def _joint_gaps(world) -> np.ndarray:
    g = world.joint_geometry()
    return np.hypot(*(g.anchor_a - g.anchor_b).T)


@pytest.mark.parametrize("name", JOINT_SCENES)
def test_joint_scene_writes_a_headless_gif(name, tmp_path):
    from PIL import Image

    out = tmp_path / f"{name}.gif"
    assert cli(["demo", name, "--headless", "--frames", "60", "--every", "20", "--size",
                "240x150", "--out", str(out)]) == 0
    with Image.open(out) as im:
        assert im.size == (240, 150) and im.n_frames == 3


@pytest.mark.parametrize("name", JOINT_SCENES)
def test_joint_scene_right_click_and_mouse_drag(name):
    demo = Demo(name, size=(480, 300))
    world = demo.world
    n_joints = len(world.joints)
    x0, y0, x1, y1 = demo.scene.view
    left = demo.camera.world_to_screen((x0 + 0.3 * (x1 - x0), y0 + 0.8 * (y1 - y0)))
    demo.handle([click(tuple(left), button=3)])
    for _ in range(30):
        demo.update()
    assert demo.finite()
    # Ragdolls and the bridge's drops add joints (a ragdoll: 10); the wrecking ball's chain
    # is rebuilt (13 again); the cradle's and the car's stay.
    added = {"ragdolls": 10, "bridge": 0, "wrecking": 0, "cradle": 0, "car": 0}[name]
    assert len(world.joints) == n_joints + added
    # Grab a dynamic body with the mouse: one more joint, a mouse joint, until release.
    body = next(b for b in world.bodies if b.kind == "dynamic")
    grab = demo.camera.world_to_screen(body.position)
    demo.handle([click(tuple(grab))])
    assert demo.drag is not None            # the body's origin is inside its shape
    assert len(world.joints) == n_joints + added + 1 and world.joints[-1].kind == "mouse"
    demo.handle([move(tuple(grab + (20.0, -20.0)))])
    demo.update()
    demo.handle([release(tuple(grab))])
    assert len(world.joints) == n_joints + added
    assert demo.finite()


def test_ragdolls_pile_up_with_their_joints_together():
    demo = Demo("ragdolls", size=(320, 200))
    for _ in range(420):
        demo.update()
    world, scene = demo.world, demo.scene
    # A drop every 20 frames when the spot is clear: about 20 ragdolls of 11 bones and 10
    # joints each, all revolute.
    assert scene.dropped >= 10
    assert len(world.joints) == 10 * scene.dropped
    assert {j.kind for j in world.joints} == {"revolute"}
    # Revolute anchors coincide (a rigid pin), within 2 cm under the pile's load;
    # no bone has left the bin (inner faces x = +-12, floor y = 0).
    assert _joint_gaps(world).max() < 0.02
    p = world.positions(world.body_ids()[1:])
    assert (np.abs(p[:, 0]) < 12.0).all() and (p[:, 1] > 0.0).all()


def test_car_motors_drive_it_over_the_hills():
    demo = Demo("car", size=(320, 200))
    scene = demo.scene
    x0 = scene.chassis.position[0]
    for _ in range(240):
        demo.update()
    # 4 s at up to 12 rad/s on 0.4 m wheels (4.8 m/s): it climbs the first hills.
    assert scene.chassis.position[0] - x0 > 6.0
    assert abs(scene.chassis.angle) < 1.0
    # The axles stay within their 0.25 m limits and on the chassis' axis.
    for j in scene.joints:
        assert abs(j.translation) <= 0.25 + 0.01
        d = j.anchor_b - j.anchor_a
        assert abs(d[0] * j.axis[1] - d[1] * j.axis[0]) < 0.01


def test_bridge_hangs_by_its_slack_and_ropes_never_stretch():
    from collide2d.demo.bridge import DECK, GAP, PLANK, PLANKS, ROPE

    demo = Demo("bridge", size=(320, 200))
    scene = demo.scene
    sags, lengths = [], []
    for f in range(235):                  # loads start falling at frame 240
        demo.update()
        rope = np.array([j.length for j in scene.ropes])
        # Ropes: slack below max_length, nearly inelastic when taut (the joints are stiff,
        # not rigid: 2 cm at the jerk of the first fall, far less at rest).
        assert rope.max() <= ROPE + 0.02
        if f >= 175:
            mid = 0.5 * (scene.planks[PLANKS // 2 - 1].position[1]
                         + scene.planks[PLANKS // 2].position[1])
            sags.append(DECK - 0.1 - mid)
            lengths.append(rope.sum())
    # A hanging chain of span L and length L + dL sags sqrt(3 L dL / 8) (the shallow
    # parabola): L = 20.2 m, dL = 21 ropes of about 0.22 m + 20 planks of 0.8 m - L, about
    # 0.42 m (taken from the ropes' lengths): about 1.8 m.
    span = PLANKS * PLANK + (PLANKS + 1) * GAP
    slack = np.mean(lengths) + PLANKS * PLANK - span
    assert 0.40 < slack < 0.55
    assert np.mean(sags) == pytest.approx(np.sqrt(3.0 * span * slack / 8.0), rel=0.1)


def test_wrecking_chain_holds_the_heavy_ball_and_smashes_the_tower():
    demo = Demo("wrecking", size=(320, 200))
    scene = demo.scene
    assert scene.ball.mass > 40.0 * scene.links[0].mass
    worst = 0.0
    for _ in range(300):
        demo.update()
        worst = max(worst, _joint_gaps(demo.world).max())
    assert worst < 0.05                     # the chain never pulls apart by 5 cm
    moved = [np.hypot(*(b.position - p)) for b, p in zip(scene.tower, scene.start,
                                                           strict=True)]
    assert max(moved) > 1.0


def test_cradle_passes_the_swing_to_the_last_ball():
    from collide2d.demo.cradle import LIFT, ROD

    demo = Demo("cradle", size=(320, 200))
    balls = demo.scene.balls
    rest = balls[2].position[1]
    h0 = ROD * (1.0 - np.cos(LIFT))        # the first ball's drop: 1.79 m
    assert balls[0].position[1] - rest == pytest.approx(h0)
    top = np.full(len(balls), -1.0)
    for _ in range(170):                    # 2.8 s: a quarter swing down, across, a quarter up
        demo.update()
        top = np.maximum(top, [b.position[1] - rest for b in balls])
    # Momentum and energy pass down the row: the last ball rises as high as the first one
    # fell (elastic impacts of equal masses swap velocities), the middle ones hardly move.
    assert top[-1] == pytest.approx(h0, rel=0.02)
    assert top[1:-1].max() < 0.01 * h0
    # The rods stay rigid.
    assert abs(np.array([j.length for j in demo.scene.rods]) - ROD).max() < 0.01


# ---------------------------------------------------------------------------- pictures
def _pyramid_top_pixel():
    # Pyramid view box (-13, -1.5) .. (13, 21): 26 x 22.5 m; the demo fits it with a 1 %
    # margin: zoom = min(960 * 0.98 / 26, 600 * 0.98 / 22.5) = 26.1333 px/m (height-bound),
    # centre (0, 9.75). The top box (20th row) is centred at (0, 19.5):
    zoom = min(960 * 0.98 / 26.0, 600 * 0.98 / 22.5)
    x = 960 / 2 + (0.0 - 0.0) * zoom
    y = 600 / 2 - (19.5 - 9.75) * zoom  # 45.2
    return x, y, zoom


def test_headless_png_draws_the_pyramid_top_where_the_camera_puts_it(tmp_path):
    out = tmp_path / "pyramid.png"
    assert cli(["demo", "pyramid", "--headless", "--frames", "3", "--out", str(out)]) == 0
    img = pygame.image.load(str(out))
    assert img.get_size() == SIZE
    x, y, zoom = _pyramid_top_pixel()
    # The top box is the 210th box: body slot 210 (the ground is slot 0), so its colour is
    # the palette's dynamic colour 210 % 8 = 2. Half a box is 13 px: sample inside it.
    top = Palette().dynamic[2]
    for dx, dy in ((0, 0), (-8, -8), (8, 8)):
        assert tuple(img.get_at((round(x + dx), round(y + dy))))[:3] == top
    # Above the box (y - 20 px) is the background.
    assert tuple(img.get_at((round(x), round(y - 20))))[:3] == Palette().background


def test_headless_gif_keeps_every_kth_frame(tmp_path):
    from PIL import Image

    out = tmp_path / "rain.gif"
    run_headless("rain", frames=6, out=out, size=(320, 200), every=2, quiet=True)
    with Image.open(out) as im:
        assert im.size == (320, 200)
        assert im.n_frames == 3
        assert im.info.get("loop") == 0


def test_headless_rejects_other_formats(tmp_path, capsys):
    assert cli(["demo", "pyramid", "--headless", "--out", str(tmp_path / "x.jpg")]) == 2
    assert ".png or .gif" in capsys.readouterr().err
    with pytest.raises(ValueError, match="out"):
        run_headless("pyramid", 1, tmp_path / "x.bmp", quiet=True)


def test_no_display_falls_back_to_headless(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert display_problem() is not None
    out = tmp_path / "fallback.png"
    assert cli(["demo", "tumble", "--frames", "2", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "no display" in err and "headless" in err
    assert pygame.image.load(str(out)).get_size() == SIZE


def test_window_loop_with_the_dummy_video_driver(monkeypatch):
    # SDL's dummy driver opens a "window" without a display: the real loop runs until the
    # injected QUIT, one update and one render per frame.
    from collide2d.demo import run_window

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    calls = []

    def events():
        calls.append(1)
        return [pygame.event.Event(pygame.QUIT)] if len(calls) == 3 else []

    monkeypatch.setattr(pygame.event, "get", events)
    run_window("pyramid", size=(320, 200))
    assert len(calls) == 3


def test_python_dash_m_command(tmp_path):
    out = tmp_path / "naval.png"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "collide2d",
            "demo",
            "naval",
            "--headless",
            "--frames",
            "2",
            "--size",
            "320x200",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert pygame.image.load(str(out)).get_size() == (320, 200)


# ---------------------------------------------------------------------------- input
def test_p_pauses_and_resumes():
    demo = Demo("pyramid", size=(320, 200))
    assert demo.update() == 1
    demo.handle([key(pygame.K_p)])
    assert demo.paused
    assert [demo.update() for _ in range(5)] == [0] * 5
    assert demo.steps == 1
    demo.handle([key(pygame.K_p)])
    assert not demo.paused and demo.update() == 1 and demo.steps == 2


def test_space_single_steps_exactly_one_frame():
    demo = Demo("tumble", size=(320, 200))
    demo.handle([key(pygame.K_SPACE)])  # running: space pauses and queues one step
    assert demo.paused
    t0 = demo.world.time
    assert [demo.update() for _ in range(4)] == [1, 0, 0, 0]
    assert demo.steps == 1
    assert demo.world.time == pytest.approx(t0 + demo.dt)
    demo.handle([key(pygame.K_SPACE), key(pygame.K_SPACE)])
    assert [demo.update() for _ in range(4)] == [1, 1, 0, 0]
    assert demo.steps == 3


def test_n_and_b_switch_scenes_and_wrap():
    names = list(SCENES)
    demo = Demo(names[0], size=(320, 200))
    demo.update()
    demo.handle([key(pygame.K_n)])
    assert demo.scene.name == names[1] and demo.steps == 0
    demo.handle([key(pygame.K_b), key(pygame.K_b)])
    assert demo.scene.name == names[-1]
    demo.handle([key(pygame.K_n)])
    assert demo.scene.name == names[0]


def test_d_h_r_and_quit():
    demo = Demo("pyramid", size=(320, 200))
    surface = pygame.Surface(demo.size)
    demo.handle([key(pygame.K_d), key(pygame.K_h)])
    assert demo.debug and demo.show_help
    demo.render(surface)  # help panel and overlays draw
    demo.handle([key(pygame.K_d), key(pygame.K_h)])
    assert not demo.debug and not demo.show_help
    for _ in range(3):
        demo.update()
    demo.handle([key(pygame.K_r)])
    assert demo.steps == 0
    demo.handle([key(pygame.K_ESCAPE)])
    assert not demo.running
    demo = Demo("pyramid", size=(320, 200))
    demo.handle([pygame.event.Event(pygame.QUIT)])
    assert not demo.running


def test_right_click_spawns_at_the_cursor():
    demo = Demo("pyramid")
    n = len(demo.world.bodies)
    # Pixel (100, 300) is (100 - 480) / 26.1333 = -14.54 m left of the centre, at the
    # centre's height 9.75 m (see _pyramid_top_pixel): empty space beside the pyramid.
    _, _, zoom = _pyramid_top_pixel()
    demo.handle([click((100, 300), button=3)])
    assert len(demo.world.bodies) == n + 1
    assert_allclose(demo.world.bodies[-1].position, ((100 - 480) / zoom, 9.75), atol=1e-9)


def test_left_drag_pulls_the_grabbed_body_to_the_cursor():
    demo = Demo("pyramid")
    x, y, zoom = _pyramid_top_pixel()
    top = demo.world.bodies[-1]
    assert_allclose(top.position, (0.0, 19.5), atol=1e-12)
    demo.handle([click((x, y)), move((x + 3 * zoom, y - 2 * zoom))])  # 3 m right, 2 m up
    assert demo.drag is not None and demo.drag[0] is top
    # The drag is a mouse joint on the grabbed body whose target is the cursor.
    (joint,) = demo.world.joints
    assert joint.kind == "mouse" and top in (joint.body_a, joint.body_b)
    assert_allclose(joint.target, (3.0, 21.5), atol=1e-9)
    for _ in range(90):
        demo.update()
    assert_allclose(top.position, (3.0, 21.5), atol=0.2)
    demo.handle([release((x, y))])
    assert demo.drag is None
    assert demo.world.joints == []


def test_left_press_on_empty_space_attracts():
    demo = Demo("naval")
    ship = demo.scene.ships[0][0]
    start = ship.position
    p = demo.camera.world_to_screen(start + (4.0, 0.0))  # 4 m ahead of the ship's origin
    demo.handle([click(tuple(p))])
    assert demo.attracting and demo.drag is None
    demo.scene.before_step = lambda dt: None  # no sailing: only the mouse pulls
    target = start + (4.0, 0.0)
    d0 = np.hypot(*(ship.position - target))
    for _ in range(30):
        demo.update()
    assert np.hypot(*(ship.position - target)) < 0.5 * d0


def test_left_press_in_the_dungeon_calls_characters():
    demo = Demo("dungeon")
    scene = demo.scene
    walker = scene.characters[5]
    p = walker.position
    target = p + (0.6, 0.0)             # just to its right (pixels ~18 px away)
    demo.handle([click(tuple(demo.camera.world_to_screen(target)))])
    demo.update()
    # It now heads for the cursor: its heading points at the target.
    h = scene.heading[5]
    assert_allclose((np.cos(h), np.sin(h)), (1.0, 0.0), atol=1e-9)


def test_wheel_zooms_about_the_mouse():
    demo = Demo("tumble")
    demo.handle([move((200, 150))])
    anchor = demo.camera.screen_to_world((200, 150))
    z = demo.camera.zoom
    demo.handle([pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2)])
    assert demo.camera.zoom == pytest.approx(z * 1.15**2)
    assert_allclose(demo.camera.world_to_screen(anchor), (200, 150), atol=1e-9)


def test_arrow_keys_walk_the_dungeon_hero():
    demo = Demo("dungeon")
    hero = demo.scene.hero
    x0 = hero.position[0]
    demo.handle([key(pygame.K_RIGHT)])
    for _ in range(10):
        demo.update()
    demo.handle([key_up(pygame.K_RIGHT)])
    x1 = hero.position[0]
    # 10 frames at 1.3 * 3 m/s = 0.65 m, unless a wall is in the way.
    assert 0.0 < x1 - x0 <= 0.65 + 1e-9
    for _ in range(5):
        demo.update()
    assert hero.position[0] == pytest.approx(x1)  # key released: the hero stands still
