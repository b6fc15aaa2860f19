"""Drawing the interface around the map (HP bar, floor number, names under
the mouse) and the windows over it: frames, popups, dimming and tints."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

import numpy as np
import tcod

import color
from window import palettes
from window.palettes import Palette
from words import descriptions

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from engine import Engine
    from game_map import GameMap


def render_bar(
    console: tcod.console.Console,
    current_value: int,
    maximum_value: int,
    total_width: int,
    palette: Palette = palettes.TUTORIAL,
) -> None:
    """The HP bar on row 45, drawn in `palette`."""
    bar_width = int(float(current_value) / maximum_value * total_width)

    # Differs from the tutorial: spaces, not character 1 (a stray glyph in some tilesets).
    console.draw_rect(
        x=0, y=45, width=total_width, height=1, ch=ord(" "), bg=palette.background(color.bar_empty)
    )

    if bar_width > 0:
        console.draw_rect(
            x=0, y=45, width=bar_width, height=1, ch=ord(" "), bg=palette.background(color.bar_filled)
        )

    console.print(
        x=1, y=45, text=f"HP: {current_value}/{maximum_value}", fg=palette.glyph(color.bar_text)
    )


def render_progress(console: tcod.console.Console, text: str, share: float) -> None:
    """`text` over a bar filled to `share` (0 to 1), in the middle of the screen."""
    width = console.width // 2
    x, y = (console.width - width) // 2, console.height // 2
    console.print(console.width // 2, y - 2, text, fg=color.white, alignment=tcod.constants.CENTER)
    console.draw_rect(x=x, y=y, width=width, height=1, ch=ord(" "), bg=color.bar_empty)
    filled = round(max(0.0, min(1.0, share)) * width)
    if filled > 0:
        console.draw_rect(x=x, y=y, width=filled, height=1, ch=ord(" "), bg=color.bar_filled)


def render_dungeon_level(
    console: tcod.console.Console, dungeon_level: int, location: tuple[int, int]
) -> None:
    """Render the level the player is currently on, at the given location."""
    x, y = location

    console.print(x=x, y=y, text=f"Dungeon level: {dungeon_level}")


def render_character_level(
    console: tcod.console.Console, level: int, xp_to_go: int, location: tuple[int, int]
) -> None:
    """The player's level and the experience the next one needs, on two rows from `location`."""
    # Differs from the tutorial: the HUD showed HP and depth only.
    x, y = location
    console.print(x=x, y=y, text=f"Character level: {level}")
    console.print(x=x, y=y + 1, text=f"XP to next: {xp_to_go}")


# Where the line naming what is under the mouse or the look cursor is drawn, and its width.
NAMES_AT: Final = (21, 44)
NAMES_WIDTH: Final = 59
# A cursor's prompt ("Travel where?"): the free row between the map (43 rows) and the panel,
# the whole width, so that a prompt is no message and pushes none out of the log.
PROMPT_AT: Final = (0, 43)
PROMPT_WIDTH: Final = 80


def get_names_at_location(x: int, y: int, game_map: GameMap) -> str:
    """What the player sees at (x, y), top first ("Orc, badly wounded"); empty out of sight.

    The words are `descriptions`', so the look window can't tell a monster differently.
    """
    return descriptions.names_at(x, y, game_map)


def render_names_at_mouse_location(
    console: tcod.console.Console, x: int, y: int, engine: Engine
) -> None:
    """What is under the mouse or the look cursor (see `get_names_at_location`)."""
    mouse_x, mouse_y = engine.mouse_location
    console.print(x=x, y=y, text=get_names_at_location(mouse_x, mouse_y, engine.game_map))


def render_prompt(console: tcod.console.Console, prompt: str) -> None:
    """A cursor's prompt on its own row, in the colour prompts had in the log; a prompt
    too long for the row shows its first words (the screen reader says it whole)."""
    x, y = PROMPT_AT
    console.print(x, y, prompt, fg=color.needs_target, width=PROMPT_WIDTH, height=1)


def draw_window(
    console: tcod.console.Console,
    x: int,
    y: int,
    width: int,
    height: int,
    title: str,
    fg: tuple[int, int, int] = color.white,
    bg: tuple[int, int, int] = color.black,
) -> None:
    """Clear a framed window and print its title, inverted, on the top edge
    (the look of tcod's deprecated `draw_frame(title=...)`)."""
    console.draw_frame(x, y, width, height, clear=True, fg=fg, bg=bg)
    if not title:
        return
    # Centred by hand: tcod's CENTER puts an odd title's extra character on
    # the left, where it can cover the frame's corner.
    text = f" {title} "
    console.print(x + (width - len(text)) // 2, y, text, fg=bg, bg=fg)


# What is left of the colours of the screen behind a popup: enough to see
# where one is, dim enough that the popup's text is all that reads.
DIM_FRACTION: Final = 0.35
# How much of the tint a tile under a blast takes; its glyph is kept as it was.
TINT_FRACTION: Final = 0.6
# The least brightness (0-255) of a tinted tile.
TINT_LEAST_BRIGHTNESS: Final = 48.0


def dim(console: tcod.console.Console) -> None:
    """Darken everything drawn so far, so that a popup drawn next stands out."""
    for layer in ("fg", "bg"):
        console.rgb[layer] = (console.rgb[layer] * DIM_FRACTION).astype(np.uint8)


def tint(
    console: tcod.console.Console,
    tiles: Iterable[tuple[int, int]],
    tint_color: tuple[int, int, int],
) -> None:
    """Shift the background of `tiles` on the console towards `tint_color`.

    The brightness is kept, so each glyph stands out from it as much as before.
    """
    inside = [(x, y) for x, y in tiles if 0 <= x < console.width and 0 <= y < console.height]
    if not inside:
        return
    xs, ys = zip(*inside, strict=True)
    bg = console.rgb["bg"]
    before = bg[xs, ys].astype(np.float64)
    blend = before * (1 - TINT_FRACTION) + np.array(tint_color) * TINT_FRACTION
    # Unexplored black would stay black: it gets a dim tint, so the whole area shows.
    wanted = np.maximum(brightness(before), TINT_LEAST_BRIGHTNESS)
    scale = wanted / np.maximum(brightness(blend), 1.0)
    bg[xs, ys] = np.clip(blend * scale[:, None], 0, 255).astype(np.uint8)


def brightness(rgb: NDArray[np.float64]) -> NDArray[np.float64]:
    """How bright colours look (Rec. 709 luma), for an array of RGB triples."""
    luma: NDArray[np.float64] = rgb @ np.array([0.2126, 0.7152, 0.0722])
    return luma


def text_window_width(title: str, lines: Sequence[str], min_width: int = 0) -> int:
    """The width of a titled window that holds `lines` inside its frame."""
    return max(min_width, len(title) + 4, *(len(line) + 2 for line in lines))


def draw_text_window(
    console: tcod.console.Console,
    x: int,
    y: int,
    title: str,
    lines: Sequence[str],
    min_width: int = 0,
) -> None:
    """A titled window at (x, y) just big enough for its lines, and the lines."""
    # Differs from the tutorial: sized to the lines, not the title (or a fixed 35).
    width = text_window_width(title, lines, min_width)
    draw_window(console, x, y, width, len(lines) + 2, title)
    for i, line in enumerate(lines):
        console.print(x + 1, y + 1 + i, line)


# The rows and columns a menu leaves free at the console's edges: a window flush
# with the edge looks cut off, and a replay's status line (row 0) covers no frame.
MARGIN: Final = 1


def side_x(console: tcod.console.Console, width: int, right: bool) -> int:
    """The left column of a window `width` wide on the right half (else the left
    side), `MARGIN` in from the console's edge."""
    # Differs from the tutorial: a wide window moves left of x = 40 to fit, and
    # no window touches the edge.
    return max(MARGIN, min(40, console.width - width - MARGIN)) if right else MARGIN


def draw_side_window(
    console: tcod.console.Console,
    away_from_x: int,
    title: str,
    lines: Sequence[str],
    min_width: int = 0,
) -> None:
    """Dim the map and draw a titled window of `lines` on the side away from `away_from_x`
    (the player, or what the window tells of), so that it stays in sight."""
    dim(console)
    x = side_x(console, text_window_width(title, lines, min_width), away_from_x <= 30)
    draw_text_window(console, x, MARGIN, title, list(lines), min_width)


def draw_game_over(
    console: tcod.console.Console, engine: Engine, title: str, text: Sequence[str]
) -> None:
    """The story of a death in a window above or below the player, so that the map
    around where they fell shows; its first line in the colour of death."""
    lines = wrap_lines("\n".join(text), console.width - 12)
    width = max(len(title) + 4, *(len(line) + 4 for line in lines))
    height = len(lines) + 4
    map_height = engine.game_map.height
    y = 1 if engine.player.y >= map_height // 2 else max(0, map_height - height - 1)
    x = (console.width - width) // 2
    draw_window(console, x, y, width, height, title)
    for i, line in enumerate(lines):
        console.print(x + 2, y + 2 + i, line, fg=color.player_die if i == 0 else color.white)


def wrap_lines(text: str, width: int) -> list[str]:
    """The text's lines, each longer than `width` wrapped at spaces (or cut)."""
    return [
        wrapped
        for line in text.splitlines()
        for wrapped in (textwrap.wrap(line, width, break_long_words=True) or [""])
    ]


def draw_popup(
    console: tcod.console.Console, text: str, title: str = "", away_from_row: int | None = None
) -> None:
    """Dim the screen and show `text` in a window that clears what is under it:
    centred, or at the top or bottom, whichever is further from `away_from_row`."""
    dim(console)
    # A space between the text and each side of the frame.
    lines = wrap_lines(text, console.width - 4 - 2 * MARGIN)
    width = text_window_width(title, lines) + 2
    height = len(lines) + 2
    x = (console.width - width) // 2
    y = (console.height - height) // 2
    if away_from_row is not None:
        y = MARGIN if away_from_row >= console.height // 2 else console.height - height - MARGIN
    draw_window(console, x, y, width, height, title)
    for i, line in enumerate(lines):
        console.print(x + 2, y + 1 + i, line, fg=color.white)
