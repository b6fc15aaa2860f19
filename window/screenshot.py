"""F12: the frame on screen saved as a numbered PNG in the data folder."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import tcod

import color
from saving import paths, safe_io
from window import display_area

if TYPE_CHECKING:
    from screens.stack import Screens


def take_screenshot(context: tcod.context.Context, screens: Screens, folder: Path | None = None) -> None:
    """Save the frame on screen and tell the player where it went.

    In the game the message log says so; elsewhere a popup does.
    """
    folder = paths.data_dir() if folder is None else folder
    try:
        path = save_new(context, folder, screens)
        text, fg = f"Screenshot saved as {path.name} in {paths.shown(path.parent.resolve())}.", color.white
    except (OSError, RuntimeError):
        text, fg = f"Could not save a screenshot in {paths.shown(folder.resolve())}.", color.error
    engine = screens.engine_in_play()
    if engine is None:
        screens.show(text)
    else:
        engine.message_log.add_message(text, fg)


def save_new(
    context: tcod.context.Context, folder: Path, screens: Screens | None = None
) -> Path:
    """Save the frame as the first free screenshot-001.png, -002.png, ... in `folder`.

    libtcod writes it to a temporary file of ours first; it is then written whole
    under its name, never over another file nor through a link left there.
    """
    fd, temp = tempfile.mkstemp(dir=folder, prefix=".screenshot-", suffix=".png")
    os.close(fd)
    try:
        atlas = context.sdl_atlas
        if screens is not None and atlas is not None:
            # The frame drawn again by the tile sheet, in memory: libtcod's
            # save_screenshot reads the renderer's pixels back and uses what
            # SDL_RenderReadPixels returns unchecked, a null pointer when SDL fails.
            console = tcod.console.Console(display_area.COLUMNS, display_area.ROWS, order="F")
            screens.draw(console)
            pixels = np.ascontiguousarray(atlas.tileset.render(console)[:, :, :3])
            tcod.image.Image.from_array(pixels).save_as(temp)
        else:
            context.save_screenshot(temp)
        data = Path(temp).read_bytes()
    finally:
        os.unlink(temp)
    if not data:  # libtcod fails silently when it can't write the file.
        raise OSError("no picture was written")
    return safe_io.write_first_free(folder, safe_io.numbered("screenshot", ".png"), data)
