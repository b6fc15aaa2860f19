"""Hand-made mutants of `travel.py`: does the suite notice when the walks break?

    python tools/travel_mutants.py [TEST ...]

Each mutant changes one line of `travel.py` in a copy of the project (a flag
never set, a comparison turned, a check skipped), runs the walk tests there
(`tests/test_travel.py` unless others are given) and says whether they
failed ("killed") or passed ("survived").  A survivor is a behaviour no test
pins, or a line that does nothing.  The project itself is never touched.
Exit status 1 when any survives.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent

# Each mutant: (the text in travel.py, what it becomes).
MUTANTS: Final = {
    "explore's 'nothing left' said at every step": (
        "            self.finished = True  # Said once, as the walk turns to the stairs.\n",
        "            pass\n",
    ),
    "explore's 'nothing left' never said": ("        if not self.finished:\n", "        if self.finished:\n"),
    "explore starts finished": ("        self.finished = False\n", "        self.finished = True\n"),
    "'your pack is full' said at every step": ("                self.said_full = True\n", "                pass\n"),
    "'your pack is full' never said": ("            if not self.said_full:\n", "            if self.said_full:\n"),
    "a full pack one item late": (
        "len(inventory.items) >= inventory.capacity",
        "len(inventory.items) > inventory.capacity",
    ),
    "a full pack still gathers": (
        "                engine.message_log.add_message(FULL)\n            return []\n",
        "                engine.message_log.add_message(FULL)\n            return items\n",
    ),
    "gathering stops for items": ("self.stops_for_items = not gather", "self.stops_for_items = gather"),
    "a monster in view is no news": (
        "        if monsters:\n            return comes_into_view",
        "        if False:\n            return comes_into_view",
    ),
    "no harm is hurt": ("if engine.player.fighter.hp < self.hp:", "if engine.player.fighter.hp <= self.hp:"),
    "items seen always news": ("for item in game_map.items if self.items else []:", "for item in game_map.items:"),
    "the stairs seen no news": ("        if newly_seen[game_map.downstairs_location]:\n", "        if False:\n"),
    "dropped items gathered": (
        "if explored[item.x, item.y] and not item.dropped_by_player",
        "if explored[item.x, item.y]",
    ),
    "nothing picked up underfoot": (
        "            if (item.x, item.y) == (player.x, player.y):\n                return PICK_UP\n",
        "            if False:\n                return PICK_UP\n",
    ),
    "gathering stops on items": (
        "        if not self.gather:\n            return underfoot(engine)\n",
        "        if self.gather:\n            return underfoot(engine)\n",
    ),
    "a hurt counted from the walk's start": (
        "        reason = self._compare(engine)\n        self.hp = engine.player.fighter.hp\n",
        "        reason = self._compare(engine)\n",
    ),
    "news seen told again": ("        self.explored = game_map.explored.copy()\n        return reason\n", "        return reason\n"),
    "a run ignores a side opening": (
        "        if not first and sides != self.sides:\n",
        "        if not first and sides[0] != self.sides[0]:\n",
    ),
}


def killed(copy: Path, source: str, old: str, new: str, tests: list[str]) -> bool:
    """Whether the tests fail with `old` turned into `new` in the copy's travel.py."""
    if source.count(old) != 1:
        raise SystemExit(f"travel_mutants.py: {old!r} is not once in travel.py: update the mutant")
    (copy / "controls" / "travel.py").write_text(source.replace(old, new))
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests]
    return subprocess.run(command, cwd=copy, capture_output=True, check=False).returncode != 0


def main(tests: list[str]) -> int:
    source = (ROOT / "controls" / "travel.py").read_text()
    survivors = 0
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "game"
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", "build", "dist", "__pycache__"))
        for name, (old, new) in MUTANTS.items():
            dead = killed(copy, source, old, new, tests)
            survivors += not dead
            print(f"{'killed  ' if dead else 'SURVIVED'} {name}", flush=True)
    print(f"{len(MUTANTS) - survivors} of {len(MUTANTS)} mutants killed")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["tests/test_travel.py"]))
