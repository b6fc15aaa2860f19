"""F12 (see `keys`): the frame on screen saved as a numbered PNG in the data folder.

(tools/screenshots.py is something else: it makes the README's pictures.)
"""

from __future__ import annotations

import itertools
from pathlib import Path

import tcod

import color
import input_handlers
import paths


def screenshot_path(folder: Path | None = None) -> Path:
    """The first of screenshot-001.png, screenshot-002.png, ... not yet taken."""
    folder = paths.data_dir() if folder is None else folder
    for number in itertools.count(1):
        path = folder / f"screenshot-{number:03d}.png"
        if not path.exists():
            return path
    raise AssertionError("unreachable")


def take_screenshot(
    context: tcod.context.Context,
    handler: input_handlers.BaseEventHandler,
    folder: Path | None = None,
) -> input_handlers.BaseEventHandler:
    """Save the frame on screen and tell the player where it went.

    In the game the message log says so; elsewhere a popup does.
    """
    path = screenshot_path(folder)
    folder = path.parent
    try:
        # libtcod fails silently when it can't write the file: check for it.
        context.save_screenshot(str(path))
        saved = path.is_file()
    except RuntimeError:
        saved = False
    if saved:
        text, fg = f"Screenshot saved as {path.name}.", color.white
    else:
        text, fg = f"Could not save a screenshot in {folder.resolve()}.", color.error
    engine = handler.engine_in_play()
    if engine is None:
        return input_handlers.PopupMessage(handler, text)
    engine.message_log.add_message(text, fg)
    return handler
