#!/usr/bin/env python3
"""Measure what a blind player hears, from the real screen reader's test, and keep the
figures in the player's guide.

    python tools/orca_figures.py                      # run tests/test_orca.py, then write
    python tools/orca_figures.py --transcript FILE    # write from a transcript kept before

tests/test_orca.py plays its routes in xfce4-terminal under Orca (`ORCA_TEST_TRANSCRIPT`
keeps each press as a JSON line: its route, key, kind, what the game wrote, what Orca
read, what espeak-ng was given after speech-dispatcher's symbol rules, the verdict and the
symbols spelled out that the game didn't mean).  This tool counts, per kind of key, the
presses heard whole, partly or not at all, and the symbols spelled per 100 presses, and
puts the table between docs/playing.md's `orca:start` and `orca:end` markers.
`ORCA_TEST_FLOORS` (in the environment) plays deeper, for a longer measure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parent.parent
PAGE: Final = ROOT / "docs" / "playing.md"
START: Final = "<!-- orca:start: made by tools/orca_figures.py; do not edit -->\n"
END: Final = "<!-- orca:end -->"
KINDS: Final = ("letters", "symbols", "arrows", "numpad", "Escape", "Enter", "Tab", "Space")
VERDICTS: Final = ("whole", "partly", "silent")


def transcript_of_test(floors: str | None) -> list[dict[str, Any]]:
    """The presses of a run of tests/test_orca.py, which must pass."""
    with tempfile.TemporaryDirectory() as folder:
        kept = Path(folder) / "presses.jsonl"
        env = {**os.environ, "ORCA_TEST_TRANSCRIPT": str(kept)}
        if floors is not None:
            env["ORCA_TEST_FLOORS"] = floors
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_orca.py"]
        subprocess.run(command, cwd=ROOT, env=env, check=True)
        return read(kept)


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def table(presses: list[dict[str, Any]]) -> str:
    """The figures as Markdown: a row per kind of key, then the totals and symbols spelled."""
    counts = {verdict: Counter(press["kind"] for press in presses if press["verdict"] == verdict) for verdict in VERDICTS}
    rows = ["| keys | presses | heard whole | partly | silent |", "| --- | --- | --- | --- | --- |"]
    for kind in KINDS:
        found = [counts[verdict][kind] for verdict in VERDICTS]
        rows.append(f"| {kind} | {sum(found)} | {' | '.join(map(str, found))} |")
    totals = [sum(counts[verdict].values()) for verdict in VERDICTS]
    rows.append(f"| all | {len(presses)} | {' | '.join(map(str, totals))} |")
    spelled = Counter(name for press in presses for name in press["spelled"])
    routes = Counter(press["route"] for press in presses)
    said = ", ".join(f"{count} {name}" for name, count in spelled.most_common()) or "none"
    return "\n".join([
        f"Measured on {len(presses)} presses ({'; '.join(f'{n} in {route}' for route, n in routes.items())}):",
        "",
        *rows,
        "",
        f"Symbols spelled out that the game didn't mean: {sum(spelled.values())} "
        f"({100 * sum(spelled.values()) / max(1, len(presses)):.1f} per 100 presses; {said}).",
    ])


def between(page: str, text: str) -> str:
    """The page with `text` between its markers."""
    head, start, rest = page.partition(START)
    _, end, tail = rest.partition(END)
    assert start and end, f"{PAGE} has no {START.strip()} ... {END} markers"
    return f"{head}{START}{text}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transcript", type=Path, help="a transcript kept by ORCA_TEST_TRANSCRIPT")
    args = parser.parse_args(argv)
    presses = read(args.transcript) if args.transcript else transcript_of_test(os.environ.get("ORCA_TEST_FLOORS"))
    figures = table(presses)
    PAGE.write_text(between(PAGE.read_text(), figures))
    print(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
