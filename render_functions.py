"""Drawing the interface around the map: HP bar, floor number, names under the mouse."""

from __future__ import annotations

from typing import TYPE_CHECKING

import tcod

import color

if TYPE_CHECKING:
    from engine import Engine
    from game_map import GameMap


def get_names_at_location(x: int, y: int, game_map: GameMap) -> str:
    """The names of what the player can see at (x, y), joined and capitalized."""
    if not game_map.in_bounds(x, y) or not game_map.visible[x, y]:
        return ""

    names = ", ".join(
        entity.name for entity in game_map.entities if entity.x == x and entity.y == y
    )

    return names.capitalize()


def render_bar(
    console: tcod.console.Console, current_value: int, maximum_value: int, total_width: int
) -> None:
    bar_width = int(float(current_value) / maximum_value * total_width)

    # The tutorial filled the bar with character 1, a stray glyph in some
    # tilesets; a space shows just the colour.
    console.draw_rect(
        x=0, y=45, width=total_width, height=1, ch=ord(" "), bg=color.bar_empty
    )

    if bar_width > 0:
        console.draw_rect(
            x=0, y=45, width=bar_width, height=1, ch=ord(" "), bg=color.bar_filled
        )

    console.print(
        x=1, y=45, text=f"HP: {current_value}/{maximum_value}", fg=color.bar_text
    )


def render_dungeon_level(
    console: tcod.console.Console, dungeon_level: int, location: tuple[int, int]
) -> None:
    """Render the level the player is currently on, at the given location."""
    x, y = location

    console.print(x=x, y=y, text=f"Dungeon level: {dungeon_level}")


def render_names_at_mouse_location(
    console: tcod.console.Console, x: int, y: int, engine: Engine
) -> None:
    mouse_x, mouse_y = engine.mouse_location

    names_at_mouse_location = get_names_at_location(
        x=mouse_x, y=mouse_y, game_map=engine.game_map
    )

    console.print(x=x, y=y, text=names_at_mouse_location)


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
    """Clear a framed window and print its title, inverted, on the top edge.

    tcod's own `draw_frame(title=...)` is deprecated; this keeps its look.
    """
    console.draw_frame(x, y, width, height, clear=True, fg=fg, bg=bg)
    # Centred by hand: tcod's CENTER puts the odd character of an odd-length
    # title on the left, which covered the top-left corner of the character
    # screen and the inventory (" Character Information " in 25 columns).
    text = f" {title} "
    console.print(x + (width - len(text)) // 2, y, text, fg=bg, bg=fg)


def draw_text_window(
    console: tcod.console.Console,
    x: int,
    y: int,
    title: str,
    lines: list[str],
    min_width: int = 0,
) -> None:
    """A titled window at (x, y) just big enough for its lines, and the lines.

    The tutorial sized such windows to their titles (or a fixed 35), so long
    item names, big numbers and seeds ran over the frame.
    """
    width = max(min_width, len(title) + 4, *(len(line) + 2 for line in lines))
    draw_window(console, x, y, width, len(lines) + 2, title)
    for i, line in enumerate(lines):
        console.print(x + 1, y + 1 + i, line)
