"""The main menu's picture: the game's title over its backdrop, and the choices.

`setup_game.MainMenu` draws it; so does `main` for the first frame, before the
rest of the game is loaded (nothing here imports it), so that the window shows
the menu at once.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Final

import numpy as np
import tcod
from numpy.typing import NDArray

import color
from saving import paths, savefile

GAME_TITLE: Final = "Tombs of the Ancient Kings"
CREDIT: Final = "After the Yet Another Roguelike Tutorial (2020), for tcod today"
BACKGROUND_PATH: Final = Path(__file__).resolve().parent.parent / "menu_background.png"

CONTINUE_LINE: Final = "[C] Continue last game"
MENU_LINES: Final = (
    "[N] Play a new game",
    "[D] Daily dungeon",
    CONTINUE_LINE,
    "[H] Hall of fame",
    "[O] Options",
    "[Q] Quit",
)
MENU_WIDTH: Final = 24


@functools.cache
def background_image() -> NDArray[np.uint8]:
    """The menu's backdrop, 160x100 pixels: one 2x2 block of pixels per cell."""
    return np.asarray(tcod.image.Image.from_file(BACKGROUND_PATH))[:, :, :3]


def menu_lines() -> tuple[str, ...]:
    """The menu's choices: Continue only when there is a save (or its backup) to go on with."""
    # Differs from the tutorial: no Continue offered with nothing to continue.
    save = paths.save_path()
    if os.path.lexists(save) or os.path.lexists(savefile.backup_path(save)):
        return MENU_LINES
    return tuple(line for line in MENU_LINES if line != CONTINUE_LINE)


def draw(console: tcod.console.Console) -> None:
    """Render the main menu on a background image."""
    console.draw_semigraphics(background_image(), 0, 0)

    center = console.width // 2
    console.print(
        center,
        console.height // 2 - 4,
        GAME_TITLE.upper(),
        fg=color.menu_title,
        alignment=tcod.constants.CENTER,
    )
    console.print(
        center,
        console.height - 2,
        CREDIT,
        fg=color.menu_title,
        alignment=tcod.constants.CENTER,
    )

    top = console.height // 2 - 2
    left = center - MENU_WIDTH // 2
    lines = menu_lines()
    # Darken the backdrop behind the menu, so the text reads on any art.
    box = console.rgb[left : left + MENU_WIDTH, top : top + len(lines)]
    box["bg"] //= 4
    for i, text in enumerate(lines):
        console.print(left, top + i, text, fg=color.menu_text)
    console.print(
        center,
        top + len(lines) + 1,
        "Press ? for help",
        fg=color.menu_text,
        alignment=tcod.constants.CENTER,
    )
