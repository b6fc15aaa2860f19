"""The sections of docs/performance.md that the tools write (`--write`), and nothing else.

A section is its tool's output between two markers:

    <!-- NAME: made by TOOL; do not edit; sha256 DIGEST -->
    ...what the tool wrote...
    <!-- end NAME -->

DIGEST is the first 16 hex digits of the SHA-256 of what the tool wrote, so that a figure
edited by hand no longer matches it (`tests/test_performance_page.py` checks every section,
and that the page quotes no figure outside them).  Each tool writes its own sections in
place, leaving the rest of the page as it is.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path
from typing import Final, NamedTuple

ROOT: Final = Path(__file__).resolve().parent.parent
PAGE: Final = ROOT / "docs" / "performance.md"
_MARKED: Final = re.compile(
    r"<!-- (?P<name>[a-z0-9 -]+): made by (?P<tool>[^;>]+); do not edit; sha256 (?P<digest>[0-9a-f]{16}) -->\n"
    r"(?P<text>.*?)<!-- end (?P=name) -->",
    re.DOTALL,
)


class Section(NamedTuple):
    """One section as the page holds it."""

    name: str
    tool: str
    digest: str
    text: str

    def edited(self) -> bool:
        """Whether its text is no longer what its tool wrote (its digest differs)."""
        return digest(self.text) != self.digest


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def marked(name: str, tool: str, text: str) -> str:
    """`text` between its markers, as the page holds it."""
    text = text if text.endswith("\n") else text + "\n"
    return f"<!-- {name}: made by {tool}; do not edit; sha256 {digest(text)} -->\n{text}<!-- end {name} -->"


def sections(page: str) -> list[Section]:
    """Every section of the text of a page, in order."""
    return [Section(m["name"], m["tool"], m["digest"], m["text"]) for m in _MARKED.finditer(page)]


def outside(page: str) -> str:
    """The text of a page without its sections."""
    return _MARKED.sub("", page)


def write(name: str, tool: str, text: str, page: Path = PAGE) -> None:
    """Put `text` in place of the section `name` of `page` (it must be there)."""
    old = page.read_text(encoding="utf-8")
    found = [m for m in _MARKED.finditer(old) if m["name"] == name]
    if len(found) != 1:
        raise SystemExit(f"{page}: no one section '{name}' to write in (<!-- {name}: made by ... -->)")
    match = found[0]
    page.write_text(old[: match.start()] + marked(name, tool, text) + old[match.end() :], encoding="utf-8")


class Printed:
    """A tool's report, printed a line at a time and kept, for `report` to write."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, line: str) -> None:
        print(line)
        self.lines.append(line)


def report(command: str, lines: list[str]) -> str:
    """A section's text that holds a tool's printed report as it printed it, saying when,
    on which commit, and how busy the machine was (its times move with that)."""
    import datetime
    import os

    return (
        f"Made by `{command}` on {datetime.date.today().isoformat()}, this game at commit {commit()} "
        f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} as it ended):\n\n"
        "```text\n" + "".join(line + "\n" for line in lines) + "```\n"
    )


def commit() -> str:
    """The tree's commit, short, as a section names it."""
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout.strip() or "unknown"
