"""The files around the save are hostile too (issue 21): each case in a bounded child.

Every case runs in a child process with a time and memory bound
(`bounded.in_child`), so a hang, a crash or a blow-up is that case's
failure.  Limits are tested at their edges: one under is taken, one over
refused.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

from bounded import in_child, refused

import main
import recording
import savefile

# --- Saves: the hash flood, and the scan's and the reader's caps at their edges ---


def scan(pickled: bytes) -> str:
    savefile._scan(pickled)
    return "scanned"


def test_a_hash_flood_of_integer_keys_is_refused_at_once() -> None:
    # Keys that all hash alike: 12 s to refuse before, unpickled one by one.
    # (Made by hand: building that dict here would be the flood itself.)
    keys = (pickle.dumps(k * (2**61 - 1), protocol=5)[2:-1] for k in range(149_000))
    flood = b"\x80\x05}(" + b"".join(key + b"K\x00" for key in keys) + b"u."
    outcome = in_child(lambda: scan(flood), seconds=2.0)
    assert "not a name" in refused(outcome, "RefusedSaveError")
    assert outcome["seconds"] < 0.5


def test_a_save_whose_dict_keys_are_tuples_or_numbers_is_refused_whole(tmp_path: Path) -> None:
    for keys in ([(1, 2)], [7], [None], [b"x"]):
        data: dict[object, int] = {"a": 1, **{key: 0 for key in keys}}
        (tmp_path / "savegame.sav").write_bytes(savefile.dumps(data, 1))
        outcome = in_child(lambda: savefile.read(tmp_path / "savegame.sav", 1))
        assert "not a name" in refused(outcome, "RefusedSaveError"), keys


def test_names_as_keys_load_even_when_shared_through_the_memo() -> None:
    name = "a name used twice"
    data = [{name: 1}, {name: 2}]
    pickled = pickle.dumps(data, protocol=5)
    assert pickled.count(name.encode()) == 1  # The second is a memo reference.
    assert in_child(lambda: savefile._unpickle(pickled))["value"] == data


def containers(count: int) -> bytes:
    """A list holding `count - 1` empty lists: `count` containers."""
    return b"\x80\x05](" + b"]" * (count - 1) + b"e."


def test_the_container_cap_is_exact() -> None:
    assert in_child(lambda: scan(containers(savefile.MAX_CONTAINERS)))["value"] == "scanned"
    outcome = in_child(lambda: scan(containers(savefile.MAX_CONTAINERS + 1)))
    assert "containers" in refused(outcome, "RefusedSaveError")


def test_the_file_size_cap_is_exact(tmp_path: Path) -> None:
    path = tmp_path / "savegame.sav"
    path.write_bytes(b"\x00" * savefile.MAX_FILE_SIZE)
    assert in_child(lambda: len(savefile.read_file(path)))["value"] == savefile.MAX_FILE_SIZE
    path.write_bytes(b"\x00" * (savefile.MAX_FILE_SIZE + 1))
    refused(in_child(lambda: savefile.read_file(path)), "OversizedSaveError")


# --- Recordings: read with bounds, one-line errors --------------------------------


def read_recording(path: Path) -> int:
    return len(recording.read(path).events)


def recording_refused(path: Path) -> str:
    outcome = in_child(lambda: read_recording(path), seconds=5.0)
    message = refused(outcome, "RecordingError")
    assert message.startswith(str(path)) and len(message) < 200 + len(str(path)), message
    return message


def test_a_fifo_named_as_the_recording_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "game.rec")
    assert "not a regular file" in recording_refused(tmp_path / "game.rec")


def test_a_recording_linked_to_dev_zero_is_refused(tmp_path: Path) -> None:
    (tmp_path / "game.rec").symlink_to("/dev/zero")
    assert "not a regular file" in recording_refused(tmp_path / "game.rec")


def test_a_recording_of_many_megabytes_or_one_long_line_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "game.rec"
    path.write_text("recording 1\nseed 1\n" + "key a\n" * (22_000_000 // 6))
    assert "bigger than" in recording_refused(path)
    path.write_text("recording 1\nseed 1\n#" + "x" * 60_000_000 + "\n")
    assert "bigger than" in recording_refused(path)


def test_the_recording_size_cap_is_exact(tmp_path: Path) -> None:
    path = tmp_path / "game.rec"
    head = "recording 1\nseed 1\n"
    body = "key a\n" * ((recording.MAX_BYTES - len(head)) // 6)
    text = head + body + "#" * (recording.MAX_BYTES - len(head) - len(body) - 1) + "\n"
    assert len(text) == recording.MAX_BYTES
    path.write_text(text)
    outcome = in_child(lambda: read_recording(path), seconds=10.0)
    assert outcome["value"] == len(body) // 6, outcome
    path.write_text(text + "\n")
    assert "bigger than" in recording_refused(path)


def test_a_long_line_of_a_bad_number_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "game.rec"
    path.write_text(f"recording 1\nseed 1\nclick 1{'0' * 400} 0\n")
    assert "line 3" in recording_refused(path)
    path.write_text(f"recording 1\nseed 1\nclick 1{'0' * 100} 0\n")
    assert "line 3" in recording_refused(path)


def test_screen_named_as_a_fifo_does_not_hang(tmp_path: Path) -> None:
    rec = tmp_path / "game.rec"
    rec.write_text("recording 1\nseed 1\nkey period\n")
    os.mkfifo(tmp_path / "screen.txt")

    def headless() -> int:
        return main.main(["--replay", str(rec), "--headless", "--screen", str(tmp_path / "screen.txt")])

    outcome = in_child(headless, seconds=30.0)
    assert outcome["value"] == 0, outcome
    assert (tmp_path / "screen.txt").read_text().count("\n") == 50
