"""The palettes: contrast measured on every glyph colour against every background the game
draws it on, and what the colour-blind palette must set apart."""

from __future__ import annotations

import numpy as np
import pytest
import tcod
from conftest import arena

import color
import entity_factories
import render_functions
import tile_types
from color import Color
from engine import Engine
from entity import Entity, Item
from game_map import remembered
from window import options, palettes

# WCAG 2's least contrast for text (AA).
READABLE = 4.5
# How much lighter one of two things told apart must be than the other: the
# same ratio, of lightness alone.
APART = 1.5
# The HP bar's filled and empty parts, further apart still.
BAR_APART = 3.0

WALKABLE = [tile for tile in (tile_types.floor, tile_types.down_stairs) if tile["walkable"]]


def templates() -> list[Entity]:
    """Every monster and item the game spawns, and the player."""
    return [value for value in vars(entity_factories).values() if isinstance(value, Entity)]


def map_glyphs(palette: palettes.Palette) -> list[tuple[str, Color]]:
    """Every glyph colour drawn on the map: things in view, items remembered,
    the stairs' glyph lit and remembered; each with what it is."""
    glyphs = [(entity.name, palette.glyph(entity.color)) for entity in templates()]
    glyphs.append(("a corpse", palette.glyph(color.corpse)))
    glyphs += [
        (f"a remembered {item.name}", remembered(palette.glyph(item.color)))
        for item in templates()
        if isinstance(item, Item)
    ]
    for state in ("light", "dark"):
        rgb = tuple(int(c) for c in tile_types.down_stairs[state]["fg"])
        glyphs.append((f"the stairs ({state})", palette.glyph(rgb)))  # type: ignore[arg-type]
    return glyphs


def map_backgrounds(palette: palettes.Palette) -> list[tuple[str, Color]]:
    """Every background a glyph stands on: a walkable tile lit, remembered, and unexplored."""
    found = []
    for tile in WALKABLE:
        found.append(("lit", palette.background(palettes.lit(tile))))
        found.append(("remembered", palette.background(palettes.dim(tile))))
    shroud = tuple(int(c) for c in tile_types.SHROUD["bg"])
    found.append(("unexplored", palette.background(shroud)))  # type: ignore[arg-type]
    return list(dict.fromkeys(found))  # The stairs' backgrounds are the floor's.


def hud_pairs(palette: palettes.Palette) -> list[tuple[str, Color, Color]]:
    """The HP bar's text on its two backgrounds, and every text colour on black."""
    text = palette.glyph(color.bar_text)
    pairs = [
        ("HP text on the filled bar", text, palette.background(color.bar_filled)),
        ("HP text on the empty bar", text, palette.background(color.bar_empty)),
    ]
    backgrounds = {color.black, color.bar_filled, color.bar_empty, color.blast_area}
    # Glyph colours (drawn on the map, checked there), found from the game's own
    # things: a monster or an item added with a colour of its own is one too.
    things = {entity.color for entity in templates()} | {color.corpse}
    for name, value in vars(color).items():
        if isinstance(value, tuple) and value not in backgrounds | things:
            pairs.append((f"message colour {name} on black", value, color.black))
    return pairs


def drawn_pairs(palette: palettes.Palette) -> list[tuple[str, float]]:
    """Every (what, contrast ratio) the palette draws, lowest first."""
    pairs = [
        (f"{what} on {where}", palettes.contrast(glyph, background))
        for what, glyph in map_glyphs(palette)
        for where, background in map_backgrounds(palette)
    ]
    pairs += [(what, palettes.contrast(fg, bg)) for what, fg, bg in hud_pairs(palette)]
    return sorted(pairs, key=lambda pair: pair[1])


def test_the_contrast_ratio_is_wcag_2s() -> None:
    assert palettes.contrast(color.black, color.white) == pytest.approx(21.0)
    assert palettes.contrast(color.white, color.white) == 1.0
    # WCAG's own example: #777 on white is just under 4.5.
    assert palettes.contrast((0x77, 0x77, 0x77), color.white) == pytest.approx(4.48, abs=0.01)
    # Below 0.04045 (a channel of 10 or less) sRGB is linear, as the remembered tiles' darks are.
    assert palettes.luminance((10, 10, 10)) == pytest.approx(10 / 255 / 12.92)
    assert palettes.luminance((11, 11, 11)) == pytest.approx(((11 / 255 + 0.055) / 1.055) ** 2.4)


def test_the_tutorial_palette_is_the_default_and_changes_nothing() -> None:
    assert options.Options().palette is palettes.TUTORIAL
    assert not palettes.TUTORIAL.glyphs and not palettes.TUTORIAL.backgrounds


def test_every_glyph_of_the_high_contrast_palette_reads_on_every_background() -> None:
    pairs = drawn_pairs(palettes.HIGH_CONTRAST)
    print("high contrast, lowest:", pairs[:3])
    low = [(what, round(ratio, 2)) for what, ratio in pairs if ratio < READABLE]
    assert low == []


def test_the_tutorial_palette_did_not(capsys: pytest.CaptureFixture[str]) -> None:
    """Why the high-contrast palette is there: the issue measured these."""
    ratios = dict(drawn_pairs(palettes.TUTORIAL))
    assert ratios["Orc on lit"] < 3
    assert ratios["a remembered Health Potion on remembered"] < 2


def test_the_colour_blind_palette_sets_apart_by_lightness_what_must_be() -> None:
    palette = palettes.COLOUR_BLIND
    for a, b in palettes.TOLD_APART:
        assert palettes.contrast(palette.glyph(a), palette.glyph(b)) >= APART, (a, b)
    filled, empty = (palette.background(rgb) for rgb in palettes.BAR)
    assert palettes.contrast(filled, empty) >= BAR_APART
    # And it reads as well as the high-contrast one.
    assert drawn_pairs(palette)[0][1] >= READABLE
    # The tutorial's orc and troll were one shade of green apart.
    orc, troll = palettes.TOLD_APART[0]
    assert palettes.contrast(orc, troll) < APART


@pytest.mark.parametrize("palette", palettes.ALL, ids=[p.name for p in palettes.ALL])
def test_the_map_and_the_bar_are_drawn_in_the_chosen_palette(
    palette: palettes.Palette,
) -> None:
    engine: Engine = arena(at=(5, 5))
    engine.settings.options = options.Options(palette=palette)
    potion = entity_factories.health_potion.spawn(engine.game_map, 6, 5)
    seen = engine.game_map.visible.copy()
    console = tcod.console.Console(80, 50, order="F")
    engine.render(console)
    player = engine.player
    assert tuple(console.rgb["fg"][player.x, player.y]) == palette.glyph(player.color)
    assert tuple(console.rgb["fg"][6, 5]) == palette.glyph(potion.color)
    assert tuple(console.rgb["bg"][6, 5]) == palette.background(palettes.lit(tile_types.floor))
    assert tuple(console.rgb["bg"][0, 45]) == palette.background(color.bar_filled)
    # Out of view, the potion is remembered, faded, on the remembered floor.
    engine.game_map.visible[:] = False
    engine.game_map.explored[:] = seen
    engine.render(console)
    assert tuple(console.rgb["fg"][6, 5]) == remembered(palette.glyph(potion.color))
    assert tuple(console.rgb["bg"][6, 5]) == palette.background(palettes.dim(tile_types.floor))
    render_functions.render_bar(console, 0, 30, 20, palette)
    assert tuple(console.rgb["bg"][0, 45]) == palette.background(color.bar_empty)


def test_recolor_changes_only_the_colours_it_names() -> None:
    graphics = np.array([tile_types.floor["light"], tile_types.wall["dark"]])
    out = palettes.HIGH_CONTRAST.recolor(graphics)
    assert tuple(out["bg"][0]) == palettes.HIGH_CONTRAST.background(palettes.lit(tile_types.floor))
    assert tuple(out["fg"][0]) == tuple(graphics["fg"][0])
    assert list(out["ch"]) == list(graphics["ch"])
    assert tuple(graphics["bg"][0]) == palettes.lit(tile_types.floor)  # The tiles keep theirs.


def test_the_high_contrast_map_has_dark_floors_and_bright_walls() -> None:
    """What docs/playing.md promises of it, and the very colours: a floor's or a wall's colour
    is drawn under no glyph the contrast tests measure (walls) or passes them with room to
    spare (floors), so only this test sees one change."""
    palette = palettes.HIGH_CONTRAST
    for state in (palettes.lit, palettes.dim):
        wall, floor = (palette.background(state(tile)) for tile in (tile_types.wall, tile_types.floor))
        assert palettes.luminance(wall) > palettes.luminance(floor), state.__name__
    assert palette.backgrounds == {
        palettes.lit(tile_types.floor): (46, 38, 12),
        palettes.dim(tile_types.floor): (14, 14, 40),
        palettes.lit(tile_types.wall): (170, 150, 90),
        palettes.dim(tile_types.wall): (60, 60, 120),
    }
    assert palettes.COLOUR_BLIND.backgrounds.items() >= palette.backgrounds.items()
