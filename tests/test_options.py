"""The options: their file, read like the player's other files, and the options screen."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
import tcod
from conftest import after_frame, dungeon, key, screen_rows, typed
from tcod.event import KeySym, Modifier

import input_handlers
import main
import setup_game
from engine import Engine
from saving import paths
from screens.options_screen import OptionsScreen
from screens.stack import Screens
from window import loop, options


def screen_text(shown: Screens | input_handlers.BaseEventHandler) -> str:
    return "\n".join(screen_rows(shown))


def test_without_a_file_the_defaults_apply() -> None:
    assert options.read() == (options.Options(), None)
    assert not paths.options_path().exists()  # Reading writes nothing.


def test_a_change_is_kept_in_a_plain_text_file_and_read_back() -> None:
    changed = options.Options(
        fullscreen=True,
        walk_speed=10,
        window=options.Placement(1600, 1000, 160, -4),
    )
    settings = options.Settings()
    settings.change(changed)
    assert settings.options == changed
    assert not paths.options_path().exists()  # Kept by the main loop, after the frame:
    assert settings.keep_changes() is None
    text = paths.options_path().read_text()
    assert "fullscreen = on\n" in text
    assert "walk_speed = slow\n" in text
    assert "window = 1600x1000+160-4\n" in text
    assert options.read() == (changed, None)


def test_an_option_missing_from_the_file_keeps_its_default() -> None:
    """A file written before an option existed still loads."""
    paths.options_path().write_text("# mine\n\nwalk_speed = very fast\n")
    assert options.read() == (options.Options(walk_speed=80), None)


def test_the_smallest_window_remembered_is_one_pixel() -> None:
    paths.options_path().write_text("window = 1x1-3+0\n")
    assert options.read() == (options.Options(window=options.Placement(1, 1, -3, 0)), None)


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"walk_speed = warp\n", "line 1: 'warp' is none of slow, medium, fast, very fast"),
        (b"fullscreen = on\nvolume = 11\n", "line 2: not an option"),
        (b"fullscreen = on\nfullscreen = off\n", "line 2: set twice"),
        (b"fullscreen = on\nfullscreen\n", "line 2: not an option"),
        (b"fullscreen = on\nwindow = 0x0+0+0\n", "line 2: '0x0+0+0' is an empty window"),
        (b"fullscreen = on\nwindow = 5x0+0+0\n", "line 2: '5x0+0+0' is an empty window"),
        (b"fullscreen = on\nwindow = 0x5+0+0\n", "line 2: '0x5+0+0' is an empty window"),
        (b"fullscreen = on\nwindow = big\n", "line 2: 'big' is not a size and place like 1600x1000+160+40"),
    ],
)
def test_a_bad_line_costs_its_option_only(content: bytes, why: str) -> None:
    path = paths.options_path()
    path.write_bytes(content)
    settings, notice = options.read()
    good = options.Options(fullscreen=True) if content.startswith(b"fullscreen = on") else options.Options()
    assert settings == good
    assert notice == (
        f"Some lines of the options file {path} were not used ({why}): those options keep "
        "their defaults; the file is copied as options.txt.bad."
    )
    assert path.read_bytes() == path.with_name("options.txt.bad").read_bytes() == content


def test_of_many_bad_lines_the_notice_names_the_first_three() -> None:
    """So that the popup stays a few lines whatever the file holds."""
    path = paths.options_path()
    path.write_text("".join(f"volume{n} = 11\n" for n in range(1, 6)))
    settings, notice = options.read()
    assert settings == options.Options()
    assert notice is not None
    named = notice.split("(", 1)[1].split(")", 1)[0]
    assert named == "line 1: not an option; line 2: not an option; line 3: not an option; ..."


def test_a_byte_order_mark_is_read_as_nothing() -> None:
    paths.options_path().write_bytes(b"\xef\xbb\xbfwalk_speed = very fast\r\nfullscreen = on\r\n")
    assert options.read() == (options.Options(walk_speed=80, fullscreen=True), None)


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"\xff\xfe fullscreen = on\n", "not text"),
        (b"# " + b"x" * options.MAX_BYTES + b"\n", "too big"),
    ],
)
def test_a_damaged_file_is_kept_aside_and_the_defaults_apply(content: bytes, why: str) -> None:
    path = paths.options_path()
    path.write_bytes(content)
    settings, notice = options.read()
    assert settings == options.Options()
    assert notice == (
        f"The options file {path} was damaged ({why}): kept as options.txt.bad, the defaults apply."
    )
    assert not path.exists()
    assert path.with_name("options.txt.bad").read_bytes() == content


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_place_of_the_file_is_refused_without_hanging() -> None:
    os.mkfifo(paths.options_path())
    settings, notice = options.read()
    assert settings == options.Options()
    assert notice is not None and "not a regular file" in notice


def test_a_folder_in_place_of_the_file_is_refused() -> None:
    paths.options_path().mkdir()
    settings, notice = options.read()
    assert settings == options.Options()
    assert notice is not None and str(paths.options_path()) in notice


def test_the_file_is_written_whole_never_through_a_link(in_tmp: Path) -> None:
    target = in_tmp / "elsewhere.txt"
    target.write_text("the player's own file")
    paths.options_path().symlink_to(target)
    settings = options.Settings()
    settings.change(options.Options(walk_speed=20))
    assert settings.keep_changes() is None
    assert target.read_text() == "the player's own file"
    assert not paths.options_path().is_symlink()
    assert options.read()[0].walk_speed == 20


def test_a_change_that_cannot_be_kept_says_so_and_applies_all_the_same(in_tmp: Path) -> None:
    paths.use_data_dir(in_tmp / "missing")
    settings = options.Settings()
    try:
        faster = options.Options(walk_speed=80)
        settings.change(faster)
        notice = settings.keep_changes()
    finally:
        paths.use_data_dir(Path())
    assert notice is not None and notice.startswith("Could not save the options in ")
    assert settings.options == faster


def test_every_listed_option_has_its_default_among_its_values() -> None:
    defaults = options.Options()
    for name, choice in options.choices().items():
        assert getattr(defaults, name) in choice.names, name
        assert len(set(choice.names.values())) == len(choice.names), name


# --- The screen ----------------------------------------------------------------


def test_o_on_the_main_menu_opens_the_options_and_esc_closes_them() -> None:
    menu = setup_game.MainMenu()
    assert "[O] Options" in screen_text(menu)
    screens = Screens(menu)
    screens.press(key(KeySym.O))
    assert isinstance(screens.top, OptionsScreen)
    assert screens.stack[-2] is menu
    text = screen_text(screens)
    for choice in options.choices().values():
        assert choice.label in text
    assert "Kept in /" in text and "options.txt" in text
    assert "Keys of your own: /" in text and paths.KEYS_NAME in text  # Where to edit them.
    screens.press(key(KeySym.ESCAPE))
    assert screens.stack == [menu]


def test_equals_in_the_dungeon_opens_the_options_over_the_game(engine: Engine) -> None:
    screens = dungeon(engine)
    game = screens.top
    screens.press(typed("="))
    assert isinstance(screens.top, OptionsScreen)
    assert screens.stack[-2] is game
    assert screens.engine_in_play() is engine  # Closing the window saves the game.
    screens.press(typed("="))
    assert screens.top is game and len(screens.stack) == 2


def test_a_change_on_the_screen_applies_at_once_and_is_kept() -> None:
    menu = setup_game.MainMenu()
    screens = Screens(menu)
    screens.press(key(KeySym.O))
    screen = screens.top
    assert isinstance(screen, OptionsScreen)
    names = list(options.choices())
    row = names.index("walk_speed")
    for _ in range(row):
        screens.press(key(KeySym.DOWN))
    assert screens.top is screen
    choice = options.choices()["walk_speed"]
    before = menu.settings.options.walk_speed
    screens.press(key(KeySym.RIGHT))
    assert screens.top is screen
    after = menu.settings.options.walk_speed
    assert after == choice.step(before, 1) != before
    after_frame(screens)  # The main loop keeps it, after the frame.
    assert screens.stack == [menu, screen]  # No popup: kept.
    assert f"walk_speed = {choice.format(after)}\n" in paths.options_path().read_text()
    assert f"< {choice.format(after)} >" in screen_text(screens)
    screens.press(key(KeySym.LEFT))
    assert menu.settings.options.walk_speed == before
    # Up from the first row wraps to the last; a key that means nothing does nothing.
    screens.press(key(KeySym.Z))
    assert screens.stack == [menu, screen]
    assert menu.settings.options.walk_speed == before


def test_alt_enter_is_the_fullscreen_option(context: tcod.context.Context) -> None:
    menu = setup_game.MainMenu()
    screens = Screens(menu)
    loop.handle_event(context, screens, key(KeySym.RETURN, Modifier.LALT))
    assert screens.stack == [menu]
    assert menu.settings.options.fullscreen is True
    after_frame(screens)  # The main loop keeps it, after the frame.
    assert screens.stack == [menu]
    assert "fullscreen = on\n" in paths.options_path().read_text()
    window = context.sdl_window
    assert window is not None and window.fullscreen
    # The main loop makes the window follow the options, wherever they changed.
    menu.settings.options = dataclasses.replace(menu.settings.options, fullscreen=False)
    loop.main_loop(context, tcod.console.Console(80, 50, order="F"), screens, lambda: [tcod.event.Quit()])
    assert not window.fullscreen



def test_a_display_that_refuses_fullscreen_says_so_and_the_game_goes_on(
    context: tcod.context.Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SDL fails to switch where the display has no mode for it: Alt+Enter says
    why and leaves the option as it was; a frame that follows the options goes on."""

    def refuse(window: tcod.sdl.video.Window, fullscreen: bool) -> None:
        raise RuntimeError("Couldn't find any matching video modes")

    monkeypatch.setattr(tcod.sdl.video.Window, "fullscreen", property(lambda window: False, refuse))
    menu = setup_game.MainMenu()
    screens = Screens(menu)
    loop.handle_event(context, screens, key(KeySym.RETURN, Modifier.LALT))
    popup = screens.top
    assert isinstance(popup, input_handlers.PopupMessage) and screens.stack == [menu, popup]
    assert "would not switch to fullscreen: Couldn't find any matching video modes" in popup.text
    assert menu.settings.options.fullscreen is False
    assert not paths.options_path().exists() or "fullscreen = on" not in paths.options_path().read_text()
    # Fullscreen chosen on the options screen: the loop draws on, in the window.
    menu.settings.options = dataclasses.replace(menu.settings.options, fullscreen=True)
    loop.main_loop(context, tcod.console.Console(80, 50, order="F"), screens, lambda: [tcod.event.Quit()])

def test_a_damaged_file_gets_a_popup_over_the_menu(monkeypatch: pytest.MonkeyPatch) -> None:
    paths.options_path().write_text("walk_speed = warp\n")
    seen: list[Screens] = []
    monkeypatch.setattr(loop, "main_loop", lambda context, console, screens, *rest: seen.append(screens))
    assert main.main(["--seed", "7"]) == 0
    [screens] = seen
    menu, popup = screens.stack
    assert isinstance(popup, input_handlers.PopupMessage)
    assert "were not used" in popup.text and "keep their defaults" in popup.text
    assert isinstance(menu, setup_game.MainMenu) and menu.seed == 7
    assert paths.options_path().with_name("options.txt.bad").exists()
