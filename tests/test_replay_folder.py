"""Watching a recording never touches the player's game.

A replay's game plays the same screens as any game, but what a game writes
(its recording, a save, a morgue file and the hall of fame at its death, its
save removed, the options) is written by the main loop of a game in play only
(`saving.effects`): the player's save, backup, scores, morgue files, recordings
and options are byte for byte what they were, in the window, headless, verified
and followed.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
import tcod
from conftest import all_lines, key, new_header, played_lines, typed
from tcod.event import KeySym
from test_verify import play_a_death

import input_handlers
import main
import setup_game
from replays import record_format, record_reader, replay, take_over
from saving import paths
from screens.stack import Screens
from window import loop, options
from window.front_end import WindowFrontEnd

RECORDINGS = Path(__file__).parent / "recordings"
# Files the player may see change: the options keep where the window was, and
# the lock is the running game's.
NOT_THE_GAME = {"options.txt", "game.lock"}


def players_folder(root: Path) -> Path:
    """A data folder holding a game in progress and the files of earlier ones."""
    folder = root / "data"
    (folder / "morgue").mkdir(parents=True)
    (folder / "recordings").mkdir()
    (folder / paths.SAVE_NAME).write_bytes(b"the player's own game")
    (folder / f"{paths.SAVE_NAME}.bak").write_bytes(b"the player's own backup")
    (folder / paths.SCORES_NAME).write_bytes(b'{"scores": []}')
    (folder / "morgue" / "morgue-001.txt").write_bytes(b"an earlier death")
    (folder / "recordings" / "game-001.rec").write_bytes(b"recording 2\nseed 1\n")
    return folder


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name not in NOT_THE_GAME
    }


class Watcher:
    """`tcod.event.wait` for a window replay: the playback sped up to its fastest,
    then, once it has ended (the loop waits with no timeout), the keys given."""

    def __init__(self, *after: Iterable[tcod.event.Event]) -> None:
        self.after = [list(batch) for batch in after] + [[tcod.event.Quit()]]
        self.sped_up = False

    def __call__(self, timeout: float | None = None) -> list[tcod.event.Event]:
        if not self.sped_up:
            self.sped_up = True
            return [typed("+")] * 8
        if timeout is not None:  # The replay plays on.
            time.sleep(min(timeout, 0.01))
            return []
        return self.after.pop(0)


@pytest.mark.parametrize(
    ("name", "after"),
    [
        ("death", [[key(KeySym.RETURN)]]),  # The death, then back to the menu.
        ("descent", []),  # Closing the window saves the replayed game.
        ("scroll", [[key(KeySym.L)], [key(KeySym.ESCAPE)], [key(KeySym.Y)]]),  # Played on, saved and quit.
    ],
)
def test_a_window_replay_leaves_the_players_files_as_they_were(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch, name: str, after: list[list[tcod.event.Event]]
) -> None:
    folder = players_folder(in_tmp)
    before = files_of(folder)
    monkeypatch.setattr(tcod.event, "wait", Watcher(*after))
    rec = in_tmp / f"{name}.rec"
    shutil.copy(RECORDINGS / f"{name}.rec", rec)
    assert main.main(["--replay", str(rec), "--data-dir", str(folder)]) == 0
    assert files_of(folder) == before
    assert paths.data_dir() == folder


@pytest.mark.parametrize("name", ["death", "descent", "scroll"])
def test_a_headless_replay_leaves_the_players_files_as_they_were(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    folder = players_folder(in_tmp)
    before = files_of(folder)
    ended = in_tmp / f"{name}.rec"
    ended.write_text((RECORDINGS / f"{name}.rec").read_text() + "key return\n")
    assert main.main(["--replay", str(ended), "--headless", "--data-dir", str(folder)]) == 0
    capsys.readouterr()
    assert files_of(folder) == before


def test_playing_on_after_a_replay_asks_then_makes_a_game_continue_finds(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = players_folder(in_tmp)
    asked: list[str] = []
    real_ask = take_over.ask

    def ask(*args: Any) -> Any:
        question = real_ask(*args)
        asked.append(question.text)
        return question

    monkeypatch.setattr(take_over, "ask", ask)
    # A step east: asked, and only asked; yes, and the notice closed; the step; Escape, yes: saved and quit.
    after = [[key(KeySym.L)], [key(KeySym.Y)], [key(KeySym.SPACE)], [key(KeySym.L)], [key(KeySym.ESCAPE)], [key(KeySym.Y)]]
    monkeypatch.setattr(tcod.event, "wait", Watcher(*after))
    rec = in_tmp / "scroll.rec"
    shutil.copy(RECORDINGS / "scroll.rec", rec)
    assert main.main(["--replay", str(rec), "--data-dir", str(folder)]) == 0
    assert asked == [take_over.ASK.format(replaces=take_over.REPLACES)]
    assert "Game saved." in capsys.readouterr().out
    # Continue finds it: the replayed game and the step played on.
    continued = Screens(setup_game.MainMenu())
    continued.press(key(KeySym.C))
    engine = continued.engine
    assert engine is not None
    script = record_reader.read(rec)
    assert engine.game_world.seed == script.seed
    # The key that asked did nothing: after the recording's last line, one step, then quitting.
    recorded = rec.read_text().splitlines()
    # (With the rules in which the player's options differ from the recording's first.)
    lines = played_lines(all_lines(engine))
    replayed = len(lines) - lines[::-1].index(recorded[-1])
    played_on = [line for line in lines[replayed:] if not line.startswith("option ")]
    assert played_on == ["key l", "key escape", "resume"]
    # Its recording is in the player's folder, beside theirs, and replays it.
    assert engine.recording_file is not None
    kept = folder / "recordings" / engine.recording_file
    held = len(engine.recording.held)  # Its save's line, saved, written at the next frame.
    assert kept.read_text().splitlines() == all_lines(engine)[: len(all_lines(engine)) - held]
    assert (folder / "recordings" / "game-001.rec").read_bytes() == b"recording 2\nseed 1\n"


def test_no_to_playing_on_leaves_the_replay_saving_nothing(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = players_folder(in_tmp)
    before = files_of(folder)
    monkeypatch.setattr(tcod.event, "wait", Watcher([key(KeySym.ESCAPE)], [key(KeySym.N)], [key(KeySym.L)]))
    rec = in_tmp / "scroll.rec"
    shutil.copy(RECORDINGS / "scroll.rec", rec)
    assert main.main(["--replay", str(rec), "--data-dir", str(folder)]) == 0
    assert files_of(folder) == before
    assert "Game saved." not in capsys.readouterr().out


def test_a_replay_that_leaves_its_finished_game_goes_to_the_players_menu(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The recording's own Enter on the game-over screen: no error, the
    player's own menu, whose Continue finds the player's game."""
    folder = players_folder(in_tmp)
    before = files_of(folder)
    seen: list[list[str]] = []

    def watch(*args: Any, **kwargs: Any) -> None:
        screens = args[2]
        assert isinstance(screens, Screens)
        seen.append([type(screen).__name__ for screen in screens.stack])
        main_loop(*args, **kwargs)

    main_loop = loop.main_loop
    # A new game on the player's menu: asked, since they have a save; yes.
    monkeypatch.setattr(tcod.event, "wait", Watcher([key(KeySym.N)], [key(KeySym.Y)]))
    rec = in_tmp / "death.rec"
    rec.write_text((RECORDINGS / "death.rec").read_text() + "key return\n")
    monkeypatch.setattr(loop, "main_loop", watch)
    assert main.main(["--replay", str(rec), "--data-dir", str(folder)]) == 0
    assert "Traceback" not in capsys.readouterr().err
    # One loop: the replay's, over the player's menu, which it goes back to.
    assert seen == [["MainMenu", "MainGameEventHandler"]]
    assert files_of(folder) != before  # The new game, the player's own.


@pytest.mark.parametrize("headless", [False, True])
@pytest.mark.parametrize("version", [3, 4])
def test_options_changed_in_a_replayed_game_are_not_the_players(
    in_tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    headless: bool,
    version: int,
) -> None:
    folder = players_folder(in_tmp)
    (folder / paths.OPTIONS_NAME).write_text("palette = tutorial\ngather_items = on\n")
    before = (folder / paths.OPTIONS_NAME).read_bytes()
    # The recorded game opens the options and changes the first two, then closes them.
    header = new_header(5) if version == 4 else record_format.header(5, version)
    lines = [*header, "text =", "key right", "key down", "key right", "key escape", "key l"]
    rec = in_tmp / "options.rec"
    rec.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(tcod.event, "wait", Watcher())
    argv = ["--replay", str(rec), "--data-dir", str(folder)] + (["--headless"] if headless else [])
    assert main.main(argv) == 0
    capsys.readouterr()
    text = (folder / paths.OPTIONS_NAME).read_text()
    if headless:
        assert (folder / paths.OPTIONS_NAME).read_bytes() == before
    else:  # Only where the window was is kept.
        assert "palette = tutorial" in text and "gather_items = on" in text
        assert options.load(folder / paths.OPTIONS_NAME)[0].tile_size == options.Options().tile_size


@pytest.mark.parametrize(
    "name", [paths.SAVE_NAME, f"{paths.SAVE_NAME}.bak", paths.OPTIONS_NAME, "recordings/game-001.rec"]
)
def test_the_screen_never_goes_over_a_players_file(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    folder = players_folder(in_tmp)
    (folder / paths.OPTIONS_NAME).write_text("fullscreen = on\n")
    before = files_of(folder) | {paths.OPTIONS_NAME: (folder / paths.OPTIONS_NAME).read_bytes()}
    rec = in_tmp / "death.rec"
    shutil.copy(RECORDINGS / "death.rec", rec)
    monkeypatch.chdir(folder)  # As the player types it, in their data folder.
    assert main.main(["--replay", str(rec), "--headless", "--screen", name]) == 1
    assert capsys.readouterr().err == (
        f"main.py: --screen will not write over {name}, a file of the game's in the data folder: "
        "name another file\n"
    )
    assert files_of(folder) | {paths.OPTIONS_NAME: (folder / paths.OPTIONS_NAME).read_bytes()} == before
    assert main.main(["--replay", str(rec), "--headless", "--screen", "last-frame.txt"]) == 0
    assert "You died" in (folder / "last-frame.txt").read_text()


def hashes(folder: Path) -> dict[str, str]:
    """Every file under `folder`, options and all, by its SHA-256."""
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.mark.parametrize(
    ("mode", "after"),
    [
        (["--verify"], ""),
        # The game over's `h` shows the hall of fame, whose damaged file stays as it is.
        (["--replay", "--headless"], "key h\n"),
        (["--replay", "--follow", "--headless"], ""),
    ],
    ids=["verify", "headless replay", "follow"],
)
def test_the_read_only_modes_leave_the_data_folder_byte_identical(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], mode: list[str], after: str
) -> None:
    """A finished game verified, replayed and followed, over a folder with a damaged
    options file and hall of fame: not a byte of the folder is written, moved or copied."""
    folder = players_folder(in_tmp)
    (folder / paths.OPTIONS_NAME).write_bytes(b"\xff\xfe not an options file")
    (folder / paths.SCORES_NAME).write_bytes(b"{not json")
    before = hashes(folder)
    rec = in_tmp / "death.rec"
    rec.write_text((RECORDINGS / "death.rec").read_text() + after)
    argv = [mode[0], str(rec), *mode[1:], "--data-dir", str(folder)]
    assert main.main(argv) == 0, capsys.readouterr()
    assert hashes(folder) == before


def frames_shown(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Every frame the window presents from now on, as its rows of text."""
    shown: list[list[str]] = []
    real_present = WindowFrontEnd.present

    def present(self: WindowFrontEnd, console: tcod.console.Console, *args: Any) -> None:
        shown.append(["".join(map(chr, console.rgb["ch"][:, y])) for y in range(console.height)])
        real_present(self, console, *args)

    monkeypatch.setattr(WindowFrontEnd, "present", present)
    return shown


def watched(monkeypatch: pytest.MonkeyPatch, folder: Path, *after: Iterable[tcod.event.Event]) -> None:
    """tests/recordings/death.rec replayed in the window over `folder`, then the keys `after`."""
    monkeypatch.setattr(tcod.event, "wait", Watcher(*after))
    rec = folder / "watched.rec"
    shutil.copy(RECORDINGS / "death.rec", rec)
    assert main.main(["--replay", str(rec), "--data-dir", str(folder)]) == 0


def test_a_replays_game_over_says_it_is_a_replay_and_offers_no_playing_on(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not the player's folder or rank, and no top line asking to play on a dead game."""
    folder = players_folder(in_tmp)
    shown = frames_shown(monkeypatch)
    # The history and back, then Enter: the recording's game over all along.
    watched(monkeypatch, folder, [key(KeySym.V)], [key(KeySym.ESCAPE)], [key(KeySym.RETURN)])
    over = [frame for frame in shown if any("Game over" in row for row in frame)]
    assert over, "the replay reached its game over"
    for frame in over:
        text = "\n".join(frame)
        assert input_handlers.GameOverEventHandler.REPLAYED in text
        assert "Morgue file" not in text and "Hall of fame: number" not in text
        assert str(folder) not in text
    tops = [frame[0].rstrip() for frame in over]
    assert replay.OVER in tops and not any(replay.TAKEN_OVER[:20] in top for top in tops)


def test_after_a_replay_the_hall_of_fame_is_verified_as_at_start_up(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The menu a replay leaves for marks each entry verified (+) or not, as the start-up menu does."""
    play_a_death()  # The player's own death, in the hall of fame, its recording beside its morgue.
    shown = frames_shown(monkeypatch)
    # The replay's game over, Enter: the player's menu; `h`: its hall of fame.
    watched(monkeypatch, in_tmp, [key(KeySym.RETURN)], [key(KeySym.H)])
    hall = next(frame for frame in reversed(shown) if any("How it ended" in row for row in frame))
    assert any("│ +  1. " in row for row in hall)  # In the window's frame: marked verified.


@pytest.mark.parametrize("options_text", ["palette = tutorial\n", "palette = mauve\n"])
def test_a_window_replay_tells_an_options_notice_on_stderr_and_nothing_else(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], options_text: str
) -> None:
    """No menu to show it over: a problem with the options goes to stderr, and only a problem."""
    folder = players_folder(in_tmp)
    (folder / paths.OPTIONS_NAME).write_text(options_text)
    watched(monkeypatch, folder, [key(KeySym.RETURN)])
    err = capsys.readouterr().err
    if "mauve" in options_text:
        assert "line 1" in err and "mauve" in err
    else:
        assert err == ""
