"""Drawing a world into a pygame surface for the environments' render modes.

Every env draws its bodies from one call to ``world.shape_geometry()`` (the parts' world
vertices as arrays), so a frame costs one batch read, not a walk over Box2D fixtures.
Pixels are metres times ``scale``, y up (the caller flips the surface, as the originals do).
"""

from __future__ import annotations

import numpy as np


def check_mode(render_mode, modes) -> None:
    """A render_mode the env knows, or None; otherwise a ValueError naming it."""
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode: expected one of {modes} or None (got {render_mode!r})")


def warn_no_mode(env_id: str) -> None:
    """Gymnasium's warning for render() on an env made without a render mode."""
    import gymnasium as gym

    gym.logger.warn("You are calling render method without specifying any render mode. "
                    "You can specify the render_mode at initialization, "
                    f'e.g. gym.make("{env_id}", render_mode="rgb_array")')


def import_pygame():
    """pygame (pygame-ce or pygame), or a gymnasium DependencyNotInstalled error."""
    try:
        import pygame
        from pygame import gfxdraw
    except ImportError as e:  # pragma: no cover - pygame ships with the envs' extras
        from gymnasium.error import DependencyNotInstalled

        raise DependencyNotInstalled(
            'pygame is not installed: pip install "collide2d[envs]" pygame-ce') from e
    return pygame, gfxdraw


def draw_bodies(surf, world, colors: dict, scale: float, offset=(0.0, 0.0)) -> None:
    """Fill and outline every shape whose body id is in ``colors`` (id -> (fill, outline)),
    at ``scale`` pixels per metre, shifted by ``offset`` pixels."""
    pygame, gfxdraw = import_pygame()
    g = world.shape_geometry()
    ox, oy = offset
    for k in range(len(g.shape)):
        col = colors.get(int(g.body[k]))
        if col is None:
            continue
        fill, outline = col
        v = g.vertices[g.offset[k]:g.offset[k] + g.count[k]] * scale + (ox, oy)
        if g.count[k] == 1:
            centre = (float(v[0, 0]), float(v[0, 1]))
            r = float(g.radius[k] * scale)
            pygame.draw.circle(surf, fill, centre, r)
            pygame.draw.circle(surf, outline, centre, r, width=1)
        elif g.count[k] == 2:
            pygame.draw.line(surf, outline, v[0], v[1], width=max(1, int(2 * g.radius[k] * scale)))
        else:
            path = [tuple(p) for p in np.asarray(v, dtype=float).tolist()]
            pygame.draw.polygon(surf, fill, path)
            gfxdraw.aapolygon(surf, path, fill)
            pygame.draw.aalines(surf, outline, True, path)


def camera(points, zoom: float, translation, angle: float) -> np.ndarray:
    """World points (..., 2) to pixels of a camera turned by ``angle`` (rad), ``zoom``
    pixels per metre and shifted by ``translation`` pixels: pygame's
    ``Vector2.rotate_rad(angle) * zoom + translation`` on every point at once."""
    p = np.asarray(points, dtype=float)
    c, s = np.cos(angle), np.sin(angle)
    x = (p[..., 0] * c - p[..., 1] * s) * zoom + translation[0]
    y = (p[..., 0] * s + p[..., 1] * c) * zoom + translation[1]
    return np.stack((x, y), axis=-1)


def present(env, surf, size) -> np.ndarray | None:
    """Show ``surf`` (flipped to y down) in the env's window or return it as an RGB array."""
    pygame, _ = import_pygame()
    surf = pygame.transform.flip(surf, False, True)
    if env.render_mode == "human":
        if env.screen is None:
            pygame.init()
            pygame.display.init()
            env.screen = pygame.display.set_mode(size)
        if env.clock is None:
            env.clock = pygame.time.Clock()
        env.screen.blit(surf, (0, 0))
        pygame.event.pump()
        env.clock.tick(env.metadata["render_fps"])
        pygame.display.flip()
        return None
    return np.transpose(np.array(pygame.surfarray.pixels3d(surf)), axes=(1, 0, 2))


def close(env) -> None:
    if getattr(env, "screen", None) is not None:
        pygame, _ = import_pygame()
        pygame.display.quit()
        pygame.quit()
        env.screen = None
