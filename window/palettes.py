"""Palettes: the colours the map and the HP bar are drawn in, one chosen in the options.

A palette maps glyph and background colours of the tutorial's apart, since one
colour may be both (the remembered stairs' glyph is the remembered wall's blue).
It applies only as the map is drawn, so what the game stores and saves keeps the
tutorial's colours, and a change of palette changes the screen and nothing else.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Final

import numpy as np
from numpy.typing import NDArray

import color
import tile_types
from color import Color


def lit(tile: NDArray[np.void]) -> Color:
    """A tile type's background in view."""
    r, g, b = tile["light"]["bg"]
    return int(r), int(g), int(b)


def dim(tile: NDArray[np.void]) -> Color:
    """A tile type's background out of view, remembered."""
    r, g, b = tile["dark"]["bg"]
    return int(r), int(g), int(b)


def dim_glyph(tile: NDArray[np.void]) -> Color:
    """A tile type's glyph colour out of view (the remembered stairs')."""
    r, g, b = tile["dark"]["fg"]
    return int(r), int(g), int(b)


@dataclasses.dataclass(frozen=True, eq=False)
class Palette:
    """A palette's name (as the options show it) and the colours it changes.  Each
    palette is one of the few made here, equal only to itself: the options' names
    (`NAMES`) look it up as a key, which its colour tables could not hash."""

    name: str
    glyphs: Mapping[Color, Color] = dataclasses.field(default_factory=dict)
    backgrounds: Mapping[Color, Color] = dataclasses.field(default_factory=dict)

    def glyph(self, rgb: Color) -> Color:
        """The colour a glyph of the tutorial's colour `rgb` is drawn in."""
        return self.glyphs.get(rgb, rgb)

    def background(self, rgb: Color) -> Color:
        """The colour a background of the tutorial's colour `rgb` is drawn in."""
        return self.backgrounds.get(rgb, rgb)

    def recolor(self, graphics: NDArray[np.void]) -> NDArray[np.void]:
        """Tile graphics (`tile_types.graphic_dt`) with this palette's colours."""
        if not self.glyphs and not self.backgrounds:
            return graphics
        out = graphics.copy()
        for layer, table in (("fg", self.glyphs), ("bg", self.backgrounds)):
            before = graphics[layer]
            for old, new in table.items():
                out[layer][(before == old).all(axis=-1)] = new
        return out


TUTORIAL: Final = Palette("tutorial")

# Dark floors, bright walls, and every glyph 4.5:1 or more (WCAG 2's ratio for
# text) against every background it can stand on.
HIGH_CONTRAST: Final = Palette(
    "high contrast",
    glyphs={
        dim_glyph(tile_types.down_stairs): (200, 200, 255),
        color.orc: (120, 230, 120),
        color.troll: (40, 210, 40),
        color.health_potion: (200, 150, 255),
        color.confusion_scroll: (235, 150, 255),
        color.fireball_scroll: (255, 130, 110),
        color.armor: (225, 160, 95),
        color.corpse: (255, 110, 110),
    },
    backgrounds={
        lit(tile_types.floor): (46, 38, 12),
        dim(tile_types.floor): (14, 14, 40),
        lit(tile_types.wall): (170, 150, 90),
        dim(tile_types.wall): (60, 60, 120),
    },
)

# The high-contrast map, with lightness telling apart what hue alone did, for
# players who can't tell red from green.
COLOUR_BLIND: Final = Palette(
    "colour-blind safe",
    glyphs={
        **HIGH_CONTRAST.glyphs,
        # The orc bright, the troll dark: otherwise only a shade of green tells them apart.
        color.orc: (190, 240, 190),
        color.troll: (0, 175, 80),
        # The potion darker than every scroll.
        color.health_potion: (165, 140, 255),
        color.confusion_scroll: (245, 200, 255),
        color.fireball_scroll: (255, 190, 140),
    },
    backgrounds={
        **HIGH_CONTRAST.backgrounds,
        # The bar: bright blue where filled, near black where empty.
        color.bar_filled: (40, 110, 210),
        color.bar_empty: (40, 8, 8),
    },
)

ALL: Final = (TUTORIAL, HIGH_CONTRAST, COLOUR_BLIND)
NAMES: Final[Mapping[Palette, str]] = {palette: palette.name for palette in ALL}

# What the colour-blind palette must set apart by lightness: glyph colours
# (and the bar's two backgrounds), as the tutorial names them.
TOLD_APART: Final[tuple[tuple[Color, Color], ...]] = (
    (color.orc, color.troll),
    (color.health_potion, color.confusion_scroll),
    (color.health_potion, color.fireball_scroll),
    (color.health_potion, color.lightning_scroll),
)
BAR: Final = (color.bar_filled, color.bar_empty)


def luminance(rgb: Color) -> float:
    """WCAG 2's relative luminance of an sRGB colour, 0 (black) to 1 (white)."""
    channels = np.array(rgb, dtype=np.float64) / 255
    linear = np.where(channels <= 0.04045, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)
    return float(linear @ np.array([0.2126, 0.7152, 0.0722]))


def contrast(a: Color, b: Color) -> float:
    """WCAG 2's contrast ratio of two colours, 1 (the same) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
