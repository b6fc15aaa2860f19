"""Which tiles a blast reaches: one test of distance, for the damage and the aim alike.

The fireball hurts whoever stands within its radius of the chosen tile, and
the targeting screen shows exactly those tiles: both ask `in_blast`, so what
is shown can't differ from what is hit.  (The tutorial framed a square around
a round blast: 20 of the 49 tiles it framed were never hit.)
"""

from __future__ import annotations


def in_blast(center: tuple[int, int], radius: int, x: int, y: int) -> bool:
    """Whether a blast of `radius` centred on `center` reaches (x, y).

    The tutorial's test, `Entity.distance(...) <= radius`, in whole numbers:
    a square root compared with `radius` is the square compared with its square.
    """
    cx, cy = center
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius**2


def blast_tiles(center: tuple[int, int], radius: int) -> list[tuple[int, int]]:
    """Every tile a blast of `radius` centred on `center` reaches, row by row."""
    cx, cy = center
    return [
        (x, y)
        for y in range(cy - radius, cy + radius + 1)
        for x in range(cx - radius, cx + radius + 1)
        if in_blast(center, radius, x, y)
    ]
