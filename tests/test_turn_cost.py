"""tools/turn_cost.py and the bench's start-up counts: what they read from callgrind's dumps and
what they write into docs/performance.md (no measuring here: that takes valgrind minutes)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import doc_section  # noqa: E402
import turn_cost  # noqa: E402
from test_bench import load_bench  # noqa: E402

PAGE = ROOT / "docs" / "performance.md"


def dump(trigger: str, total: int) -> str:
    """One of callgrind's dump files, as it writes them."""
    return (
        f"version: 1\ncmd: python turn_cost.py\npart: 1\n\ndesc: I1 cache:\ndesc: Trigger: {trigger}\n"
        f"\npositions: line\nevents: Ir\nsummary: {total}\n\n\ntotals: {total}\n"
    )


def test_only_the_stretches_between_a_warm_up_and_the_next_os_times_are_counted() -> None:
    """Start-up and each warm-up (the 1st, 3rd ... stretch) are in no figure."""
    totals = [10_000_000, 400, 5_000, 600, 5_000, 200, 5_000, 8_000]
    dumps = [dump("--dump-before=times", total) for total in totals]
    assert turn_cost.counted(dumps) == [400, 600, 200, 8_000]
    with pytest.raises(ValueError, match=r"not made at os\.times"):
        turn_cost.counted([*dumps[:-1], dump("Program termination", 8_000)])
    with pytest.raises(ValueError, match="7 dumps"):
        turn_cost.counted(dumps[:-1])


def test_the_table_gives_each_median_with_the_runs_spread_and_the_ratio_run_by_run(tmp_path: Path) -> None:
    ours = {operation: [90.0, 100.0, 95.0] for operation in turn_cost.OPERATIONS}
    theirs = {operation: [100.0, 100.0, 100.0] for operation in turn_cost.OPERATIONS}
    text = turn_cost.section(ours, theirs, 200, "abc1234", "2026-11-29")
    assert "| wait | 100 (100 to 100) | 95 (90 to 100) | 0.95x (0.90 to 1.00x) |" in text
    assert "commit abc1234" in text and "median of 3 runs" in text
    page = tmp_path / "performance.md"
    tool = "tools/turn_cost.py"
    page.write_text(f"before\n{doc_section.marked(turn_cost.SECTION, tool, 'old')}\nafter\n", encoding="utf-8")
    turn_cost.write(page, text)
    assert page.read_text(encoding="utf-8") == f"before\n{doc_section.marked(turn_cost.SECTION, tool, text)}\nafter\n"


def test_the_start_up_table_gives_medians_spreads_and_ratios(tmp_path: Path) -> None:
    bench = load_bench()
    counts = bench.StartupCounts(
        game_frame=[1_066_000_000, 1_070_000_000, 1_068_000_000],
        game_ready=[1_145_000_000, 1_150_000_000, 1_146_000_000],
        floor_frame=[999_000_000] * 3,
        floor_ready=[999_000_000] * 3,
    )
    text = bench.startup_section(counts, "abc1234", "2026-11-29")
    assert "| ready for the first key | 999 M | 1,146 M (1,145 to 1,150) | 1.147x (1.146 to 1.151x)" in text
    assert "| first frame presented | 999 M | 1,068 M (1,066 to 1,070) | 1.069x (1.067 to 1.071x) |" in text
    page = tmp_path / "performance.md"
    page.write_text(f"before\n{doc_section.marked('start-up', 'tools/bench.py', 'old')}\nafter\n", encoding="utf-8")
    bench.write(page, text)
    assert page.read_text(encoding="utf-8") == f"before\n{doc_section.marked('start-up', 'tools/bench.py', text)}\nafter\n"


def test_the_whole_benchs_report_is_copied_as_printed(tmp_path: Path) -> None:
    bench = load_bench()
    text = bench.report_section("CPU: x (2 cores)\nfigure  measured", "abc1234", "2026-11-29")
    assert text == (
        "Its last run, `python tools/bench.py --write` on 2026-11-29, this game at commit "
        "abc1234:\n\n```text\nCPU: x (2 cores)\nfigure  measured\n```\n"
    )
    page = tmp_path / "performance.md"
    start_up = doc_section.marked("start-up", "tools/bench.py", "start-up")
    page.write_text(f"{start_up}\n{doc_section.marked('bench', 'tools/bench.py', 'old')}\n", encoding="utf-8")
    bench.write(page, text, "bench")
    assert page.read_text(encoding="utf-8") == f"{start_up}\n{doc_section.marked('bench', 'tools/bench.py', text)}\n"


@pytest.mark.parametrize("tool", ["turn_cost", "bench --startup", "bench"])
def test_performance_md_holds_the_tables_the_tools_wrote(tool: str) -> None:
    """The figures are the tools' own: each table sits in its tool's section, with rows."""
    name = {"turn_cost": "turn cost", "bench --startup": "start-up", "bench": "bench"}[tool]
    found = [section for section in doc_section.sections(PAGE.read_text(encoding="utf-8")) if section.name == name]
    assert len(found) == 1
    section = found[0].text
    if tool == "bench":
        assert "`python tools/bench.py --write`" in section and "start-up, instructions" in section
    else:
        assert "Made by `python tools/" in section and section.count("\n| ") >= 3
