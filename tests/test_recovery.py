"""Continue recovers what was played after the last save, from the game's recording.

A game is played through the real handlers (`Screens.press`, as the
main loop does), saved, played on, and then "killed": the program stops
without saving.  Continue must bring back the game the headless replay of
its recording gives, in every attribute.
"""

from __future__ import annotations

import hashlib
import os
import random
import sys
import tracemalloc
from pathlib import Path
from typing import Final

import pytest
import tcod
from conftest import after_frame, all_lines, click, dungeon, key, motion, played_lines, typed
from tcod.event import KeySym, Modifier
from test_recording import picture

import color
import input_handlers
import setup_game
from engine import Engine
from replays import record_format, record_reader, recording, recovery, replay, replay_lines
from saving import autosave, paths, save_data, save_fields, savefile
from screens.stack import Screens
from window import error_report, loop

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

# A game whose random player below lives through its 300 events, killing two orcs.
SEED = 33
MOVES = (KeySym.H, KeySym.J, KeySym.K, KeySym.L, KeySym.Y, KeySym.U, KeySym.B, KeySym.N)


def new_game(seed: int = SEED) -> tuple[Engine, Screens]:
    """A new game as the menu's N starts it, saved as it starts (`autosave`)."""
    engine = setup_game.new_game(seed)
    recording.write_new(engine)  # Its file, as the main loop starts it.
    engine.save_as(paths.save_path())
    return engine, dungeon(engine)


def play(screens: Screens, events: list[tcod.event.Event]) -> Screens:
    """As the main loop plays them: an error is reported, and play goes on; the
    recording's new lines are written after each frame."""
    for event in events:
        try:
            screens.press(event)
        except Exception:
            error_report.report_error(screens, keep_recording=False)
            screens.stop_walking()
        replay_lines.finish_walk(screens)
        engine = screens.engine
        if engine is not None:
            recording.write_new(engine)
    return screens


def random_events(count: int = 300, seed: int = 5) -> list[tcod.event.Event]:
    """Moves mostly, some waits, screens opened and closed, the mouse."""
    rng = random.Random(seed)
    events: list[tcod.event.Event] = []
    while len(events) < count:
        roll = rng.random()
        if roll < 0.75:
            events.append(key(rng.choice(MOVES)))
        elif roll < 0.8:
            events.append(typed("."))
        elif roll < 0.85:
            events += [key(rng.choice([KeySym.C, KeySym.I, KeySym.V])), key(KeySym.ESCAPE)]
        elif roll < 0.95:
            events.append(motion(rng.randrange(80), rng.randrange(43)))
        else:
            events.append(click(rng.randrange(80), rng.randrange(43), tcod.event.MouseButton.RIGHT))
    return events


def recording_path(engine: Engine) -> Path:
    assert engine.recording_file is not None
    return paths.recordings_dir() / engine.recording_file


def headless(path: Path) -> Screens:
    """What `--replay FILE --headless` ends on, for the whole lines of `path`."""
    text = path.read_bytes()
    script = record_reader.parse(text[: text.rfind(b"\n") + 1].decode(), str(path))
    return replay.play_recording(replay.start(script), script.events)


def continued(menu: setup_game.MainMenu | None = None) -> Screens:
    """Continue on the menu, and the recording written as the main loop writes it once
    the continued game is shown."""
    screens = Screens(menu or setup_game.MainMenu())
    screens.press(key(KeySym.C))
    engine = screens.engine
    if engine is not None:
        recording.write_new(engine)
    return screens


def the_game(screens: Screens) -> Engine:
    engine = screens.engine
    assert engine is not None
    return engine


def popup_text(screens: Screens) -> str:
    """The text of the popup on top of the screens (over the game)."""
    popup = screens.top
    assert isinstance(popup, input_handlers.PopupMessage)
    return popup.text


def test_continue_recovers_the_play_after_the_save() -> None:
    engine, screens = new_game()
    play(screens, random_events())
    played = picture(engine)
    turns = engine.turns
    assert turns > 100

    popup = continued()  # The program was killed: no save since the new game's.

    assert isinstance(popup.top, input_handlers.PopupMessage)
    assert popup_text(popup) == f"Recovered {turns} turns played after the last save."
    game = the_game(popup)
    assert picture(game) == played
    assert picture(game) == picture(the_game(headless(recording_path(engine))))
    # The file holds what replays the game; saved again once the popup is closed.
    assert recording_path(engine).read_text().splitlines() == all_lines(game)
    assert recording_path(game) == recording_path(engine)  # Carried on, not written again.
    assert game.saved_at is None


def test_recovery_starts_from_the_last_save_and_gives_the_headless_replay() -> None:
    engine, screens = new_game()
    play(screens, random_events()[:200])
    engine.save_as(paths.save_path())
    saved_lines = len(engine.recording)
    play(screens, random_events()[200:])
    turns_after = engine.turns - save_data.load(paths.save_path()).turns

    popup = continued()

    assert isinstance(popup.top, input_handlers.PopupMessage)
    assert popup_text(popup) == f"Recovered {turns_after} turns played after the last save."
    assert len(the_game(popup).recording) > saved_lines
    assert picture(the_game(popup)) == picture(engine)
    assert picture(the_game(popup)) == picture(the_game(headless(recording_path(engine))))


@pytest.mark.parametrize(("waits", "said"), [(1, "1 turn"), (2, "2 turns")])
def test_a_turn_or_two_recovered_are_counted_in_words(waits: int, said: str) -> None:
    engine, screens = new_game()
    play(screens, [typed(".")] * waits)
    assert engine.turns == waits

    popup = continued()

    assert popup_text(popup) == f"Recovered {said} played after the last save."
    assert the_game(popup).turns == waits


def test_nothing_after_the_save_is_nothing_to_recover() -> None:
    engine, screens = new_game()
    play(screens, random_events()[:50])
    engine.save_as(paths.save_path())
    shown = continued().top
    assert isinstance(shown, input_handlers.MainGameEventHandler)
    assert picture(shown.engine) == picture(engine)


def test_a_last_event_that_raised_an_error_recovers_and_is_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(self: input_handlers.CharacterScreenEventHandler, console: object) -> None:
        raise RuntimeError("a bug in the character screen")

    def screen(self: input_handlers.MainGameEventHandler, event: tcod.event.KeyDown) -> object:
        if event.sym == KeySym.C:
            raise RuntimeError("a bug behind the C key")
        return real_keydown(self, event)

    real_keydown = input_handlers.MainGameEventHandler.ev_keydown
    monkeypatch.setattr(input_handlers.MainGameEventHandler, "ev_keydown", screen)
    engine, screens = new_game()
    play(screens, [key(KeySym.L), key(KeySym.J), key(KeySym.C)])
    assert all_lines(engine)[-1] == "key c"

    popup = continued()

    game = the_game(popup)
    assert "a bug behind the C key" in game.message_log.messages[-1].plain_text
    assert picture(game) == picture(the_game(headless(recording_path(engine))))


def test_a_walk_the_kill_cut_short_is_finished_as_the_replay_does() -> None:
    engine, screens = new_game(seed=15)  # Explores and gathers 57 turns, to an orc coming into view.
    play(screens, [])
    screens.press(key(KeySym.X))
    assert screens.walking
    screens.step()  # One step taken, then the kill.
    recording.write_new(engine)

    game = the_game(continued())

    assert game.turns == 57
    assert picture(game) == picture(the_game(headless(recording_path(engine))))


def test_a_recording_cut_anywhere_recovers_to_its_last_whole_line() -> None:
    engine, screens = new_game()
    play(screens, random_events()[:60])
    path = recording_path(engine)
    whole = path.read_bytes()
    saved = save_data.load(paths.save_path())
    saved_length = saved.recording.size
    save = paths.save_path().read_bytes()
    rng = random.Random(3)
    for cut in [saved_length, len(whole) - 1, *rng.sample(range(saved_length, len(whole)), 12)]:
        # Each time as the kill left it: the save, and the file cut at a byte.
        paths.save_path().write_bytes(save)
        path.write_bytes(whole[:cut])
        shown = continued()
        game = the_game(shown)
        lines = whole[:cut].decode()[: whole[:cut].decode().rfind("\n") + 1].splitlines()
        if len(lines) == len(saved.recording):
            assert isinstance(shown.top, input_handlers.MainGameEventHandler)
        assert picture(game) == picture(the_game(headless(path))), f"cut at byte {cut}"
        assert path.read_text() == "".join(line + "\n" for line in all_lines(game))  # The part line cut off.


OTHER_GAME: Final = "recording 1\nseed 99\nkey l\nkey l\nkey l\n" * 3


def continued_over_another_game(engine: Engine) -> tuple[Path, Screens]:
    """Continue, once another game's recording has replaced the file of `engine`'s."""
    engine.save_as(paths.save_path())
    path = recording_path(engine)
    path.write_text(OTHER_GAME)
    screens = continued()
    assert isinstance(screens.top, input_handlers.PopupMessage)
    after_frame(screens)
    assert path.read_text() == OTHER_GAME  # Another game's file, left as it is.
    return path, screens


def test_a_recording_that_does_not_carry_on_the_save_is_left_out() -> None:
    """What the save wrote is gone: the game goes on, unrecorded, and says so."""
    engine, screens = new_game()
    play(screens, random_events()[:20])
    path, screens = continued_over_another_game(engine)
    assert popup_text(screens) == recovery.LOST.format(name=path.name)
    game = the_game(screens)
    assert picture(game) == picture(engine)
    assert game.recording_file is None and game.recording.lost


def test_an_older_save_whose_recording_is_another_games_goes_on_in_a_new_file() -> None:
    engine, screens = new_game()
    play(screens, random_events()[:20])
    engine.recording = recording.Lines.of(all_lines(engine))  # As format 10 held it: every line.
    path, screens = continued_over_another_game(engine)
    assert popup_text(screens) == recovery.OTHER_GAMES.format(name=path.name)
    game = the_game(screens)
    assert recording_path(game) != path  # This game's goes on in a new one.
    assert recording_path(game).read_text().splitlines() == list(engine.recording)


def test_a_bad_line_after_the_save_stops_recovery_is_named_and_every_line_is_kept() -> None:
    engine, screens = new_game()
    play(screens, random_events()[:50])
    path = recording_path(engine)
    with path.open("a") as file:
        file.write("key nosuchkey\nkey l\n")
    whole = path.read_bytes()
    screens = continued()
    assert isinstance(screens.top, input_handlers.PopupMessage)
    number = len(whole.splitlines()) - 1
    why = "unknown key name 'nosuchkey'"
    assert popup_text(screens).splitlines()[-1] == recovery.BAD_LINE.format(name=path.name, number=number, why=why)
    after_frame(screens)
    assert path.read_bytes() == whole  # Left as it is, every line kept.
    game = the_game(screens)
    assert recording_path(game) != path  # Goes on in a new file: what was good, and on.
    assert recording_path(game).read_bytes() == b"".join(line + b"\n" for line in whole.splitlines()[:-2])
    assert picture(game) == picture(the_game(headless(recording_path(game))))


@pytest.mark.parametrize("kind", ["fifo", "folder", "huge"])
def test_a_recording_file_that_is_no_recording_is_not_read(kind: str) -> None:
    engine, _ = new_game()
    path = recording_path(engine)
    written = recording.data_of(engine) or b""
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:  # The save's lines, then a line of 40 MiB: read 202 bytes of it, no more.
        path.write_bytes(written)
        with path.open("ab") as file:
            file.write(b"x" * (40 << 20))
    loaded = save_data.load(paths.save_path())
    tracemalloc.start()
    try:
        found = recovery.unsaved(loaded)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found.events == []
    if kind == "huge":  # A bad line: named, and the file left as it is.
        number = len(written.splitlines()) + 1  # The line after the save's.
        assert found.stopped and found.left_out is not None
        assert f"line {number} (longer than 200" in found.left_out
    else:  # What the save wrote is out of reach.
        assert found.lost and found.left_out == recovery.LOST.format(name=path.name)
    assert peak < 1 << 20


def test_a_long_recovery_shows_its_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recovery, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(recovery, "PROGRESS_EVERY", 10)
    _, screens = new_game()
    play(screens, random_events()[:100])
    shown: list[float] = []
    continued(setup_game.MainMenu(progress=shown.append))
    assert len(shown) >= 9
    assert shown == sorted(shown) and shown[0] >= 0 and shown[-1] < 1


def test_the_progress_bar_is_drawn() -> None:
    console = tcod.console.Console(80, 50, order="F")
    presented: list[tcod.console.Console] = []
    loop.progress_bar(presented.append, console)(0.25)
    assert presented == [console]
    assert "Recovering" in "".join(chr(c) for c in console.rgb["ch"][:, 23])
    bar = [tuple(int(v) for v in bg) for bg in console.rgb["bg"][:, 25]]
    assert bar[20:30] == [color.bar_filled] * 10
    assert bar[30:60] == [color.bar_empty] * 30
    assert bar[19] == bar[60] == (0, 0, 0)


def test_a_save_of_a_newer_version_is_left_where_it_is(in_tmp: Path) -> None:
    new_game()
    newer = bytearray(paths.save_path().read_bytes())
    newer[8:10] = (save_data.FORMAT_VERSION + 1).to_bytes(2, "big")
    paths.save_path().write_bytes(bytes(newer))
    popup = continued()
    assert isinstance(popup.top, input_handlers.PopupMessage)
    assert "made by a newer version of the game" in popup_text(popup)
    assert paths.save_path().read_bytes() == bytes(newer)
    assert not savefile.crash_path(paths.save_path()).exists()
    assert not (in_tmp / "savegame.sav.bad").exists()
    # A new game started here keeps it aside, for the newer game.
    new_game()
    kept = in_tmp / f"savegame.sav.format-{save_data.FORMAT_VERSION + 1}"
    assert kept.read_bytes() == bytes(newer)


def test_shift_modified_keys_are_recovered_too() -> None:
    engine, screens = new_game()
    play(screens, [key(KeySym.L, Modifier.LSHIFT), key(KeySym.H), key(KeySym.J, Modifier.LSHIFT)])
    assert picture(the_game(continued())) == picture(engine)


def test_the_recovery_time_tool_runs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """tools/recovery_time.py, which measures the README's figure, on a short game."""
    import recovery_time

    monkeypatch.setattr(autosave, "CHECKPOINT_LINES", 100)
    recovery_time.run(300)
    out = capsys.readouterr().out
    assert "99 after the last save" in out and "same game: True" in out


def test_a_game_left_on_a_menu_continues_as_its_recording_replays(
    context: tcod.context.Context,
) -> None:
    from test_main_loop import Script

    engine, screens = new_game()
    play(screens, random_events()[:30])
    console = tcod.console.Console(80, 50, order="F")
    # The window is closed on the inventory: the game is saved and left there.
    loop.main_loop(context, console, screens, Script([key(KeySym.I)], [tcod.event.Quit()]))
    assert played_lines(all_lines(engine))[-2:] == ["key i", "resume"]
    game = continued()
    assert isinstance(game.top, input_handlers.MainGameEventHandler)
    # On the dungeon, A means nothing; on the inventory it would use the first item.
    play(game, [key(KeySym.A), key(KeySym.L)])
    assert picture(the_game(game)) == picture(the_game(headless(recording_path(engine))))


def test_leaving_from_the_dungeon_or_mid_walk_needs_no_resume(context: tcod.context.Context) -> None:
    from test_main_loop import Script

    engine, screens = new_game(seed=15)
    console = tcod.console.Console(80, 50, order="F")
    loop.main_loop(context, console, screens, Script([key(KeySym.X)], [], [tcod.event.Quit()]))
    assert played_lines(all_lines(engine))[-2] == "key x" and played_lines(all_lines(engine))[-1].startswith("steps ")
    loop.main_loop(context, console, continued(), Script([key(KeySym.L)], [tcod.event.Quit()]))
    assert "resume" not in all_lines(save_data.load(paths.save_path()))


def test_the_resume_line_reads_back() -> None:
    assert record_format.event_of("resume") == record_format.Resume()
    assert record_format.line_of(record_format.Resume()) == "resume"
    with pytest.raises(ValueError, match="'resume' takes nothing"):
        record_format.event_of("resume 3")


def test_recovery_stops_at_its_cap_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file grown past any game's stay between saves: the first events are
    played, the rest left out, in one line; memory and time stay bounded."""
    monkeypatch.setattr(recovery, "MAX_UNSAVED", 40)
    engine, _ = new_game()
    with recording_path(engine).open("a") as file:
        file.write("key f2\n" * 10_000)
    screens = continued()
    assert isinstance(screens.top, input_handlers.PopupMessage)
    path = recording_path(engine)
    assert popup_text(screens).splitlines()[-1] == recovery.TOO_MANY.format(most=40, name=path.name)
    game = the_game(screens)
    after_frame(screens)  # Saved, its save's line recorded.
    assert len(game.recording) == len(engine.recording) + 40 + 1
    assert len(path.read_text().splitlines()) == engine.recording.written + 10_000  # Left as it is.
    recording.write_new(game)  # The line of its save too, as the next frame writes it.
    assert recording_path(game) != path and recording_path(game).read_text().splitlines() == all_lines(game)


def test_a_recovered_game_can_always_be_saved_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Near the save's cap on a recording's lines, fewer events are played, so
    that the recovered game, and what it adds, can be saved and loaded."""
    engine, _ = new_game()
    monkeypatch.setattr(record_reader, "MAX_LINES", len(engine.recording) + recovery.SPARE_LINES + 30)
    monkeypatch.setattr(save_fields, "MAX_RECORDING", record_reader.MAX_LINES)
    with recording_path(engine).open("a") as file:
        file.write("key f2\n" * 200)
    game = the_game(continued())
    assert len(game.recording) == len(engine.recording) + 30
    game.save_as(paths.save_path())
    assert all_lines(save_data.load(paths.save_path())) == all_lines(game)


def test_a_linked_recording_is_refused_by_name_and_left_as_it_is() -> None:
    engine, screens = new_game()
    play(screens, random_events()[:30])  # Never saved: in the file only.
    path = recording_path(engine)
    target = path.with_name("elsewhere.rec")
    os.replace(path, target)
    path.symlink_to(target.name)
    screens = continued()
    assert isinstance(screens.top, input_handlers.PopupMessage)
    assert popup_text(screens) == recovery.LINKED.format(name=path.name, goes_on=recovery.UNRECORDED)
    saved = save_data.load(paths.save_path()).recording
    assert path.is_symlink() and len(target.read_text().splitlines()) > len(saved)
    game = the_game(screens)
    after_frame(screens)
    assert game.recording_file is None and game.recording.lost


def test_a_game_loaded_without_continue_goes_on_in_its_own_file() -> None:
    """Loaded by other means than Continue (no check of its file then): its file is
    checked as it is first written to, and the next Continue carries it on."""
    engine, screens = new_game()
    play(screens, random_events()[:20])
    engine.save_as(paths.save_path())
    game = save_data.load(paths.save_path())
    play(dungeon(game), random_events()[20:40])
    game.save_as(paths.save_path())
    screens = continued()
    assert not isinstance(screens.top, input_handlers.PopupMessage)
    assert recording_path(the_game(screens)) == recording_path(engine)
    assert recording_path(engine).read_text().splitlines() == all_lines(the_game(screens))


# A save names its stretch of the recording (lines, bytes, SHA-256 from the file's start):
# each part agrees with itself, so what ties it to the game it holds is the save's own
# line at its end (`recording.save_line`).


def two_saves() -> tuple[Engine, Path, bytes, bytes]:
    """A game saved as it starts (A) and 40 events later (B), 20 more played after: its
    recording's path and bytes, and save A's bytes."""
    engine, screens = new_game()
    first = paths.save_path().read_bytes()
    play(screens, random_events()[:40])
    engine.save_as(paths.save_path())
    play(screens, random_events()[40:60])
    path = recording_path(engine)
    return engine, path, first, path.read_bytes()


def naming(blob: bytes, whole: bytes, upto_line: str) -> bytes:
    """The save `blob` edited to name the stretch of the recording `whole` that ends on
    the line `upto_line`, with that stretch's true lines, bytes and SHA-256."""
    end = whole.index(f"\n{upto_line}\n".encode()) + len(upto_line) + 2
    version = save_data.FORMAT_VERSION
    data = savefile.loads(blob, version)
    assert isinstance(data, dict)
    data["recording"].update(
        written=whole[:end].count(b"\n"), bytes=end, sha256=hashlib.sha256(whole[:end]).hexdigest(), held=""
    )
    return savefile.dumps(data, version)


@pytest.mark.parametrize("named", ["an earlier save's", "a later save's", "an event's"])
def test_a_save_naming_another_stretch_of_its_recording_is_told_and_goes_on_unrecorded(named: str) -> None:
    """The red team's case: a save edited to name another stretch of its file, with that
    stretch's true SHA-256, loaded without a word, and its recording no longer replayed
    to the game.  Now Continue says so, plays nothing, and the game goes on unrecorded,
    the file left as it is."""
    _, path, first, whole = two_saves()
    saves = [line for line in whole.decode().splitlines() if line.startswith(record_format.SAVED_PREFIX)]
    assert len(saves) == 2  # A's and B's, each once, where each save was made.
    blob, game_of_save = paths.save_path().read_bytes(), save_data.load(paths.save_path())
    if named == "an earlier save's":  # B names what A named.
        paths.save_path().write_bytes(naming(blob, whole, saves[0]))
    elif named == "a later save's":  # A names what B named.
        paths.save_path().write_bytes(naming(first, whole, saves[1]))
        game_of_save = save_data.load(paths.save_path())
    else:  # B names the stretch up to the event after A.
        after_a = whole.decode().splitlines()[whole.decode().splitlines().index(saves[0]) + 1]
        paths.save_path().write_bytes(naming(blob, whole, after_a))

    screens = continued()

    assert popup_text(screens) == recovery.ELSEWHERE.format(recording=f"the recording {path.name}")
    game = the_game(screens)
    assert picture(game) == picture(game_of_save)  # The save's game, nothing played on it.
    assert game.recording_file is None and game.recording.lost  # Unrecorded, as with no file.
    after_frame(screens)
    assert path.read_bytes() == whole  # The recording left as it is.
    assert sorted(paths.recordings_dir().iterdir()) == [path]


def test_a_save_of_format_11_names_no_save_line_and_recovers_as_before() -> None:
    """Older saves load as they did: a format-11 save's stretch ends on no line of its own."""
    engine, screens = new_game()
    recording.write_new(engine)  # Its first save's line in the file.
    play(screens, random_events()[:30])
    recording.write_new(engine)
    data = savefile.loads(paths.save_path().read_bytes(), save_data.FORMAT_VERSION)
    assert isinstance(data, dict)
    size = len(recording_path(engine).read_bytes().split(b"\n# saved ")[0]) + 1  # Up to its save's line.
    whole = recording_path(engine).read_bytes()
    data["recording"].update(
        written=whole[:size].count(b"\n"), bytes=size, sha256=hashlib.sha256(whole[:size]).hexdigest(), held=""
    )
    paths.save_path().write_bytes(savefile.dumps(data, 11))

    popup = continued()

    assert popup_text(popup) == f"Recovered {engine.turns} turns played after the last save."
    assert picture(the_game(popup)) == picture(engine)
    assert recording_path(the_game(popup)) == recording_path(engine)


def test_continued_from_the_save_before_the_recording_goes_on_past_the_later_saves_line() -> None:
    """The backup's game: what it names ends on its own line; the later save's line, further
    on in the file, is no line a recovery records, and the file goes on as it is."""
    engine, path, _, whole = two_saves()
    paths.save_path().unlink()  # The last save gone: Continue offers the one before.

    screens = continued()

    game = the_game(screens)
    assert popup_text(screens) == f"Recovered {engine.turns} turns played after the last save."
    # The same game (its log says it was continued from the backup): turns, place, generator...
    assert recording.save_line(game) == recording.save_line(engine) == recording.save_line(the_game(headless(path)))
    assert recording_path(game) == path  # Carried on, not a new file.
    after_frame(after_frame(screens))  # Saved after the first frame, its line written after the next.
    assert path.read_bytes().startswith(whole)
    assert path.read_text().splitlines() == all_lines(game)


def test_a_game_saved_again_as_it_was_records_its_save_line_once() -> None:
    engine, _ = new_game()
    engine.save_as(paths.save_path())
    recording.write_new(engine)
    engine.save_as(paths.save_path())
    assert played_lines(all_lines(engine)) == all_lines(engine)[:-1]
    assert all_lines(engine)[-1] == recording.save_line(engine)


def test_a_save_that_fails_takes_its_line_back(in_tmp: Path) -> None:
    engine, screens = new_game()
    play(screens, [typed(".")])
    before = all_lines(engine)
    paths.save_path().unlink()
    paths.save_path().mkdir()  # The save can't go there.
    with pytest.raises(OSError):
        engine.save_as(paths.save_path())
    assert all_lines(engine) == before
    paths.save_path().rmdir()  # The player makes room, and quits again: saved, with its line.
    engine.save_as(paths.save_path())
    assert all_lines(engine) == [*before, recording.save_line(engine)]
    screens = continued()
    assert not isinstance(screens.top, input_handlers.PopupMessage)  # Nothing refused, nothing to recover.
    assert recording.save_line(the_game(screens)) == recording.save_line(engine)
