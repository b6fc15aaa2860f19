"""docs/performance.md's figures are written by the tools that measure them.

Each figure sits in a section its tool wrote (`tools/doc_section.py`): the section's
digest is that of what the tool wrote, so a figure edited by hand fails here; outside the
sections the page quotes no measured figure, only the targets the bench holds the game to.
The figures that are the same at every run (the key presses a floor, the terminal's
bytes) are measured again here: a change to the game that moves them fails until the tool
writes them again.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import doc_section  # noqa: E402

PAGE = ROOT / "docs" / "performance.md"
# Each section of the page, and the tool that writes it.
SECTIONS = {
    "bench": "tools/bench.py",
    "turn cost": "tools/turn_cost.py",
    "start-up": "tools/bench.py",
    "key presses": "tools/key_presses.py",
    "terminal bytes": "tools/terminal_bytes.py",
    "save time": "tools/save_time.py",
    "recovery time": "tools/recovery_time.py",
    "share time": "tools/share_time.py",
}
# A measured figure: a number and its unit.
FIGURE = re.compile(r"\b\d[\d,.]*\s?(?:ms|s|KB|MB|MiB|B|M|%|x|bytes|instructions|events a second)(?![\w])")
# The targets the page names outside the sections: each is the bench's (its report's
# `target` column, or its constants), not a measurement.
TARGETS = {"8.3 ms", "2 ms", "1.2x"}


def page_sections() -> list[doc_section.Section]:
    return doc_section.sections(PAGE.read_text(encoding="utf-8"))


def test_each_section_is_there_once_from_its_tool_and_not_edited_by_hand() -> None:
    found = page_sections()
    assert sorted(section.name for section in found) == sorted(SECTIONS)
    for section in found:
        assert section.tool == SECTIONS[section.name]
        assert (ROOT / section.tool).exists()
        assert "--write" in (ROOT / section.tool).read_text(encoding="utf-8")
        assert not section.edited(), f"the section '{section.name}' was edited by hand: run {section.tool} --write"
        assert "this game at commit " in section.text


def test_the_browser_pages_load_figures_are_their_tools_not_edited_by_hand() -> None:
    """docs/browser.md's figures under load, one server's and a cluster's, are written the same
    way (`tools/web_load.py --write`, `tools/cluster_load.py --write`)."""
    page = (ROOT / "docs" / "browser.md").read_text(encoding="utf-8")
    found = {section.name: section for section in doc_section.sections(page)}
    assert {name: section.tool for name, section in found.items()} == {
        "load figures": "tools/web_load.py",
        "cluster figures": "tools/cluster_load.py",
    }
    for section in found.values():
        assert not section.edited(), f"the section '{section.name}' was edited by hand: run {section.tool} --write"


def test_a_figure_edited_by_hand_is_told(tmp_path: Path) -> None:
    page = tmp_path / "performance.md"
    page.write_text("before\n" + doc_section.marked("key presses", "tools/key_presses.py", "x\n") + "\nafter\n")
    doc_section.write("key presses", "tools/key_presses.py", "| clearing floor 1 | 396 |\n", page)
    assert not any(section.edited() for section in doc_section.sections(page.read_text()))
    page.write_text(page.read_text().replace("396", "296"))
    assert [section.edited() for section in doc_section.sections(page.read_text())] == [True]
    assert page.read_text().startswith("before\n") and page.read_text().endswith("\nafter\n")


def test_outside_its_sections_the_page_quotes_no_measured_figure() -> None:
    outside = doc_section.outside(PAGE.read_text(encoding="utf-8"))
    quoted = {match.group() for match in FIGURE.finditer(outside)}
    assert quoted <= TARGETS, f"figures no tool wrote: {sorted(quoted - TARGETS)}"


def test_the_bench_says_in_words_each_target_its_run_missed() -> None:
    from test_bench import load_bench

    bench = load_bench()
    rows = [bench.Row("start-up, CPU", "0.400 s", "< 1.2x", True), bench.Row("idle CPU", "0.0 %", "< 0.5 %", False)]
    assert bench.verdict(rows) == "Targets missed in this run: start-up, CPU."
    assert bench.verdict(rows[1:]) == "Every target met in this run."
    page = next(section for section in page_sections() if section.name == "bench")
    assert "Every target met" not in page.text or " MISS\n" not in page.text


def section_text(name: str) -> str:
    return next(section.text for section in page_sections() if section.name == name)


def test_the_terminal_bytes_written_are_todays() -> None:
    import terminal_bytes

    text = section_text("terminal bytes")
    for rows in (50, 24):
        table = text.split(f"In a terminal of {rows} rows:", 1)[1]
        for row in terminal_bytes.byte_rows(terminal_bytes.measured(rows)):
            assert row in table, f"stale: run python tools/terminal_bytes.py --write ({row})"


@pytest.mark.parametrize("strategy", ["clear", "dive"])
def test_the_key_presses_on_floor_1_written_are_todays(strategy: str, in_tmp: Path) -> None:
    import key_presses

    played = next(s for s in key_presses.STRATEGIES if s.name == strategy)
    medians = [f"{summary.median:.0f}" for summary in key_presses.report(played, key_presses.SEEDS, 1).values()]
    label = "clearing floor 1" if strategy == "clear" else "diving floor 1"
    row = f"| {label} | " + " | ".join(medians) + " |"
    assert row in section_text("key presses"), f"stale: run python tools/key_presses.py --write ({row})"
