"""The player's key file (`keys.txt` in the data folder): its lines, its presets,
its bad lines named and the rest applied, and a hostile file refused in one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import arena, dungeon, key, pressing, screen_rows, typed
from tcod.event import KeySym

import input_handlers
import main
from controls import key_file, key_help, keys
from controls.key_help import help_sections
from controls.keys import Command
from saving import paths
from screens.help_screen import HelpScreen
from screens.stack import Screens
from window import command_line, loop

ROOT = Path(__file__).resolve().parent.parent


def write(text: str) -> Path:
    path = paths.keys_path()
    path.write_text(text, encoding="utf-8")
    return path


def rows(tables: keys.KeyTables, section: str) -> dict[str, str]:
    """The help's rows of a section: meaning -> keys."""
    return {meaning: keys_ for title, pairs in help_sections(tables) if title == section for keys_, meaning in pairs}


def load() -> keys.KeyTables:
    """The key file's tables, which it must take without a notice."""
    tables, notice = key_file.load()
    assert notice is None
    return tables


def test_no_key_file_keeps_the_defaults() -> None:
    assert load() == keys.KeyTables()


def test_loading_a_key_file_changes_no_default_table() -> None:
    before = dict(keys.MAIN_KEYS), dict(keys.MOVE_KEYS), list(keys.WAIT_KEYS)
    write("explore e\nmove_north z\nwait s\n")
    assert load() != keys.KeyTables()
    assert (dict(keys.MAIN_KEYS), dict(keys.MOVE_KEYS), list(keys.WAIT_KEYS)) == before


def test_a_line_adds_to_a_commands_keys_and_the_help_shows_them() -> None:
    write("# My keys.\nexplore e   # Beside x and o.\n\nlook *\nwait s\n")
    tables = load()
    assert tables.main[KeySym.E] is tables.main[KeySym.X] is tables.main[KeySym.O] is Command.EXPLORE
    assert tables.main["*"] is Command.LOOK and tables.main["/"] is Command.LOOK
    assert list(tables.wait) == [*keys.WAIT_KEYS, KeySym.S]
    in_the_dungeon = rows(tables, "In the dungeon")
    assert in_the_dungeon[keys.COMMAND_HELP[Command.EXPLORE]] == "x, o, e"
    assert rows(tables, "Items and screens")[keys.COMMAND_HELP[Command.LOOK]] == "/, *"
    assert in_the_dungeon["Wait a turn"] == "., Num 5, Clear, s"
    # And the game answers them: e explores, * looks, s waits, and so do the defaults.
    engine = arena()
    engine.settings.keys = tables
    screens = dungeon(engine)
    game = screens.top
    screens.press(typed("*"))
    assert screens.top.__class__ is input_handlers.LookHandler
    assert screens.stack[-2] is game
    screens.press(key(KeySym.ESCAPE))
    assert isinstance(screens.top, input_handlers.MainGameEventHandler) and len(screens.stack) == 2
    screens.press(key(KeySym.S))
    screens.press(key(KeySym.KP_5))
    assert engine.turns == 2


def test_clear_takes_a_commands_keys_away_first() -> None:
    write("clear explore\nexplore e\nclear wait\nwait s\nclear move_southeast\n")
    tables = load()
    assert tables.main[KeySym.E] is Command.EXPLORE
    assert KeySym.X not in tables.main and KeySym.O not in tables.main
    assert list(tables.wait) == [KeySym.S]
    assert (1, 1) not in tables.move.values()
    engine = arena()
    engine.settings.keys = tables
    screens = dungeon(engine)
    game = screens.top
    screens.press(key(KeySym.X))
    # x means nothing now.
    assert screens.stack[1:] == [game] and not screens.walking and engine.turns == 0
    # A freed key can be given to another command.
    write("clear move_southeast\nexplore n\n")
    assert load().main[KeySym.N] is Command.EXPLORE


def test_a_preset_keeps_the_default_keys() -> None:
    """`preset qwertz` once left Num 7 and Home doing nothing, `wait . s` Num 5."""
    write("preset qwertz\nwait . s\n")
    tables = load()
    for sym in (KeySym.KP_7, KeySym.HOME, KeySym.Y, KeySym.Z):
        assert tables.move[sym] == (-1, -1)
    for waiting in keys.WAIT_KEYS:
        assert waiting in tables.wait
    assert tables.move == {**keys.MOVE_KEYS, KeySym.Z: (-1, -1)}


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("teleport t", "unknown command 'teleport'"),
        ("explore sprocket", "unknown key 'sprocket'"),
        ("explore h", "h is already move_west"),
        ("explore", "'explore' needs at least one key"),
        ("move_north ^", "a move takes keys"),
        ("preset nowhere", "unknown preset 'nowhere'"),
        ("quit F12", "F12 is screenshot on every screen: it never reaches the dungeon"),
        ("help lshift", "Lshift alone does nothing: a modifier acts only with another key"),
        ("clear", "'clear' takes one command"),
        ("clear teleport", "'clear' takes one command"),
    ],
)
def test_a_bad_line_is_named_and_the_rest_applies(line: str, why: str) -> None:
    write(f"pickup p\n{line}\ndrop t\n")
    tables, notice = key_file.load()
    assert notice is not None and f"keys.txt, line 2: {why}" in notice
    assert "line 1" not in notice and "line 3" not in notice
    assert tables.main[KeySym.P] is Command.PICKUP
    assert tables.main[KeySym.T] is Command.DROP
    assert tables.move[KeySym.H] == (-1, 0)  # The defaults stand where no line changed them.


def test_the_presets_ship_with_the_game_and_apply() -> None:
    assert {"laptop", "qwertz"} <= set(key_file.PRESETS)
    write("preset qwertz\npreset laptop\n")
    tables = load()
    assert tables.move[KeySym.Z] == tables.move[KeySym.Y] == (-1, -1)
    assert KeySym.S in tables.wait and "." in tables.wait
    assert "z" in rows(tables, "Moving (also moves a cursor)")["Move northwest"]


def test_every_preset_applies_without_a_bad_line() -> None:
    for name in key_file.PRESETS:
        bindings = key_file.Bindings.defaults()
        key_file.apply_text(bindings, f"preset {name}", "keys.txt")
        assert bindings.refused == [], name


@pytest.mark.parametrize("kind", ["folder", "fifo", "too big", "binary"])
def test_a_file_that_is_no_key_file_is_refused_in_one_line(kind: str) -> None:
    path = paths.keys_path()
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "too big":
        path.write_text("explore x\n" * 10_000)
    else:
        path.write_bytes(b"explore \xff\xfe\n")
    tables, notice = key_file.load()
    assert notice is not None and "\n" not in notice and "default keys apply" in notice
    assert tables == keys.KeyTables()


def test_the_game_starts_with_a_popup_naming_the_bad_lines(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write("explore e\nfly f\n")
    shown: list[Screens] = []

    def first_screen(context: object, console: object, screens: Screens, *rest: object) -> None:
        shown.append(screens)

    monkeypatch.setattr(loop, "main_loop", first_screen)
    assert main.main([]) == 0
    [screens] = shown
    popup = screens.top
    assert isinstance(popup, input_handlers.PopupMessage) and screens.stack == [screens.menu, popup]
    assert "line 2: unknown command 'fly'" in popup.text
    assert screens.settings.keys.main[KeySym.E] is Command.EXPLORE
    assert screens.menu.settings.keys.main[KeySym.E] is Command.EXPLORE


def test_help_option_says_where_the_key_file_is(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        command_line.parse_args(["--help"])
    assert paths.KEYS_NAME in capsys.readouterr().out


def test_a_rebound_key_does_what_the_old_one_did() -> None:
    def did(screens: Screens) -> tuple[list[str], int | None]:
        """The screens shown over the menu, and the walk the key started, if any."""
        return [type(screen).__name__ for screen in screens.stack[1:]], screens.walk_steps()

    before = arena()
    x_did = did(pressing(dungeon(before), key(KeySym.X)))
    said = [m.plain_text for m in before.message_log.messages]
    write("explore e\n")
    after = arena()
    after.settings.keys = load()
    e_did = did(pressing(dungeon(after), key(KeySym.E)))
    assert e_did == x_did and [m.plain_text for m in after.message_log.messages] == said


def test_a_byte_order_mark_is_read_as_nothing() -> None:
    paths.keys_path().write_bytes(b"\xef\xbb\xbfexplore x e\r\n")
    tables, notice = key_file.load()
    assert notice is None
    assert tables.main[KeySym.E] is keys.Command.EXPLORE


def test_the_help_points_a_german_or_french_keyboard_at_what_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    from tcod.event import Scancode

    from controls import key_help
    from screens import help_screen

    us = {Scancode.Y: KeySym.Y, Scancode.Q: KeySym.Q}
    german = {**us, Scancode.Y: KeySym.Z}
    french = {**us, Scancode.Q: KeySym.A}
    assert key_help.layout_hint(us.__getitem__) is None
    assert "preset qwertz" in (key_help.layout_hint(german.__getitem__) or "")
    assert "French" in (key_help.layout_hint(french.__getitem__) or "")
    # Shown on the help's bottom line, beside how to close it.
    monkeypatch.setattr(help_screen, "layout_hint", lambda: key_help.layout_hint(german.__getitem__))
    import tcod

    console = tcod.console.Console(80, 50, order="F")
    help_screen.HelpScreen(arena().settings).on_render(console)
    bottom = "".join(chr(c) for c in console.rgb["ch"][:, 48])  # The frame's, a row above the edge.
    assert "German keyboard? keys.txt: preset qwertz" in bottom
    assert "any key" in bottom.lower() or "Space for more" in bottom


# The commands whose keys make up a whole section of the help: the screen reader's
# questions, and the eight moves.
WHOLE_SECTIONS = "".join(
    f"clear {name}\n"
    for name, action in key_file.COMMAND_NAMES.items()
    if action in key_help.ASKING or name.startswith("move_")
)


def test_the_help_shows_what_is_left_when_a_key_file_clears_whole_sections() -> None:
    write(WHOLE_SECTIONS)
    tables = load()
    engine = arena()
    engine.settings.keys = tables
    screens = pressing(dungeon(engine), typed("?"))
    help_screen = screens.top
    assert isinstance(help_screen, HelpScreen)
    pages = []
    for _ in help_screen.pages():
        pages.append("\n".join(screen_rows(screens)))
        screens.press(key(KeySym.SPACE))
    shown = "\n".join(pages)
    assert "Moving" not in shown and "Asking" not in shown  # No heading over nothing.
    assert "In the dungeon" in shown and "Wait a turn" in shown
    assert help_screen.content().text()[0] == "Items and screens:"  # The dungeon's keys first.
    assert all(rows for _, rows in help_sections(tables))


def test_a_recording_whose_keys_clear_whole_sections_replays_its_help(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its `bind` lines hold no keys for them; `?` opens the help, Escape closes it."""
    lines = (ROOT / "tests" / "recordings" / "death.rec").read_text(encoding="utf-8").splitlines()
    cleared = {f"bind {line.split()[1]}" for line in WHOLE_SECTIONS.splitlines()}
    lines = [next((bind for bind in cleared if line.startswith(f"{bind} ")), line) for line in lines]
    events = lines.index("text .")
    lines[events:events] = ["text ?", "key escape"]
    ending = next(line for line in lines if line.startswith("# ending"))
    recorded = tmp_path / "cleared.rec"
    recorded.write_text("\n".join(line for line in lines if line != ending) + "\n", encoding="utf-8")
    assert main.main(["--replay", str(recorded), "--headless", "--data-dir", str(tmp_path / "data")]) == 0
    out, err = capsys.readouterr()
    assert err == "" and '"turns": 17' in out  # Every wait of the game, as before.
