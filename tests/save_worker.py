"""Runs save files against the game, each in a child process of its own.

Used by test_save_attacks.py as `python tests/save_worker.py MODE ...`, in a
process of its own, because a case may crash the interpreter (that is what is
tested): each case runs in a child forked from this worker, so a segfault, a
hang or a memory blow-up shows as that case's failure, and the worker goes on.
The worker prints one JSON line: what happened to each case, in short.

Modes:

* `fuzz SEED FIRST COUNT`: mutations of real saves (bit flips, byte changes,
  truncations, of the whole file and of the pickle inside re-wrapped with a
  valid header and checksum), cases FIRST..FIRST+COUNT-1 of SEED.  Each must
  be refused with a `SaveError`, or load into a game that saves and loads
  back, then plays 50 random events through the real handlers without error.
* `corpus`: every crafted attack of issue 11, each to be refused.
* `kill SEED COUNT`: kill a process that saves, COUNT times at random
  moments; the save must always be the old one or the new one, whole.

Everything happens in the working directory, which the test makes a
temporary folder.
"""

from __future__ import annotations

import json
import lzma
import os
import pickle
import pickletools
import random
import resource
import select
import signal
import struct
import sys
import time
import traceback
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import tcod  # noqa: E402
from tcod.event import KeySym, Modifier, MouseButton  # noqa: E402

import entity_factories  # noqa: E402
import main  # noqa: E402
import setup_game  # noqa: E402
from actions import TakeStairsAction  # noqa: E402
from components.ai import ConfusedEnemy  # noqa: E402
from controls import keys  # noqa: E402
from engine import Engine  # noqa: E402
from saving import paths, save_data, savefile  # noqa: E402
from screens.stack import Screens, next_screen  # noqa: E402

VERSION = save_data.FORMAT_VERSION
EVENTS_PER_GAME = 50
# Every file must be loaded or refused within these.
SECONDS = 1.0
MEMORY = 200 << 20
# A case's child is killed after this long: a hang.
HANG_SECONDS = 20.0


# --- Real saves, to mutate --------------------------------------------------


def new_game(seed: int) -> Engine:
    random.seed(seed)
    return setup_game.new_game(seed=seed)


def played_game() -> Engine:
    """Floor 1 with a bit of everything: a twice-confused troll, a corpse, scrolls, worn gear."""
    engine = new_game(7)
    game_map, player = engine.game_map, engine.player
    x, y = player.x, player.y
    troll = entity_factories.troll.spawn(game_map, x + 1, y)
    for turns in (5, 2):
        troll.ai = ConfusedEnemy(entity=troll, previous_ai=troll.ai, turns_remaining=turns)
    entity_factories.orc.spawn(game_map, x, y + 1).fighter.take_damage(100)
    for template in (entity_factories.fireball_scroll, entity_factories.lightning_scroll,
                     entity_factories.confusion_scroll, entity_factories.sword):
        item = template.spawn(game_map, x, y)
        game_map.entities.discard(item)
        player.inventory.add(item)
    game_map.last_target = troll
    player.fighter.hp -= 7
    engine.recording += ["key l", "key period shift", "move 10 12", "click 3 4"]
    engine.update_fov()
    return engine


def deep_game(floor: int) -> Engine:
    """A seeded game taken down the stairs to `floor`, a level-up owed."""
    engine = new_game(99)
    while engine.game_world.current_floor < floor:
        engine.player.place(*engine.game_map.downstairs_location)
        TakeStairsAction(engine.player).perform()
        engine.update_fov()
    engine.player.level.current_xp = 900
    return engine


def real_saves() -> list[bytes]:
    games = [new_game(1234), played_game(), deep_game(5)]
    return [savefile.dumps(save_data.to_data(game), VERSION) for game in games]


def wrap(pickled: bytes, version: int = VERSION) -> bytes:
    """`pickled` as a save file, with a valid header and checksum."""
    return savefile.pack(pickled, version)


def payload_of(blob: bytes) -> bytes:
    version = struct.unpack(">H", blob[8:10])[0]
    return zlib.decompress(blob[10:]) if version >= savefile.ZLIB_SINCE else lzma.decompress(blob[10:])


# --- Mutations --------------------------------------------------------------

VALUE_OPCODES = frozenset({"BININT1", "BININT2", "BININT", "NEWTRUE", "NEWFALSE"})


def mutate(data: bytes, rng: random.Random, positions: list[int] | None) -> tuple[bytes, str]:
    """`data` with one kind of damage; `positions`, if given, are where to aim (opcodes)."""
    buffer = bytearray(data)

    def where() -> int:
        if positions and rng.random() < 0.7:
            return min(len(buffer) - 1, rng.choice(positions) + rng.randrange(3))
        return rng.randrange(len(buffer))

    kind = rng.choice(("bits", "bytes", "truncate", "bits"))
    if kind == "bits":
        count = rng.randint(1, 8)
        for _ in range(count):
            buffer[where()] ^= 1 << rng.randrange(8)
        return bytes(buffer), f"{count} bit(s) flipped"
    if kind == "bytes":
        count = rng.randint(1, 4)
        for _ in range(count):
            buffer[where()] = rng.choice((0, 1, 2, 0x7F, 0x80, 0xFF, rng.randrange(256)))
        return bytes(buffer), f"{count} byte(s) changed"
    cut = rng.randrange(len(buffer))
    return bytes(buffer[:cut]), f"cut to {cut} bytes"


def change_a_value(data: bytes, rng: random.Random, values: list[tuple[int, str]]) -> tuple[bytes, str]:
    """One number or boolean of the pickle changed: the damage most likely to still load."""
    buffer = bytearray(data)
    pos, name = rng.choice(values)
    if name in ("NEWTRUE", "NEWFALSE"):
        buffer[pos] ^= 0x88 ^ 0x89
    else:
        buffer[pos + 1] = rng.choice((0, 1, 2, 255, buffer[pos + 1] ^ (1 << rng.randrange(8))))
    return bytes(buffer), f"{name} at {pos} changed"


def fuzz_case(saves: list[bytes], payloads: list[bytes], opcodes: list[list[tuple[int, str]]],
              seed: int, number: int) -> tuple[bytes, str, random.Random]:
    """Case `number`: which save, what damage, and the generator for its play.

    A quarter damage the whole file; the rest the pickle inside, re-wrapped
    with a valid header and checksum so the damage reaches the loader: half
    of those change one number or boolean, half flip bits, change bytes or
    cut the pickle short, mostly where opcodes are.
    """
    rng = random.Random(f"{seed}/{number}")
    which = rng.randrange(len(saves))
    roll = rng.random()
    if roll < 0.25:
        blob, damage = mutate(saves[which], rng, None)
        return blob, f"save {which}, whole file: {damage}", rng
    values = [(pos, name) for pos, name in opcodes[which] if name in VALUE_OPCODES]
    if roll < 0.6:
        pickled, damage = change_a_value(payloads[which], rng, values)
    else:
        pickled, damage = mutate(payloads[which], rng, [pos for pos, _ in opcodes[which]])
    return wrap(pickled), f"save {which}, payload re-wrapped: {damage}", rng


# --- Playing a loaded game ----------------------------------------------------

KEY_POOL = [
    *keys.MOVE_KEYS, *keys.WAIT_KEYS, *keys.MAIN_KEYS, *keys.CONFIRM_KEYS,
    KeySym.A, KeySym.B, KeySym.C, KeySym.D, KeySym.E, KeySym.Y, KeySym.N, KeySym.TAB,
    KeySym.ESCAPE, KeySym.X, KeySym.F2,
]


def random_event(rng: random.Random) -> tcod.event.Event:
    roll = rng.random()
    x, y = rng.randrange(80), rng.randrange(50)
    point = tcod.event.Point(x + 0.5, y + 0.5)
    if roll < 0.12:
        return tcod.event.MouseMotion(position=point, tile=tcod.event.Point(x, y))
    if roll < 0.18:
        button = rng.choice((MouseButton.LEFT, MouseButton.LEFT, MouseButton.RIGHT))
        return tcod.event.MouseButtonDown(position=point, tile=tcod.event.Point(x, y), button=button)
    mod = rng.choice((Modifier.NONE,) * 6 + (Modifier.LSHIFT, Modifier.LCTRL))
    binding = rng.choice(KEY_POOL)
    if isinstance(binding, str):  # A symbol, typed.
        return tcod.event.TextInput(text=binding)
    return tcod.event.KeyDown(scancode=tcod.event.Scancode.UNKNOWN, sym=binding, mod=mod)


def play(engine: Engine, rng: random.Random) -> None:
    """50 random events through the real handlers (as the main loop sends them), each drawn.

    Quitting saves as the main loop does, and play goes on from the save;
    leaving the game-over screen ends the game.
    """
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    menu = setup_game.MainMenu(engine.settings)
    screens = Screens(menu, next_screen(engine))
    screens.draw(console)
    for _ in range(EVENTS_PER_GAME):
        screens.press(random_event(rng))
        asked, screens.quitting = screens.quitting, None
        if screens.in_menu or (asked is not None and not asked.save):
            return  # The game is over and left.
        if asked is not None:
            in_play = screens.engine_in_play()
            if in_play is not None:
                save_data.save(in_play, paths.save_path())
                screens = Screens(menu, next_screen(save_data.load(paths.save_path())))
        console.clear()
        screens.draw(console)


# --- Children -------------------------------------------------------------------


def in_child(run: Callable[[], dict[str, Any]], memory: int | None) -> dict[str, Any]:
    """`run()` in a forked child, with its address space capped at `memory` more
    than now; what it returned, or how it died."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # The child.
        os.close(reader)
        try:
            if memory is not None:
                size = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
                resource.setrlimit(resource.RLIMIT_AS, (size + memory, size + memory))
            report = run()
        except BaseException:  # Reported, whatever it was.
            report = {"result": "error", "error": traceback.format_exc(limit=8)}
        with os.fdopen(writer, "w") as pipe:
            pipe.write(json.dumps(report))
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "r") as pipe:
        # The child writes once, at its end; its death closes the pipe too.
        ready, _, _ = select.select([pipe], [], [], HANG_SECONDS)
        if not ready:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return {"result": "hang"}
        text = pipe.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return {"result": "crash", "signal": os.WTERMSIG(status)}
    if not text:
        return {"result": "crash", "status": status}
    result: dict[str, Any] = json.loads(text)
    return result


def load_or_refuse(blob: bytes, then: Callable[[Engine], None] | None) -> dict[str, Any]:
    """Load `blob` from the save's place; time it; play on with `then` when it loads."""
    path = paths.save_path()
    path.write_bytes(blob)
    start, cpu, rss = time.perf_counter(), time.process_time(), peak_rss()
    try:
        engine = save_data.load(path)
    except savefile.SaveError as exc:
        return {"result": "refused", "error": type(exc).__name__, "message": str(exc),
                "seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu,
                "memory_growth": peak_rss() - rss}
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    growth = peak_rss() - rss
    # The loaded game passed every check; it must also save and load back.
    save_data.from_data(savefile.loads(savefile.dumps(save_data.to_data(engine), VERSION), VERSION))
    if then is not None:
        then(engine)
    return {"result": "played", "seconds": seconds, "cpu_seconds": cpu, "memory_growth": growth}


# --- Modes ----------------------------------------------------------------------------


def run_fuzz(seed: int, first: int, count: int) -> dict[str, Any]:
    saves = real_saves()
    payloads = [payload_of(blob) for blob in saves]
    opcodes = [
        [(pos, op.name) for op, _, pos in pickletools.genops(p) if pos is not None] for p in payloads
    ]
    results: dict[str, int] = {}
    failures: list[dict[str, Any]] = []
    slowest = most_memory = 0.0
    for number in range(first, first + count):
        blob, damage, rng = fuzz_case(saves, payloads, opcodes, seed, number)

        def case(blob: bytes = blob, rng: random.Random = rng) -> dict[str, Any]:
            return load_or_refuse(blob, lambda engine: play(engine, rng))

        outcome = in_child(case, MEMORY)
        kind = outcome["result"]
        label = kind if kind != "refused" else f"refused: {outcome['error']}"
        results[label] = results.get(label, 0) + 1
        slowest = max(slowest, outcome.get("cpu_seconds", 0.0))
        most_memory = max(most_memory, outcome.get("memory_growth", 0))
        if (
            kind not in ("refused", "played")
            or outcome.get("cpu_seconds", 0.0) > SECONDS
            or outcome.get("memory_growth", 0) > MEMORY
        ):
            failures.append({"case": number, "damage": damage, **outcome})
    return {"cases": count, "results": results, "failures": failures,
            "slowest_load_cpu_seconds": slowest, "most_load_memory": most_memory}


def game_classes() -> dict[str, dict[str, object]]:
    """Every class of the game's modules, with its attributes: a refused file must change none."""
    found = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None) or ""
        if not path.startswith(str(ROOT)) or "tests" in Path(path).relative_to(ROOT).parts:
            continue
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == name:
                found[f"{name}.{value.__qualname__}"] = dict(vars(value))
    return found


class Reducer:
    """Pickles as whatever (callable, arguments, state) it is given."""

    def __init__(self, *reduced: object) -> None:
        self.reduced = reduced

    def __reduce__(self) -> tuple[Any, ...]:
        return self.reduced


def opcodes_then(body: bytes) -> bytes:
    return b"\x80\x04" + body + b"."


def bomb(opcode: bytes, count: int) -> bytes:
    """A list of `count` objects each made by `opcode`: tiny once compressed."""
    return opcodes_then(b"](" + opcode * count + b"e")


def nested_laughs(game: dict[str, Any]) -> bytes:
    """A game whose messages are a list of 1000 references to a list of 1000
    references to ... five deep: 10**12 paths through a few kilobytes."""
    marker = "LAUGHS-GO-HERE"
    data = {key: value for key, value in game.items() if key != "messages"}
    data["messages"] = marker  # Last: no memo reference comes after it.
    pickled = pickle.dumps(data, protocol=4)
    spot = pickled.index(b"\x8c" + bytes([len(marker)]) + marker.encode() + b"\x94")
    base = sum(1 for op, _, pos in pickletools.genops(pickled) if op.name == "MEMOIZE" and (pos or 0) < spot)
    lists = 5
    body = b"]\x94(" * lists + b"NNe"  # Memo base, base+1, ...: the outermost first.
    for inner in range(lists - 1, 0, -1):
        body += (b"j" + struct.pack("<I", base + inner)) * 999 + b"e"
    return wrap(pickled[:spot] + body + pickled[spot + len(marker) + 3 :])


def crafted_corpus() -> dict[str, Callable[[], bytes | None]]:
    """Each attack of issue 11 as a file (None: made on disk by the case itself)."""
    game: dict[str, Any] = save_data.to_data(new_game(3))
    game_body = pickle.dumps(game, protocol=4)[2:-1]  # Pushes the game, no PROTO, no STOP.

    def with_map(**fields: object) -> bytes:
        data = pickle.loads(pickle.dumps(game))
        data["game_map"].update(fields)
        return wrap(pickle.dumps(data, protocol=5))

    structured = np.dtype([("a", "O"), ("b", "i8")])
    cleared = Reducer(np.dtype, ("V16", False, True),
                      (3, "|", None, ("a", "b"), {"a": (np.dtype("O"), 0), "b": (np.dtype("i8"), 8)},
                       16, 1, 0))  # Flags 0: "holds no objects".
    poison = opcodes_then(
        b"\x8c\x12components.fighter\x8c\x07Fighter\x93"  # The class Fighter...
        b"N}\x8c\x0btake_damage\x8c\x04none\x86b"  # ...BUILD (None, {take_damage: ...})
    )
    return {
        "object array": lambda: wrap(pickle.dumps(np.array([1, "x", None], dtype=object), 5)),
        "object array over raw bytes": lambda: wrap(pickle.dumps(
            Reducer(np.frombuffer, (b"\x41" * 16, np.dtype("O"))), 5)),
        "structured dtype holding objects": lambda: wrap(pickle.dumps(np.zeros(2, structured), 5)),
        "structured dtype, object flags cleared": lambda: wrap(pickle.dumps(cleared, 5)),
        "class poisoning by BUILD": lambda: wrap(poison),
        "a real game, then class poisoning": lambda: wrap(
            b"\x80\x04" + game_body + poison[2:-1] + b"\x86."),
        "memo bomb, LONG_BINPUT 2**31": lambda: wrap(opcodes_then(b"Nr\xff\xff\xff\x7f")),
        "memo bomb, BINGET of nothing": lambda: wrap(opcodes_then(b"]\x94j\xff\xff\xff\x7f")),
        "memoize bomb": lambda: wrap(opcodes_then(b"N" + b"\x94" * 4_000_000)),
        "set bomb": lambda: wrap(bomb(b"\x8f", 4_000_000)),
        "list bomb": lambda: wrap(bomb(b"]", 4_000_000)),
        "None bomb": lambda: wrap(bomb(b"N", 4_000_000)),
        "nesting bomb": lambda: wrap(opcodes_then(b"]" * 100_000 + b"a" * 99_999)),
        "tuple nesting bomb": lambda: wrap(opcodes_then(b"N" + b"\x85" * 1_000_000)),
        "a billion laughs in the messages": lambda: nested_laughs(game),
        "entity shared 10,000 times": lambda: wrap(pickle.dumps(
            {**game, "game_map": {**game["game_map"], "entities": game["game_map"]["entities"][:1] * 10_000}}, 5)),
        "huge map, 16000x16000": lambda: with_map(width=16000, height=16000),
        "map bigger than the cap, its tiles there": lambda: with_map(
            width=600, height=600, tiles=b"\x00" * (600 * 600 * 22)),
        "zlib bomb": lambda: wrap(b"\x80\x05" + b"N" * (savefile.MAX_PAYLOAD + 10)),
        "xz bomb (format 7)": lambda: wrap(b"\x80\x05" + b"N" * (savefile.MAX_PAYLOAD + 10), 7),
        "xz asking for a 1.5 GiB dictionary": huge_dictionary,
        "a 100 MB file": lambda: None,
        "FIFO named savegame.sav": lambda: None,
        "savegame.sav linked to /dev/zero": lambda: None,
        "savegame.sav linked to /dev/urandom": lambda: None,
        "a folder named savegame.sav": lambda: None,
        "a recording file out of its folder": lambda: wrap(pickle.dumps(
            {**game, "recording_file": "../../.bashrc"}, 5)),
    }


def huge_dictionary() -> bytes:
    """A save of format 7 (xz) whose xz block says its dictionary is 1.5 GiB (header checksum fixed)."""
    blob = bytearray(wrap(b"\x80\x05N.", 7))
    block = 10 + 12  # Our header, then the xz stream's.
    size = (blob[block] + 1) * 4
    props = blob.index(b"\x21\x01", block + 2, block + size) + 2  # LZMA2, one byte of properties.
    blob[props] = 37  # 1.5 GiB.
    blob[block + size - 4 : block + size] = struct.pack("<I", zlib.crc32(blob[block : block + size - 4]))
    return bytes(blob)


def peak_rss() -> int:
    """The most memory this process has held, in bytes (since the fork, in a child)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def place_special(name: str) -> None:
    path = paths.save_path()
    if name.startswith("FIFO"):
        os.mkfifo(path)
    elif "/dev/" in name:
        os.symlink(name.rsplit(" ", 1)[1], path)
    elif name.startswith("a folder"):
        path.mkdir()
    elif name.startswith("a 100 MB"):
        with path.open("wb") as file:
            file.write(savefile.MAGIC)
            file.truncate(100 << 20)


def run_corpus() -> dict[str, Any]:
    """Each crafted file, loaded from the save's place in a child of its own."""
    path = paths.save_path()
    cases = {}
    for name, make in crafted_corpus().items():

        def case(make: Callable[[], bytes | None] = make, name: str = name) -> dict[str, Any]:
            blob = make()
            if blob is None:
                place_special(name)
            else:
                path.write_bytes(blob)
            before = game_classes()
            rss = peak_rss()
            start, cpu = time.perf_counter(), time.process_time()
            try:
                save_data.load(path)
                outcome: dict[str, Any] = {"result": "loaded"}
            except savefile.SaveError as exc:
                outcome = {"result": "refused", "error": type(exc).__name__, "message": str(exc)}
            outcome["seconds"] = time.perf_counter() - start
            outcome["cpu_seconds"] = time.process_time() - cpu
            outcome["memory_growth"] = peak_rss() - rss
            outcome["classes_unchanged"] = game_classes() == before
            outcome["file_bytes"] = None if blob is None else len(blob)
            return outcome

        cases[name] = in_child(case, MEMORY)
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        elif path.exists() or path.is_symlink():
            path.unlink()
    return cases


def run_kills(seed: int, count: int) -> dict[str, Any]:
    """Kill a saving process `count` times; check the save each time."""
    rng = random.Random(seed)
    old, new = new_game(1), played_game()
    for game in (old, new):  # Each game's save line recorded, as its first save records it.
        save_data.save(game, paths.save_path())
    blobs = {savefile.dumps(save_data.to_data(game), VERSION): name
             for name, game in (("old", old), ("new", new))}
    path = paths.save_path()
    durations = []
    for _ in range(3):
        start = time.perf_counter()
        save_data.save(old, path)
        durations.append(time.perf_counter() - start)
    # Kills land anywhere in the child's first three saves or so.
    window = 3 * sorted(durations)[1]
    found: dict[str, int] = {"old": 0, "new": 0}
    problems: list[str] = []
    temporaries_seen = 0
    for number in range(count):
        pid = os.fork()
        if pid == 0:  # Save the two games in turn, until killed.
            try:
                while True:
                    save_data.save(new, path)
                    save_data.save(old, path)
            finally:
                os._exit(1)
        time.sleep(rng.uniform(0.0, window))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        try:
            which = blobs.get(path.read_bytes())
        except OSError as exc:
            which = None
            problems.append(f"kill {number}: {exc}")
        if which is None:
            problems.append(f"kill {number}: the save is neither the old one nor the new one")
        else:
            found[which] += 1
            save_data.load(path)
        backup = savefile.backup_path(path)
        if backup.exists() and backup.read_bytes() not in blobs:
            problems.append(f"kill {number}: the backup is not whole")
        temporaries_seen += any(p.name.endswith(".tmp") for p in path.parent.iterdir())
    save_data.save(old, path)
    left = sorted(p.name for p in path.parent.iterdir() if p.name.endswith(".tmp"))
    return {"kills": count, "found": found, "problems": problems, "window_seconds": window,
            "kills_leaving_a_temporary": temporaries_seen, "temporaries_after_a_save": left}


if __name__ == "__main__":
    mode, *arguments = sys.argv[1:]
    numbers = [int(argument) for argument in arguments]
    if mode == "fuzz":
        report = run_fuzz(*numbers)
    elif mode == "corpus":
        report = run_corpus()
    elif mode == "kill":
        report = run_kills(*numbers)
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(json.dumps(report))
