"""Generate ``menu_background.png``, the art shown behind the main menu.

Why: the main menu wants a moody backdrop, but the project should not ship
third-party art of unclear licence.  This script draws one procedurally so the
image can be regenerated (and tweaked) by anyone, byte for byte.

How: a tiny numpy ray caster renders a torch-lit dungeon corridor in one-point
perspective.  Each (supersampled) pixel casts a ray into a box-shaped corridor;
the hit surface gets a bevelled stone-brick, flagstone or timber texture, is
lit by wall torches of randomly flickering strength (inverse-square falloff,
warm pools of light against a cold ambient), gets glints from puddles on the
floor, fades into fog with distance and finally receives flame sprites, glow
halos, embers and a vignette.  The centre of the picture, where the game
prints its title and menu, is the far end of the corridor and stays dark; the
vignette darkens that band and the bottom (credit) row a little more.
Everything is rendered at 3x3 supersampling and averaged, for smooth edges.

The game draws the 160x100 result with ``Console.draw_semigraphics`` on an
80x50 console (2x2 pixels per cell).

Usage: ``python tools/make_background.py [OUTPUT_PATH]``; the default output
is ``menu_background.png`` at the repository root, whatever the cwd is.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import tcod.image
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

WIDTH, HEIGHT = 160, 100
SUPERSAMPLE = 3
SEED = 20240607
FOCAL = 80.0  # Focal length in pixels.
HORIZON = 0.47  # Vanishing point height, as a fraction of the image height.

HALF_WIDTH = 1.0  # Walls at x = +-1.
FLOOR_Y = 1.0  # y grows downwards; the eye is at y = 0.
CEILING_Y = -1.35
CORRIDOR_END = 18.0
FOG_DENSITY = 0.12
FLOOR_STONE = (0.6, 0.45)  # Flagstone size (across, along the corridor).
MORTAR = 0.035  # Half-width of the joints between stones.
LIGHT_DECAY = 1.0  # Extra exponential light falloff: keeps torch pools distinct.
EXPOSURE = 2.5
GAMMA = 1.8

LEFT, RIGHT, FLOOR, CEILING, BACK = range(5)
NORMALS = np.array(
    [
        [1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, -1.0],
    ],
    dtype=np.float64,
)


def vec3(a: float, b: float, c: float) -> FloatArray:
    """Make a float array for an RGB colour (linear) or an xyz position."""
    return np.array([a, b, c], dtype=np.float64)


TORCH_COLOR = vec3(1.0, 0.5, 0.18)
AMBIENT = vec3(0.02, 0.03, 0.07)  # Cold moonlight-ish fill.
HANDLE_COLOR = vec3(0.12, 0.05, 0.02)
WALL_TINT = vec3(0.42, 0.40, 0.38)
FLOOR_TINT = vec3(0.33, 0.31, 0.30)
CEILING_TINT = vec3(0.24, 0.23, 0.23)
WOOD = vec3(0.16, 0.09, 0.05)
FLAME_RED = vec3(2.2, 0.45, 0.05)
FLAME_YELLOW = vec3(2.5, 2.1, 0.8)
EMBER = vec3(1.5, 0.5, 0.1)


@dataclass(frozen=True)
class Torch:
    """A wall torch: flame position in corridor space and its brightness."""

    position: FloatArray
    intensity: float


@dataclass(frozen=True)
class Hits:
    """Where each view ray hits the corridor."""

    distance: FloatArray  # Ray parameter t (the ray direction has z = 1).
    surface: IntArray  # One of LEFT, RIGHT, FLOOR, CEILING, BACK.
    point: FloatArray  # (..., 3) hit positions.


def view_rays(
    width: int, height: int, supersample: int
) -> tuple[FloatArray, FloatArray]:
    """Return the (u, v) = (x/z, y/z) direction of every supersampled ray."""
    xs = (np.arange(width * supersample) + 0.5) / supersample - width / 2
    ys = (np.arange(height * supersample) + 0.5) / supersample - height * HORIZON
    u, v = np.meshgrid(xs / FOCAL, ys / FOCAL)
    return u, v


def intersect(u: FloatArray, v: FloatArray) -> Hits:
    """Intersect rays (u, v, 1) with the walls, floor, ceiling and far wall."""
    with np.errstate(divide="ignore"):
        candidates = np.stack(
            [
                np.where(u < 0, -HALF_WIDTH / u, np.inf),
                np.where(u > 0, HALF_WIDTH / u, np.inf),
                np.where(v > 0, FLOOR_Y / v, np.inf),
                np.where(v < 0, CEILING_Y / v, np.inf),
                np.full_like(u, CORRIDOR_END),
            ]
        )
    surface = np.argmin(candidates, axis=0)
    distance = np.take_along_axis(candidates, surface[None], axis=0)[0]
    point = np.stack([u * distance, v * distance, distance], axis=-1)
    return Hits(distance, surface.astype(np.int64), point)


def surface_coords(hits: Hits) -> tuple[FloatArray, FloatArray]:
    """Return 2D texture coordinates (s, t) on whichever surface was hit."""
    x, y, z = hits.point[..., 0], hits.point[..., 1], hits.point[..., 2]
    on_wall = (hits.surface == LEFT) | (hits.surface == RIGHT)
    on_back = hits.surface == BACK
    s = np.where(on_wall, z, x)
    t = np.where(on_wall | on_back, y, z)
    return s, t


def bricks(
    s: FloatArray, t: FloatArray, size: tuple[float, float]
) -> tuple[IntArray, IntArray, FloatArray]:
    """Lay a running-bond brick pattern: (column, row, distance to the nearest joint)."""
    length, height = size
    row = np.floor(t / height).astype(np.int64)
    shifted = s / length + 0.5 * (row % 2)
    col = np.floor(shifted).astype(np.int64)
    edge_s = np.minimum(shifted % 1.0, 1.0 - shifted % 1.0) * length
    frac_t = (t / height) % 1.0
    edge_t = np.minimum(frac_t, 1.0 - frac_t) * height
    return col, row, np.minimum(edge_s, edge_t)


def stone_albedo(
    s: FloatArray,
    t: FloatArray,
    size: tuple[float, float],
    tint: FloatArray,
    rng: np.random.Generator,
) -> FloatArray:
    """Colour a brick pattern: per-stone shade and hue, grain, bevels, mortar."""
    col, row, edge = bricks(s, t, size)
    brightness = rng.uniform(0.55, 1.15, size=(61, 59))
    hue = rng.normal(1.0, 0.06, size=(61, 59, 3))
    stone = brightness[col % 61, row % 59, None] * hue[col % 61, row % 59] * tint
    grain = rng.uniform(0.85, 1.15, size=s.shape)
    bevel = 0.65 + 0.35 * np.clip((edge - MORTAR) / 0.06, 0.0, 1.0)
    shade = np.where(edge < MORTAR, 0.2, grain * bevel)
    return shade[..., None] * stone


def timber_beams(t: FloatArray, albedo: FloatArray) -> FloatArray:
    """Paint dark wooden cross-beams over a ceiling albedo."""
    beam = ((t + 0.3) % 2.5) < 0.35
    return np.where(beam[..., None], WOOD, albedo)


def albedo(hits: Hits, rng: np.random.Generator) -> FloatArray:
    """Diffuse colour of every hit point."""
    s, t = surface_coords(hits)
    wall = stone_albedo(s, t, (0.55, 0.24), WALL_TINT, rng)
    floor = stone_albedo(s, t, FLOOR_STONE, FLOOR_TINT, rng)
    ceiling = timber_beams(t, stone_albedo(s, t, (0.5, 0.3), CEILING_TINT, rng))
    colours = np.stack([wall, wall, floor, ceiling, wall])
    index = hits.surface[None, ..., None]
    chosen: FloatArray = np.take_along_axis(colours, index, axis=0)[0]
    return chosen


def make_torches(rng: np.random.Generator) -> list[Torch]:
    """Place torches on alternating walls, receding into the distance."""
    torches = []
    for i, depth in enumerate([1.9, 4.2, 7.4, 11.0, 14.6]):
        side = -1.0 if i % 2 == 0 else 1.0
        position = vec3(side * (HALF_WIDTH - 0.2), -0.42, depth)
        torches.append(Torch(position, float(rng.uniform(0.8, 1.2))))
    return torches


def irradiance(hits: Hits, torches: list[Torch]) -> FloatArray:
    """Light reaching every hit point from the torches plus a faint ambient."""
    normal = NORMALS[hits.surface]
    total = np.zeros(hits.distance.shape)
    for torch in torches:
        to_light = torch.position - hits.point
        dist2 = np.sum(to_light**2, axis=-1)
        facing = np.sum(normal * to_light, axis=-1) / np.sqrt(dist2)
        falloff = np.exp(-LIGHT_DECAY * np.sqrt(dist2)) / (dist2 + 0.25)
        total += torch.intensity * np.clip(facing, 0.0, None) * falloff
    return total[..., None] * TORCH_COLOR + AMBIENT


def value_noise(s: FloatArray, t: FloatArray, rng: np.random.Generator) -> FloatArray:
    """Smooth 0..1 noise: a random lattice, bilinearly interpolated."""
    lattice = rng.random((64, 64))
    i, j = np.floor(s).astype(np.int64), np.floor(t).astype(np.int64)
    fs, ft = s - i, t - j
    fs, ft = fs * fs * (3 - 2 * fs), ft * ft * (3 - 2 * ft)

    def at(di: int, dj: int) -> FloatArray:
        return lattice[(i + di) % 64, (j + dj) % 64]

    top = at(0, 0) * (1 - fs) + at(1, 0) * fs
    bottom = at(0, 1) * (1 - fs) + at(1, 1) * fs
    return top * (1 - ft) + bottom * ft


def wet_sheen(hits: Hits, torches: list[Torch], rng: np.random.Generator) -> FloatArray:
    """Specular torch reflections on the puddled flagstones of the floor."""
    s, t = surface_coords(hits)
    _, _, edge = bricks(s, t, FLOOR_STONE)
    wetness = np.clip(3.0 * value_noise(s / 0.7, t / 0.9, rng) - 1.6, 0.0, 1.0)
    wetness *= (hits.surface == FLOOR) & (edge > MORTAR)
    view = -hits.point / np.linalg.norm(hits.point, axis=-1, keepdims=True)
    total = np.zeros(hits.distance.shape)
    for torch in torches:
        to_light = torch.position - hits.point
        dist2 = np.sum(to_light**2, axis=-1)
        half = to_light / np.sqrt(dist2)[..., None] + view
        cos_half = -half[..., 1] / np.linalg.norm(half, axis=-1)  # Floor normal is -y.
        total += torch.intensity * np.clip(cos_half, 0.0, None) ** 400 / (dist2 + 0.25)
    return (6.0 * wetness * total)[..., None] * TORCH_COLOR


def sparks(dx: FloatArray, dy: FloatArray, rng: np.random.Generator) -> FloatArray:
    """A few embers drifting up from a flame, as small glowing dots."""
    glow = np.zeros(dx.shape)
    for _ in range(3):
        ex, ey = rng.normal(0.0, 0.06), rng.uniform(-0.6, -0.35)
        glow += np.exp(-((dx - ex) ** 2 + (dy - ey) ** 2) / (2 * 0.012**2))
    return glow[..., None] * EMBER


def flame(dx: FloatArray, dy: FloatArray, phase: float) -> FloatArray:
    """Emission of one teardrop-shaped flame; (dx, dy) are world offsets."""
    lean = 0.03 * np.sin(-dy * 22.0 + phase) * np.clip(-dy / 0.25, 0.0, 1.0)
    height = np.clip((0.04 - dy) / 0.42, 0.0, 1.0)  # 0 at the base, 1 at the tip.
    width = 0.1 * np.sin(np.pi * np.sqrt(height)) + 1e-6
    heat = np.clip(1.0 - np.abs(dx - lean) / width, 0.0, 1.0) * (dy < 0.04)
    heat = heat * (1.0 - 0.6 * height)
    return heat[..., None] * FLAME_RED + (heat**2.5)[..., None] * FLAME_YELLOW


def torch_offsets(
    u: FloatArray, v: FloatArray, torch: Torch
) -> tuple[FloatArray, FloatArray]:
    """Screen offsets from a torch, in world units at the torch's depth."""
    x, y, z = torch.position
    return (u - x / z) * z, (v - y / z) * z


def torch_emission(
    u: FloatArray, v: FloatArray, torches: list[Torch], rng: np.random.Generator
) -> FloatArray:
    """Screen-space flames and glow halos, added on top of the lit scene."""
    out = np.zeros((*u.shape, 3))
    for torch in torches:
        dx, dy = torch_offsets(u, v, torch)
        halo = np.exp(-(dx**2 + (dy + 0.12) ** 2) / (2 * 0.25**2)) * 0.22
        out += (
            flame(dx, dy, float(rng.uniform(0, 6.3))) + halo[..., None] * TORCH_COLOR
        ) * torch.intensity
        out += sparks(dx, dy, rng) if torch.position[2] < 5.0 else 0.0
    return out


def torch_handles(
    u: FloatArray, v: FloatArray, torches: list[Torch]
) -> NDArray[np.bool_]:
    """Mask of the wooden torch handles, slanting down towards their wall."""
    mask = np.zeros(u.shape, dtype=bool)
    for torch in torches:
        dx, dy = torch_offsets(u, v, torch)
        centre = 0.3 * (dy - 0.04) * np.sign(torch.position[0])
        mask |= (np.abs(dx - centre) < 0.035) & (dy > 0.02) & (dy < 0.34)
    return mask


def vignette(shape: tuple[int, int]) -> FloatArray:
    """Darken the corners, plus the band where the menu text is printed."""
    ny = ((np.arange(shape[0]) + 0.5) / shape[0] * 2 - 1)[:, None]
    nx = ((np.arange(shape[1]) + 0.5) / shape[1] * 2 - 1)[None, :]
    edge = np.clip(1.0 - 0.55 * (nx**2 + ny**2) ** 1.5, 0.0, 1.0)
    menu = 1.0 - 0.65 * np.exp(-((nx / 0.5) ** 2) - ((ny + 0.08) / 0.24) ** 2)
    bottom = 1.0 - 0.6 * np.clip((ny - 0.88) / 0.12, 0.0, 1.0)
    return edge * menu * bottom


def tone_map(radiance: FloatArray) -> FloatArray:
    """Map linear radiance to display values in 0..1 (exponential roll-off, gamma)."""
    return (1.0 - np.exp(-EXPOSURE * np.clip(radiance, 0.0, None))) ** (1 / GAMMA)


def downsample(image: FloatArray, factor: int) -> FloatArray:
    """Average factor x factor blocks of an (H, W, 3) image."""
    h, w = image.shape[0] // factor, image.shape[1] // factor
    blocks = image.reshape(h, factor, w, factor, 3)
    averaged: FloatArray = blocks.mean(axis=(1, 3))
    return averaged


def render(seed: int = SEED) -> NDArray[np.uint8]:
    """Render the corridor as a (HEIGHT, WIDTH, 3) uint8 RGB array."""
    rng = np.random.default_rng(seed)
    u, v = view_rays(WIDTH, HEIGHT, SUPERSAMPLE)
    hits = intersect(u, v)
    torches = make_torches(rng)
    fog = np.exp(-FOG_DENSITY * hits.distance)[..., None]
    radiance = albedo(hits, rng) * irradiance(hits, torches)
    radiance += wet_sheen(hits, torches, rng)
    radiance += torch_emission(u, v, torches, rng)
    radiance[torch_handles(u, v, torches)] = HANDLE_COLOR
    radiance *= fog
    image = (
        downsample(tone_map(radiance), SUPERSAMPLE)
        * vignette((HEIGHT, WIDTH))[..., None]
    )
    return np.round(np.clip(image, 0.0, 1.0) * 255).astype(np.uint8)


def main(argv: list[str]) -> None:
    """Write the background to argv[1] or to the repository root."""
    default = Path(__file__).resolve().parent.parent / "menu_background.png"
    output = Path(argv[1]) if len(argv) > 1 else default
    tcod.image.Image.from_array(render()).save_as(output)
    print(f"Wrote {output}")


if __name__ == "__main__":
    main(sys.argv)
