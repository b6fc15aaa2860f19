"""tools/bench.py: it runs from any folder, prints every figure, leaves nothing behind."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "tools" / "bench.py"


def load_bench() -> ModuleType:
    """tools/bench.py as a module (tools/ is not a package)."""
    if "bench" not in sys.modules:
        spec = importlib.util.spec_from_file_location("bench", BENCH)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["bench"] = module  # Its dataclasses look themselves up here.
        spec.loader.exec_module(module)
    return sys.modules["bench"]


LATENCY = r"p50 \d+\.\d\d ms, p99 \d+\.\d\d ms, max \d+\.\d\d ms \((?:key|text) \S+(?: \w+)* on \w+\)"


def test_quick_benchmark_prints_every_figure(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick"],
        cwd=tmp_path,  # Runs from any folder.
        capture_output=True,
        text=True,
        timeout=900,  # A hang guard: a busy machine takes minutes (start-up under valgrind too).
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert re.search(r"^CPU: .+ \(\d+ cores\)$", out, re.MULTILINE)
    # The scripted game took the stairs at least once.
    own = rf"the game's own work, CPU\s+{LATENCY}; \d+ over 8\.3 ms\s+max < 8\.3 ms\s+(?:ok|MISS)"  # No time asserted.
    game = re.search(
        rf"^key press to frame, scripted game \(\d+ presses, \d+ games?, floors 1-(\d+)\), {own}",
        out,
        re.MULTILINE,
    )
    assert game is not None and int(game[1]) >= 2, out
    assert re.search(rf"^key press to frame, 40 monsters awake \(\d+ presses\), {own}", out, re.MULTILINE), out
    spread = r"p50 \d+\.\d\d ms, p99 \d+\.\d\d ms, max \d+\.\d\d ms"
    for label in ("SDL presenting the frame", "key press to frame, wall clock", "CPU time of the same",
                  "after the frame: syncs and autosave, wall clock"):
        assert len(re.findall(rf"^  {label}\s+{spread}\s", out, re.MULTILINE)) == 2, (label, out)
    # What a key press writes is synced after its frame: no answer waits for the disk.
    disk = rf"^  waiting for the disk within the answer\s+{spread}; 0 presses synced\s+no sync\s+ok$"
    assert len(re.findall(disk, out, re.MULTILINE)) == 2, out
    walk = r"path of a walk's step, exploring 80x43 \(\d+ steps\), CPU\s+p50 \d+\.\d\d ms"
    assert re.search(rf"^{walk}", out, re.MULTILINE), out
    # Start-up in instructions (when valgrind is there) and in CPU time, each next to the floor's.
    ratio = r"\d+\.\d\dx the floor"
    target = re.escape(f"< {load_bench().START_RATIO}x")
    # A median, and the least and greatest of the runs where they differ.
    counts = r"[\d,]+ M(?: \([\d,]+ to [\d,]+\))?"
    runs = r"\d\.\d{3}x the floor \(\d\.\d{3} to \d\.\d{3}x\)"
    assert re.search(
        rf"^start-up, instructions to the first frame\s+{counts}, {runs}\s+-\n"
        rf"start-up, instructions until ready for a key\s+{counts}, {runs}\s+{target}\s+(?:ok|MISS)\n"
        rf"  the floor's, to its frame and until ready\s+{counts}, {counts}\s+-$"
        r"|^start-up, instructions\s+not measured: no valgrind$",
        out,
        re.MULTILINE,
    ), out
    for label, value in [
        (r"start-up, CPU until ready for a key \(python main\.py\)", rf"\d+\.\d{{3}} s, {ratio}\s+{target}"),
        (r"  the floor: numpy, tcod, tile sheet, 80x50 window, the menu's picture", r"\d+\.\d{3} s"),
        (r'  bare python -c "import tcod"', r"\d+\.\d{3} s"),
        (r"idle CPU at the menu", r"(\d+\.\d %|not measured: no Xvfb)"),
        (r"peak memory, a game on floor 10", r"\d+\.\d MiB"),
        (r'  bare python -c "import tcod"', r"\d+\.\d MiB"),
    ]:
        assert re.search(rf"^{label}\s+{value}", out, re.MULTILINE), (label, out)
    assert list(tmp_path.iterdir()) == []  # Nothing left behind.


def test_p99_is_the_sample_below_which_99_percent_lie() -> None:
    bench = load_bench()

    assert bench.percentiles([n / 1000 for n in range(100, 0, -1)]) == (50.5, 99.0, 100.0)
    assert bench.percentiles([0.002] * 99 + [0.1]) == (2.0, 2.0, 100.0)
    assert bench.percentiles([0.002] * 98 + [0.1] * 2) == (2.0, 100.0, 100.0)


def test_a_crowd_is_40_monsters_all_in_view() -> None:
    bench = load_bench()
    engine = bench.crowd_engine()
    game_map = engine.game_map
    awake = [
        actor
        for actor in game_map.actors
        if actor is not engine.player and game_map.visible[actor.x, actor.y]
    ]
    assert len(awake) == 40


def test_start_up_counts_sum_callgrinds_dumps_to_the_first_present_and_the_first_wait(tmp_path: Path) -> None:
    """Each dump of callgrind counts from the one before: the first frame is the
    sum up to the first present, ready the sum up to the first wait for events."""
    bench = load_bench()
    out = tmp_path / "callgrind.out"
    for part, (trigger, count) in enumerate(
        [("--dump-after=TCOD_context_present", 100), ("--dump-after=TCOD_context_present", 50),
         ("--dump-before=SDL_WaitEvent", 7), ("--dump-before=SDL_WaitEventTimeoutNS", 1000)],
        start=1,
    ):
        out.with_name(f"{out.name}.{part}").write_text(
            f"version: 1\ncmd: python main.py\npart: {part}\n\ndesc: I1 cache:\ndesc: Trigger: {trigger}\n"
            f"\npositions: line\nevents: Ir\nsummary: {count}\n\n\ntotals: {count}\n"
        )
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as process:
        try:
            assert bench._counted_to_wait(out, process) == (100, 157)
        finally:
            process.kill()
