"""The files around the save are hostile too (issue 21): each case in a bounded child.

Every case runs in a child process with a time and memory bound
(`bounded.in_child`), so a hang, a crash or a blow-up is that case's
failure.  Limits are tested at their edges: one under is taken, one over
refused.
"""

from __future__ import annotations

import pickle
from pathlib import Path

from bounded import in_child, refused

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
