"""Start-up loads only what the first frame needs: the menu first, then what play needs.

Each check runs in a fresh Python, as a player's start does.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import tcod

import main
import setup_game
from saving import paths
from window import assets, options

ROOT = Path(__file__).resolve().parent.parent


def loaded_after(code: str) -> set[str]:
    """The modules a fresh `python -c code` (in the project) has loaded at its end."""
    done = subprocess.run(
        [sys.executable, "-c", f"import sys\n{code}\nprint(' '.join(sys.modules))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return set(done.stdout.split())


def test_starting_loads_no_random_generators_no_openssl_no_opcode_names() -> None:
    loaded = loaded_after("import main")
    # numpy.random (OpenSSL through `secrets`) waits for the menu to be on screen;
    # OpenSSL for a hash until one is asked for; the pickle's opcode names for a refused save.
    assert not loaded & {"numpy.random", "secrets", "_hashlib", "pickletools"}


def test_the_first_frame_is_shown_before_the_game_is_loaded() -> None:
    code = """
import os
os.environ["SDL_VIDEODRIVER"] = "dummy"
import tcod, main
from window import assets, options
with main.open_window(assets.load_tileset(), options.Settings()) as context:
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    main.first_frame(context, console, options.Settings())
"""
    loaded = loaded_after(code)
    assert "window.title" in loaded
    # The rules, the handlers, the loop and what a new game needs: after the menu is shown.
    assert not loaded & {"engine", "input_handlers", "setup_game", "window.loop", "numpy.random"}


def test_the_first_frame_is_the_main_menu(context: tcod.context.Context) -> None:
    paths.save_path().write_bytes(b"")  # Continue is offered, in both.
    first = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    main.first_frame(context, first, options.Settings())
    menu = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    setup_game.MainMenu().on_render(menu)
    assert (first.rgb == menu.rgb).all()
    assert any("Continue" in "".join(chr(c) for c in row) for row in first.ch.T)


def test_loading_the_game_loads_what_the_first_new_game_needs() -> None:
    assert "numpy.random" in loaded_after("from window import loop")


def test_key_names_are_made_when_a_key_file_is_read() -> None:
    code = "from controls import key_file\nprint(key_file.key_names.cache_info().currsize)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "0"


def test_only_the_tile_sheet_in_use_is_decoded(monkeypatch: pytest.MonkeyPatch) -> None:
    decoded: list[Path] = []
    real_load_tileset = assets.load_tileset

    def load_tileset(path: Path = assets.TILESET_PATHS[10]) -> object:
        decoded.append(path)
        return real_load_tileset(path)

    monkeypatch.setattr(assets, "load_tileset", load_tileset)
    tileset = assets.load(16)
    assert decoded == [assets.TILESET_PATHS[16]]
    assert tileset.tile_width == 16


def test_a_missing_tile_sheet_of_another_size_still_stops_the_start(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(assets.TILESET_PATHS, 24, in_tmp / "nowhere.png")
    with pytest.raises(assets.AssetError, match=r"nowhere\.png: it is missing or unreadable"):
        assets.load(10)
