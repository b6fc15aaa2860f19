"""Which tiles a blast reaches: one test of distance, for the damage and the aim alike.

Both the fireball and the targeting screen ask `in_blast`, so what is shown
can't differ from what is hit.  Differs from the tutorial, which showed a square.
"""

from __future__ import annotations


def in_blast(center: tuple[int, int], radius: int, x: int, y: int) -> bool:
    """Whether a blast of `radius` centred on `center` reaches (x, y).

    The tutorial's `Entity.distance(...) <= radius`, squared to stay in whole numbers.
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
