"""The save file: plain data in a checked container, written safely, read with bounded work.

A save is one file::

    b"YARLSAVE"     8 bytes, the magic: "this is a save of this game"
    version         2 bytes, big-endian: the layout of the data (`save_data.FORMAT_VERSION`)
    xz stream       the data, pickled (protocol 5), xz-compressed, with a CRC32 checksum

The data is plain: dicts, lists, tuples, strings, integers, booleans, None
and bytes; `save_data` turns a game into such data and back.  This module
knows nothing of the game, only of files, and guards against any file:

* A pickle names nothing here: `_Unpickler` refuses every global, so no
  class, function or numpy dtype can come from a file.  Before unpickling,
  `_scan` counts every opcode, refusing any plain data does not need and
  more of them than the caps below, so the unpickler's work and memory are
  bounded; after it, `_check_plain` refuses deep nesting, shared lists and
  dicts, and dict keys that are not texts.
* Only a regular file is read (never a FIFO or a device), at most
  `MAX_FILE_SIZE` bytes of it, and it inflates to at most `MAX_PAYLOAD`
  bytes, decompressed with at most `_MEMLIMIT` bytes of memory.
* The magic and version come first and uncompressed, so another file, or a
  save of another layout, is named as such from its first ten bytes.  The
  checksum turns a damaged file into "damaged", not a garbled game.
* Writing goes through `safe_io`, as every write does: a temporary file
  beside the save, synced to disk, then renamed over it: a crash at any
  moment leaves the old save or the new one, whole.  The save replaced, if
  it was whole, is kept as `savegame.sav.bak`, and temporary files of
  interrupted saves are removed by the next save.

Every way a file can be refused is a `SaveError` whose `str()` is one plain
sentence, fit for a popup.  A missing file raises `FileNotFoundError`.
"""

from __future__ import annotations

import contextlib
import errno
import io
import lzma
import os
import pickle
import pickletools
import struct
import sys
from pathlib import Path
from typing import Final

from saving import safe_io

MAGIC: Final = b"YARLSAVE"
# Magic, then the version as a big-endian unsigned short.
_HEADER: Final = struct.Struct(f">{len(MAGIC)}sH")

# Pinned, so that a newer Python does not change what a format version means.
PICKLE_PROTOCOL: Final = 5

# LZMA2 at its fastest preset, with a 1 MiB dictionary: a floor pickles to
# about 80 KB, so a bigger dictionary would compress no better, only cost more
# memory to write and read.  Pickles are not text: fewer literal context bits
# and no position bits compress them a little better.  The strongest preset
# (9, extreme) made a long game's save (tools/save_time.py: ten floors, a full
# log, 100,000 events recorded) 30% smaller, 108 KB against 151 KB, but took
# 212 ms of CPU to compress it against 21 ms: a pause the player felt at
# every descent.  Any preset reads back the same.
_FILTERS: Final = ({"id": lzma.FILTER_LZMA2, "preset": 1, "dict_size": 1 << 20, "lc": 1, "lp": 0, "pb": 0},)

# The caps on what any file can cost.  A floor-1 save is about 2 KB on disk
# and 80 KB unpacked; the biggest map a save may hold (`save_data`) about 6 MB.
MAX_FILE_SIZE: Final = 4 << 20
MAX_PAYLOAD: Final = 8 << 20
# Memory the xz decoder may take: our streams need about 1 MiB; a hostile
# header could ask for 1.5 GiB of dictionary.
_MEMLIMIT: Final = 16 << 20
# Objects and containers a pickle may build, and how deeply containers may
# nest.  A game holds a few thousand objects, a long one's message log a few
# hundred thousand; its containers nest 8 deep.
MAX_OBJECTS: Final = 300_000
MAX_CONTAINERS: Final = 100_000
MAX_NESTING: Final = 32

BACKUP_SUFFIX: Final = ".bak"
BAD_SUFFIX: Final = ".bad"
CRASH_SUFFIX: Final = ".crash"
_TEMP_SUFFIX: Final = ".tmp"  # With `_temp_prefix`, as `safe_io.write_temporary` names them.


class SaveError(Exception):
    """A save file that could not be loaded, or a game that could not be saved.

    `str(exc)` is one sentence fit for a popup.  Catch `SaveError` to handle
    every case; the subclasses say which one it was.
    """


class EmptySaveError(SaveError):
    """The file has no bytes at all."""

    def __init__(self) -> None:
        super().__init__("The save file is empty.")


class NotASaveError(SaveError):
    """The file does not start with `MAGIC`: something else was put there."""

    def __init__(self) -> None:
        super().__init__("This is not a save file of this game.")


class NotAFileError(SaveError):
    """The save's name is taken by a FIFO, a device or a folder: never read."""

    def __init__(self) -> None:
        super().__init__("The save is not a regular file, so it was not read.")


class OversizedSaveError(SaveError):
    """The file is bigger than any save (`MAX_FILE_SIZE`): never read whole."""

    def __init__(self) -> None:
        super().__init__("The save file is far too big to be a save of this game.")


class SaveVersionError(SaveError):
    """The file is a save of this game, but of a format this game can't read."""

    def __init__(self, found: int, expected: int) -> None:
        self.found = found
        self.expected = expected
        if self.newer:
            super().__init__(
                f"The save was made by a newer version of the game (format {found}; "
                f"this one reads up to {expected}): play it with that version."
            )
        else:
            super().__init__(
                f"The save is from format version {found}; this game reads version {expected}."
            )

    @property
    def newer(self) -> bool:
        """Made by a newer game: not damaged, so it is left where it is."""
        return self.found > self.expected


class DamagedSaveError(SaveError):
    """The header is right but the rest is cut short, corrupt, or not a valid game.

    `detail`, when given, says what was wrong, as the end of the sentence.
    """

    def __init__(self, detail: str | None = None) -> None:
        self.detail = detail
        if detail is None:
            super().__init__("The save file is damaged or truncated.")
        else:
            super().__init__(f"The save file is damaged or altered: {detail}.")


class RefusedSaveError(SaveError):
    """The pickle asks for something plain data never needs, or too much of it.

    A global (a class or function to call), an opcode outside plain data, or
    more objects, containers or nesting than the caps allow: either the file
    was crafted, or made by a game this one is not.  Nothing in it was run.
    `what` says what was refused.
    """

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(f"The save file asks for {what}, which a save never does; it was not loaded.")


class UnsaveableGameError(SaveError):
    """Raised when saving a game that would not load back: a bug in the game.

    Writing such a save would lose the game at the next load, so nothing is
    written and the previous save is kept.  The chained exception says why.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(f"The game could not be saved: {reason}")


# --- The pickle: plain data only ---------------------------------------------

# The opcodes of plain data: everything the pickler writes for dicts, lists,
# tuples, strings, bytes, integers, booleans and None, and nothing else: no
# globals, no calls (REDUCE, BUILD, NEWOBJ...), no sets, no floats, no
# out-of-band buffers, no protocol 0-3 text opcodes, no PUT with an index of
# the file's choosing.  Each by its byte: the bytes of its argument, and
# whether those give the length of a text or bytes that follows.
_PLAIN: Final = {
    0x80: (1, False), 0x95: (8, False), ord("."): (0, False),  # PROTO, FRAME, STOP
    ord("("): (0, False), 0x94: (0, False), ord("h"): (1, False), ord("j"): (4, False),  # MARK, MEMOIZE, gets
    ord("N"): (0, False), 0x88: (0, False), 0x89: (0, False),  # None, True, False
    ord("K"): (1, False), ord("M"): (2, False), ord("J"): (4, False), 0x8A: (1, True),  # Integers
    0x8C: (1, True), ord("X"): (4, True), ord("C"): (1, True), ord("B"): (4, True),  # Texts, bytes
    ord("]"): (0, False), ord("a"): (0, False), ord("e"): (0, False),  # Lists
    ord("}"): (0, False), ord("s"): (0, False), ord("u"): (0, False),  # Dicts
    ord(")"): (0, False), ord("t"): (0, False), 0x85: (0, False), 0x86: (0, False), 0x87: (0, False),  # Tuples
}  # fmt: skip
_CONTAINERS: Final = frozenset(b"]})t\x85\x86\x87")
_NOT_OBJECTS: Final = frozenset(b"\x80\x95.(\x94aesu")  # Those that push nothing new.
_MARK_CLOSERS: Final = frozenset(b"eut")  # APPENDS, SETITEMS, TUPLE
_MARK: Final = ord("(")
_STOP: Final = ord(".")
_OPCODE_NAMES: Final = {opcode.code.encode("latin-1")[0]: opcode.name for opcode in pickletools.opcodes}
# The longest integer plain data holds: a 128-bit random generator state.
_MAX_LONG_BYTES: Final = 17
# Integers beyond 32 bits (LONG1): a game has the random generator's four.
# Their hashes are predictable, so as dict keys, k * (2**61 - 1) for each k,
# they would make every insertion walk all the others (a hash flood, seconds
# per thousand keys) before any check after loading could see them.
MAX_LONGS: Final = 16


def _scan(pickled: bytes) -> None:
    """Check every opcode of `pickled` before the unpickler sees it, so that
    its work and memory are bounded by the caps: only plain data's opcodes,
    memo references to entries made before, at most `MAX_OBJECTS` objects,
    `MAX_CONTAINERS` containers, `MAX_LONGS` long numbers and `MAX_NESTING`
    open marks.  (Nesting, sharing and dict keys are checked on the data, by
    `_check_plain`.)  Raises `RefusedSaveError` for what a save never holds,
    `DamagedSaveError` for a pickle that is malformed.
    """
    objects = containers = longs = memo = marks = at = 0
    size = len(pickled)
    while at < size:
        code = pickled[at]
        if code not in _PLAIN:
            if code not in _OPCODE_NAMES:
                raise DamagedSaveError()
            raise RefusedSaveError(f"the pickle opcode {_OPCODE_NAMES[code]}")
        width, sized = _PLAIN[code]
        arg = int.from_bytes(pickled[at + 1 : at + 1 + width], "little")
        at += 1 + width + (arg if sized else 0)
        if at > size:
            raise DamagedSaveError()  # Cut short.
        if code == 0x94:  # MEMOIZE
            memo += 1
            if memo > objects:
                raise RefusedSaveError("more memo entries than objects")
        elif code in b"hj" and arg >= memo:  # BINGET, LONG_BINGET
            raise RefusedSaveError("a memo entry that was never made")
        elif code == 0x8A:  # LONG1
            longs += 1
            if arg > _MAX_LONG_BYTES:
                raise RefusedSaveError("a number longer than any in a game")
            if longs > MAX_LONGS:
                raise RefusedSaveError("more long numbers than any game holds")
        elif code == _STOP:
            if at != size:
                raise DamagedSaveError()  # Bytes after it.
            return
        marks += (code == _MARK) - (code in _MARK_CLOSERS)
        if marks < 0:
            raise DamagedSaveError()  # Closes a mark never opened.
        if marks > MAX_NESTING:
            raise RefusedSaveError("data nested deeper than any game's")
        objects += code not in _NOT_OBJECTS
        containers += code in _CONTAINERS
        if objects > MAX_OBJECTS:
            raise RefusedSaveError("more objects than any game holds")
        if containers > MAX_CONTAINERS:
            raise RefusedSaveError("more containers than any game holds")
    raise DamagedSaveError()  # No STOP.


def _check_plain(data: object) -> None:
    """Refuse data that nests deeper than `MAX_NESTING`, holds a list or dict
    in two places (a small file could make the loader walk every path through
    them), or a dict key that is not a text.  Each container is walked once."""
    seen: set[int] = set()
    level: list[object] = [data]
    for _ in range(MAX_NESTING):
        below: list[object] = []
        for value in level:
            if not isinstance(value, list | tuple | dict):
                continue
            if id(value) in seen:
                if isinstance(value, tuple):
                    continue  # The pickler shares equal tuples; reading one twice costs nothing.
                raise DamagedSaveError("a list or record is shared with another part of the save")
            seen.add(id(value))
            if isinstance(value, dict):
                if any(type(key) is not str for key in value):
                    raise RefusedSaveError("a dict key that is not a name")
                below.extend(value.values())
            else:
                below.extend(value)
        if not below:
            return
        level = below
    if any(type(value) in (list, tuple, dict) for value in level):
        raise RefusedSaveError("data nested deeper than any game's")


class _Unpickler(pickle.Unpickler):
    """An unpickler that can reach no code at all: every global is refused.

    `_scan` refuses globals before this runs; this is the second lock.
    """

    def find_class(self, module: str, name: str, /) -> object:
        raise RefusedSaveError(f"code ({module}.{name})")


def _unpickle(pickled: bytes) -> object:
    """The plain data in `pickled`, after `_scan` has vouched for its opcodes."""
    _scan(pickled)
    try:
        data = _Unpickler(io.BytesIO(pickled)).load()
    except SaveError:
        raise
    except Exception as exc:  # E.g. a list as a dict key: still the file's fault.
        raise DamagedSaveError() from exc
    _check_plain(data)
    return data


# --- Bytes -----------------------------------------------------------------------


def dumps(data: object, version: int) -> bytes:
    """The bytes of a save file holding `data` (plain data) as format `version`."""
    pickled = pickle.dumps(data, protocol=PICKLE_PROTOCOL)
    payload = lzma.compress(
        pickled, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=_FILTERS
    )
    return _HEADER.pack(MAGIC, version) + payload


def loads(blob: bytes, version: int) -> object:
    """The plain data held by the bytes of a save file of format `version`.

    Raises a `SaveError` subclass saying why when `blob` is not such a save;
    nothing in a refused file is run, and the work done is bounded.
    """
    return loads_any(blob, range(version, version + 1))[1]


def loads_any(blob: bytes, versions: range) -> tuple[int, object]:
    """The format version of a save file of one of `versions`, and its plain data.

    As `loads` does, for a game that reads older formats too; a file of any
    other version raises `SaveVersionError` naming the newest.
    """
    found, pickled = _payload(blob, versions)
    return found, _unpickle(pickled)


def _payload(blob: bytes, versions: range) -> tuple[int, bytes]:
    """The format version and the pickle of a save file, its header and checksum checked."""
    if not blob:
        raise EmptySaveError()
    if len(blob) < _HEADER.size:
        # A short start of the magic is a save cut short; anything else isn't one.
        if MAGIC.startswith(blob[: len(MAGIC)]):
            raise DamagedSaveError()
        raise NotASaveError()
    magic, found = _HEADER.unpack_from(blob)
    if magic != MAGIC:
        raise NotASaveError()
    if found not in versions:
        raise SaveVersionError(found, versions[-1])
    decompressor = lzma.LZMADecompressor(format=lzma.FORMAT_XZ, memlimit=_MEMLIMIT)
    try:
        pickled = decompressor.decompress(blob[_HEADER.size :], max_length=MAX_PAYLOAD)
    except lzma.LZMAError as exc:  # Corrupt, a failed checksum, or too much memory.
        raise DamagedSaveError() from exc
    if not decompressor.eof or decompressor.unused_data:
        # Cut short (or bigger than any save), or bytes after the end.
        raise DamagedSaveError()
    return found, pickled


# --- Files -----------------------------------------------------------------------


def read_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the file at `path`, if it is a regular file of at most
    `MAX_FILE_SIZE` (`safe_io.read_bytes`: a FIFO or a device is never read)."""
    try:
        return safe_io.read_bytes(path, MAX_FILE_SIZE)
    except OSError as exc:
        if exc.errno != errno.EINVAL:
            raise
        raise NotAFileError() if "regular" in str(exc.strerror) else OversizedSaveError() from None


def read(path: str | os.PathLike[str], version: int) -> object:
    """The plain data saved at `path`, checked as `loads` does.

    Raises `FileNotFoundError` when there is no save, other `OSError`s when
    it can't be read, or a `SaveError` when it is not a save this game loads.
    """
    return loads(read_file(path), version)


def read_any(path: str | os.PathLike[str], versions: range) -> tuple[int, object]:
    """The format version and plain data of the save at `path`, of one of `versions` (see `loads_any`)."""
    return loads_any(read_file(path), versions)


def backup_path(path: str | os.PathLike[str]) -> Path:
    """Where the save before the last one is kept: `savegame.sav.bak`."""
    return Path(os.fspath(path) + BACKUP_SUFFIX)


def crash_path(path: str | os.PathLike[str]) -> Path:
    """Where a game that crashed is saved, beside the save: `savegame.sav.crash`."""
    return Path(os.fspath(path) + CRASH_SUFFIX)


def write(
    blob: bytes, path: str | os.PathLike[str], version: int, *, keep_backup: bool = True
) -> None:
    """Write the save file `blob` (made by `dumps`) to `path`, whole or not at all.

    A temporary file beside it, synced to disk (`safe_io.write_temporary`),
    renamed over `path` once the save it replaces is kept as the backup
    (`backup_path`, unless `keep_backup` is False); the folder is synced too,
    so the rename survives a power cut.  Temporary files of saves that were
    killed are removed first.  The new file is readable by its owner only.
    """
    path = Path(path)
    _remove_stale_temporaries(path)
    temp_path = safe_io.write_temporary(path, blob)
    try:
        if keep_backup:
            _keep_backup(path, version)
        _keep_newer(path, version)
        os.replace(temp_path, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_path)
        raise
    _fsync_folder(os.path.dirname(os.path.abspath(path)))


def _temp_prefix(path: str | os.PathLike[str]) -> str:
    return f".{os.path.basename(path)}."


def _remove_stale_temporaries(path: str | os.PathLike[str]) -> None:
    """Remove the temporary files of earlier saves of `path` that were killed midway.

    A save's temporary file only outlives it when the process died while
    writing (a crash, a kill, a power cut); nothing else ever reads it.
    """
    folder = Path(os.path.abspath(path)).parent
    prefix = _temp_prefix(path)
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if entry.name.startswith(prefix) and entry.name.endswith(_TEMP_SUFFIX):
                with contextlib.suppress(OSError):
                    if entry.is_file(follow_symlinks=False):
                        os.unlink(entry.path)


def newer_path(path: str | os.PathLike[str], found: int) -> Path:
    """Where a save of a newer format is kept when this game saves over it."""
    return Path(f"{os.fspath(path)}.format-{found}")


def _keep_newer(path: str | os.PathLike[str], version: int) -> None:
    """Move a newer game's save at `path` aside before this game writes there.

    This game can't read it, but the newer game can: a new game started
    here must not erase the player's game of that version.
    """
    try:
        head = read_file(path)[: _HEADER.size]
    except (OSError, SaveError):
        return
    if len(head) == _HEADER.size:
        magic, found = _HEADER.unpack(head)
        if magic == MAGIC and found > version:
            os.replace(path, newer_path(path, found))


def _keep_backup(path: str | os.PathLike[str], version: int) -> None:
    """Keep the save at `path` as its backup, if it is a whole save of this
    format: a damaged or foreign file is not kept over an older, good backup.
    Written atomically, so a crash meanwhile leaves the old backup whole."""
    try:
        blob = read_file(path)
        _payload(blob, range(version, version + 1))  # Whole: its checksum holds.
    except (OSError, SaveError):
        return  # No save yet, or none worth keeping.
    try:
        safe_io.write_atomic(backup_path(path), blob)
    except OSError as exc:  # Its name taken by a folder, say: the save goes on.
        print(f"main.py: the backup {backup_path(path)} could not be kept ({exc.strerror or exc}); "
              "the game is saved all the same", file=sys.stderr)  # fmt: skip


def _fsync_folder(folder: str) -> None:
    """Sync a folder's entries to disk, so a rename in it is durable.

    Windows can't open folders this way and has no need: skip it there, and
    on any file system that refuses.
    """
    if sys.platform == "win32":
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def keep_bad_save(path: str | os.PathLike[str]) -> Path:
    """Move an unloadable save aside to `path + ".bad"` and return that path.

    The game would otherwise overwrite it at the next save; kept, a player can
    still send it in with a bug report, or retry with a newer game.  An older
    `.bad` file is replaced.
    """
    bad_path = Path(os.fspath(path) + BAD_SUFFIX)
    os.replace(path, bad_path)
    return bad_path


def remove(path: str | os.PathLike[str]) -> None:
    """Delete the save at `path` and its backup: the game they held is over.

    Raises `OSError` when either exists and can't be deleted.
    """
    for name in (Path(path), backup_path(path)):
        with contextlib.suppress(FileNotFoundError):
            os.remove(name)
