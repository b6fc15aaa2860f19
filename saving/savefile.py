"""The save file: plain data in a checked container, written safely, read with bounded work.

    b"YARLSAVE"     8 bytes, the magic: "this is a save of this game"
    version         2 bytes, big-endian: the layout of the data (`save_fields.FORMAT_VERSION`)
    zlib stream     the data, pickled (protocol 5), compressed, with an Adler-32 checksum
                    (up to format 7: an xz stream, with a CRC32 checksum)

The data is plain (dicts, lists, tuples, strings, integers, booleans, None,
bytes).  This module knows nothing of the game, and guards against any file:
a pickle can name no class or function (`_Unpickler`); `_scan` bounds its
opcodes, objects and nesting before it is unpickled, `check_plain` refuses
shared containers and non-text keys after; only a regular file of at most
`MAX_FILE_SIZE` is read, inflating to at most `MAX_PAYLOAD`.  Writing is
atomic (`safe_io`), keeping the save replaced as `savegame.sav.bak` (the
file itself, linked under that name: never read back).  Every
refusal is a `SaveError`; a missing file raises `FileNotFoundError`.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import pickle
import struct
import sys
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Final, cast

from saving import safe_io
from words import program

MAGIC: Final = b"YARLSAVE"
_HEADER: Final = struct.Struct(f">{len(MAGIC)}sH")  # The magic, the version.
PICKLE_PROTOCOL: Final = 5  # Pinned: a newer Python must not change what a format means.

# From format 8 the pickle is compressed by zlib at its fastest level: a long
# game's save (100,000 events recorded) compresses in 5 ms, where xz's fastest
# preset took 37 ms, for a file a quarter bigger (tools/save_time.py).
ZLIB_SINCE: Final = 8
_ZLIB_LEVEL: Final = 1
# Up to format 7, xz's fastest preset (FILTER_LZMA2 is 0x21), a 1 MiB dictionary
# (a floor pickles to 80 KB), fewer literal context bits for pickles.
_FILTERS: Final = ({"id": 0x21, "preset": 1, "dict_size": 1 << 20, "lc": 1, "lp": 0, "pb": 0},)

# What any file may cost: a floor-1 save is 2 KB on disk, 80 KB unpacked; the
# biggest map a save may hold about 6 MB.  The xz decoder's memory: ours need
# 1 MiB, a hostile header could ask 1.5 GiB.  A game holds a few thousand
# objects (a long log a few hundred thousand), nested 8 deep.
MAX_FILE_SIZE: Final = 4 << 20
MAX_PAYLOAD: Final = 8 << 20
_MEMLIMIT: Final = 16 << 20
MAX_OBJECTS: Final = 300_000
MAX_CONTAINERS: Final = 100_000
MAX_NESTING: Final = 32

BACKUP_SUFFIX: Final = ".bak"
BAD_SUFFIX: Final = ".bad"
CRASH_SUFFIX: Final = ".crash"


class SaveError(Exception):
    """A save that could not be loaded, or a game that could not be saved: `str(exc)`
    is one sentence fit for a popup; the subclasses say which case it was."""

    message = "The save file could not be used."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.message)


class EmptySaveError(SaveError):
    message = "The save file is empty."


class NotASaveError(SaveError):
    message = "This is not a save file of this game."


class NotAFileError(SaveError):
    message = "The save is not a regular file, so it was not read."  # A FIFO, a device, a folder.


class OversizedSaveError(SaveError):
    message = "The save file is far too big to be a save of this game."


class SaveVersionError(SaveError):
    """A save of this game, of a format this one can't read; a `newer` one is left where it is."""

    def __init__(self, found: int, expected: int) -> None:
        self.found, self.expected, self.newer = found, expected, found > expected
        super().__init__(
            f"The save was made by a newer version of the game (format {found}; "
            f"this one reads up to {expected}): play it with that version."
            if self.newer
            else f"The save is from format version {found}; this game reads version {expected}."
        )


class DamagedSaveError(SaveError):
    """Cut short, corrupt, or not a valid game; `detail` says what was wrong."""

    def __init__(self, detail: str | None = None) -> None:
        self.detail = detail
        super().__init__(f"The save file is damaged or altered: {detail}." if detail else "The save file is damaged or truncated.")


class RefusedSaveError(SaveError):
    """The pickle asks for what plain data never needs (`what`), or too much of
    it: crafted, or made by another game.  Nothing in it was run."""

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(f"The save file asks for {what}, which a save never does; it was not loaded.")


class UnsaveableGameError(SaveError):
    """A game whose save would not load back (a bug): nothing is written, the last save kept."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"The game could not be saved: {reason}")


# --- The pickle: plain data only ---------------------------------------------

# The opcodes the pickler writes for plain data, and no other (no globals,
# calls, sets, floats, buffers, text opcodes, PUT at an index of the file's
# choosing); each by its byte: its argument's bytes, and whether they give the
# length of a text or bytes that follows.
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
_MARKS: Final = frozenset(b"(eut")  # MARK, and APPENDS, SETITEMS and TUPLE, which close one
_MARK: Final = ord("(")
_STOP: Final = ord(".")
_MEMOIZE: Final = 0x94
_LONG1: Final = 0x8A
_GETS: Final = frozenset(b"hj")  # BINGET, LONG_BINGET
_MAX_LONG_BYTES: Final = 17  # The longest integer: a 128-bit generator state.
# Integers beyond 32 bits (a game has the generator's four): as dict keys,
# k * (2**61 - 1) would hash alike and flood the unpickler's dicts.
MAX_LONGS: Final = 16


def _scan(pickled: bytes) -> None:
    """Check every opcode of `pickled` before the unpickler sees it, so that its
    work and memory stay within the caps: `RefusedSaveError` for what a save
    never holds, `DamagedSaveError` for a malformed pickle.

    One loop with its counts in local names: a full log's save is 13,000
    opcodes, and a method call for each made this check most of Continue's time."""
    objects = containers = longs = memo = marks = code = 0  # code 0: no opcode read yet
    at, size = 0, len(pickled)
    while at < size:
        code = pickled[at]
        shape = _PLAIN.get(code)
        if shape is None:
            raise _unplain(code)
        width, sized = shape
        arg = int.from_bytes(pickled[at + 1 : at + 1 + width], "little") if width else 0
        at += 1 + width + (arg if sized else 0)
        if at > size or code == _STOP:
            break
        if code == _MEMOIZE:
            memo += 1
            if memo > objects:
                raise RefusedSaveError("more memo entries than objects")
        elif code in _GETS and arg >= memo:
            raise RefusedSaveError("a memo entry that was never made")
        elif code == _LONG1:
            longs += 1
            if arg > _MAX_LONG_BYTES or longs > MAX_LONGS:
                raise _too_long(arg)
        elif code in _MARKS:
            marks += 1 if code == _MARK else -1
            if not 0 <= marks <= MAX_NESTING:
                raise _badly_nested(marks)
        if code not in _NOT_OBJECTS:
            objects += 1
            if code in _CONTAINERS:
                containers += 1
            if objects > MAX_OBJECTS or containers > MAX_CONTAINERS:
                raise _too_many(objects)
    _check_end(code, at, size)


def _check_end(code: int, at: int, size: int) -> None:
    """After the scan: its last opcode, `code`, ending at `at`, must be STOP, at the pickle's end."""
    if code != _STOP or at != size:
        raise DamagedSaveError()  # Cut short, bytes after STOP, or no STOP.


def _too_long(width: int) -> SaveError:
    """A long number (LONG1) past the caps: longer than any, or one too many."""
    if width > _MAX_LONG_BYTES:
        return RefusedSaveError("a number longer than any in a game")
    return RefusedSaveError("more long numbers than any game holds")


def _badly_nested(marks: int) -> SaveError:
    """A mark past the caps: nested too deep, or a mark closed that was never opened."""
    if marks < 0:
        return DamagedSaveError()
    return RefusedSaveError("data nested deeper than any game's")


def _too_many(objects: int) -> SaveError:
    """An object past the caps: of all objects, or of containers."""
    if objects > MAX_OBJECTS:
        return RefusedSaveError("more objects than any game holds")
    return RefusedSaveError("more containers than any game holds")


def _unplain(code: int) -> SaveError:
    """The error for an opcode plain data never needs, named; or for a byte no opcode is."""
    import pickletools  # Only to name a refused opcode: not loaded by every start.

    names = {opcode.code.encode("latin-1")[0]: opcode.name for opcode in pickletools.opcodes}
    return RefusedSaveError(f"the pickle opcode {names[code]}") if code in names else DamagedSaveError()


# Plain data's containers, by exact type: the unpickler makes no other (`_Unpickler`),
# and a load refuses any other where one is read (`save_fields`).
_PLAIN_CONTAINERS: Final = frozenset((list, tuple, dict))


def check_plain(data: object) -> None:
    """Refuse data nested deeper than `MAX_NESTING`, a list or dict in two places
    (a small file could make the loader walk every path through them), or a
    dict key that is not a text."""
    seen: set[int] = set()
    level: list[object] = [data]
    for _ in range(MAX_NESTING):
        below: list[object] = []
        for value in level:
            kind = type(value)
            if kind not in _PLAIN_CONTAINERS:
                continue
            if id(value) in seen:
                if kind is tuple:
                    continue  # The pickler shares equal tuples; reading one twice costs nothing.
                raise DamagedSaveError("a list or record is shared with another part of the save")
            seen.add(id(value))
            if type(value) is dict:
                if not all_of_type(value, str):
                    raise RefusedSaveError("a dict key that is not a name")
                below.extend(value.values())
            else:
                below.extend(cast("list[object] | tuple[object, ...]", value))
        if not below:
            return
        level = below
    if any(type(value) in _PLAIN_CONTAINERS for value in level):
        raise RefusedSaveError("data nested deeper than any game's")


def all_of_type(values: Iterable[object], cls: type) -> bool:
    """Whether each of `values` is exactly of type `cls` (not a subclass: a bool is
    no int here), checked without a step of Python each."""
    return set(map(type, values)) <= {cls}


class _Unpickler(pickle.Unpickler):
    """Reaches no code: every global refused (a second lock after `_scan`)."""

    def find_class(self, module: str, name: str, /) -> object:
        raise RefusedSaveError(f"code ({module}.{name})")


def _unpickle(pickled: bytes) -> object:
    _scan(pickled)
    try:
        data = _Unpickler(io.BytesIO(pickled)).load()
    except SaveError:
        raise
    except Exception as exc:  # E.g. a list as a dict key: still the file's fault.
        raise DamagedSaveError() from exc
    check_plain(data)
    return data


# --- Bytes -----------------------------------------------------------------------


def dumps(data: object, version: int) -> bytes:
    """The bytes of a save file holding `data` (plain data) as format `version`."""
    return pack(pickle.dumps(data, protocol=PICKLE_PROTOCOL), version)


def dumps_loadable(data: object, version: int) -> bytes:
    """`dumps`, refusing (`UnsaveableGameError`) a save its loader would refuse for
    its size: one set of limits, applied by the writer and the reader."""
    pickled = pickle.dumps(data, protocol=PICKLE_PROTOCOL)
    if len(pickled) > MAX_PAYLOAD:
        raise UnsaveableGameError(f"it would unpack to {len(pickled):,} bytes, more than a save may ({MAX_PAYLOAD:,}).")
    blob = pack(pickled, version)
    if len(blob) > MAX_FILE_SIZE:
        raise UnsaveableGameError(f"it would take {len(blob):,} bytes, more than a save may ({MAX_FILE_SIZE:,}).")
    return blob


def pack(pickled: bytes, version: int) -> bytes:
    """A save file of format `version` around `pickled`: the header, then the pickle compressed."""
    if version >= ZLIB_SINCE:
        packed = zlib.compress(pickled, _ZLIB_LEVEL)
    else:
        import lzma  # Saves of format 7 and before only: not loaded by every start.

        packed = lzma.compress(pickled, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=_FILTERS)
    return _HEADER.pack(MAGIC, version) + packed


def loads(blob: bytes, version: int) -> object:
    """The plain data of the bytes of a save file of format `version` (or a `SaveError`)."""
    return loads_any(blob, range(version, version + 1))[1]


def loads_any(blob: bytes, versions: range) -> tuple[int, object]:
    """The format version and plain data of a save file of one of `versions`."""
    found, pickled = _payload(blob, versions)
    return found, _unpickle(pickled)


def _payload(blob: bytes, versions: range) -> tuple[int, bytes]:
    """The format version and the pickle of a save file, its header and checksum checked."""
    if not blob:
        raise EmptySaveError()
    if len(blob) < _HEADER.size:
        raise DamagedSaveError() if MAGIC.startswith(blob[: len(MAGIC)]) else NotASaveError()
    magic, found = _HEADER.unpack_from(blob)
    if magic != MAGIC:
        raise NotASaveError()
    if found not in versions:
        raise SaveVersionError(found, versions[-1])
    if found >= ZLIB_SINCE:
        return found, _inflate(blob[_HEADER.size :])
    import lzma  # Saves of format 7 and before only: not loaded by every start.

    decompressor = lzma.LZMADecompressor(format=lzma.FORMAT_XZ, memlimit=_MEMLIMIT)
    try:
        pickled = decompressor.decompress(blob[_HEADER.size :], max_length=MAX_PAYLOAD)
    except lzma.LZMAError as exc:  # Corrupt, a failed checksum, or too much memory.
        raise DamagedSaveError() from exc
    if not decompressor.eof or decompressor.unused_data:  # Cut short, too big, or bytes after.
        raise DamagedSaveError()
    return found, pickled


def _inflate(packed: bytes) -> bytes:
    """The pickle of a zlib stream, of at most `MAX_PAYLOAD` bytes, its checksum checked."""
    decompressor = zlib.decompressobj()
    try:
        pickled = decompressor.decompress(packed, MAX_PAYLOAD)
    except zlib.error as exc:  # Corrupt, or a failed checksum.
        raise DamagedSaveError() from exc
    if not decompressor.eof or decompressor.unused_data or decompressor.unconsumed_tail:
        raise DamagedSaveError()  # Cut short, too big, or bytes after.
    return pickled


# --- Files -----------------------------------------------------------------------


def read_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the regular file (never a FIFO or a device) at `path`, of at most `MAX_FILE_SIZE`."""
    try:
        return safe_io.read_bytes(path, MAX_FILE_SIZE)
    except OSError as exc:
        if exc.errno != errno.EINVAL:
            raise
        raise NotAFileError() if "regular" in str(exc.strerror) else OversizedSaveError() from None


def read(path: str | os.PathLike[str], version: int) -> object:
    """The plain data saved at `path`, checked as `loads` does."""
    return loads(read_file(path), version)


def backup_path(path: str | os.PathLike[str]) -> Path:
    """Where the save before the last one is kept: `savegame.sav.bak`."""
    return Path(os.fspath(path) + BACKUP_SUFFIX)


def crash_path(path: str | os.PathLike[str]) -> Path:
    """Where a game that crashed is saved, beside the save: `savegame.sav.crash`."""
    return Path(os.fspath(path) + CRASH_SUFFIX)


def write(
    blob: bytes, path: str | os.PathLike[str], version: int, *, keep_backup: bool = True
) -> None:
    """Write the save file `blob` to `path`, whole or not at all: a synced
    temporary file renamed over it once the save replaced is kept as the
    backup (unless `keep_backup` is False), the folder synced too."""
    path = Path(path)
    safe_io.remove_temporaries(path)
    temp_path = safe_io.write_temporary(path, blob)
    try:
        _keep_old(path, version, keep_backup)
        os.replace(temp_path, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_path)
        raise
    safe_io.sync_folder(Path(os.path.abspath(path)).parent)


def newer_path(path: str | os.PathLike[str], found: int) -> Path:
    """Where a save of a newer format is kept when this game saves over it."""
    return Path(f"{os.fspath(path)}.format-{found}")


def _keep_old(path: Path, version: int, keep_backup: bool) -> None:
    """Keep what `path` holds before it is saved over: a newer game's save moved
    aside (`newer_path`), that game must not be erased; a save of this game
    as the backup, linked under its name, neither read nor copied (a foreign
    file is not kept over a good backup)."""
    try:
        magic, found = _HEADER.unpack(safe_io.read_head(path, _HEADER.size))
    except (OSError, struct.error):
        return  # No save yet, or none worth keeping.
    if magic != MAGIC:
        return
    if found > version:
        os.replace(path, newer_path(path, found))
        return
    try:
        if keep_backup:
            safe_io.link_atomic(path, backup_path(path))
    except OSError as exc:  # Its name taken by a folder, say: the save goes on.
        print(f"{program.name()}: the backup {backup_path(path)} could not be kept ({exc.strerror or exc}); "
              "the game is saved all the same", file=sys.stderr)  # fmt: skip


def keep_bad_save(path: str | os.PathLike[str]) -> Path:
    """Move an unloadable save aside to `path + ".bad"`, not to be saved over:
    a player can send it with a bug report, or retry with a newer game."""
    bad_path = Path(os.fspath(path) + BAD_SUFFIX)
    os.replace(path, bad_path)
    return bad_path


def remove(path: str | os.PathLike[str]) -> None:
    """Delete the save at `path` and its backup: the game they held is over."""
    for name in (Path(path), backup_path(path)):
        with contextlib.suppress(FileNotFoundError):
            os.remove(name)
