"""The symbols a screen reader spells out in a line, read from speech-dispatcher's own
rules (its `symbols.dic`, NVDA's table) at Orca's default punctuation level.

Orca (settings.py: `verbalizePunctuationStyle = PUNCTUATION_STYLE_MOST`) hands each
line to speech-dispatcher at punctuation level "most", which replaces every symbol
whose level is none, some or most by its name before espeak-ng says it: "HP: 30"
is heard "HP colon 30", a sentence's full stop is not (level all).  As in NVDA, the
table's complex symbols (a full stop ending a sentence, a colon ending a phrase) are
tried first at each place in the line, then the longest plain symbol.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

SYMBOLS: Final = Path("/usr/share/speech-dispatcher/locale/en/symbols.dic")
LEVELS: Final = ("none", "some", "most", "all", "char")
ORCA_LEVEL: Final = "most"
# Symbols the game means, said as the word it wants: "25% HP" is "25 percent HP".
MEANT: Final = frozenset({"%"})
ESCAPES: Final = {"\\#": "#", "\\\\": "\\", "\\0": "\0", "\\t": "\t", "\\n": "\n", "\\f": "\f", "\\r": "\r"}


@dataclass(frozen=True)
class Symbol:
    """A row of the table: the name it is said as, from which level on."""

    name: str
    level: str


@dataclass(frozen=True)
class Table:
    """The table as one pattern (complex symbols, each its own group, then the plain
    ones, longest first) and each symbol's row, by group name or by text."""

    pattern: re.Pattern[str]
    complex: dict[str, Symbol]
    plain: dict[str, Symbol]

    def names(self, level: str = ORCA_LEVEL) -> list[str]:
        """The names of the symbols said at `level` (a word or two: "colon", "left bracket"),
        longest first, those of the game's own symbols (`MEANT`) left out."""
        heard = LEVELS.index(level)
        rows = [*self.complex.values(), *(row for symbol, row in self.plain.items() if symbol not in MEANT)]
        said = {row.name for row in rows if row.name.strip() and LEVELS.index(row.level) <= heard}
        return sorted(said, key=len, reverse=True)

    def spelled(self, line: str, level: str = ORCA_LEVEL) -> list[str]:
        """The symbols of `line` said by name at `level`, as "colon" or "left bracket"."""
        heard = LEVELS.index(level)
        names = []
        for match in self.pattern.finditer(line):
            group = match.lastgroup
            symbol = self.complex[group] if group and group != "plain" else self.plain[match[0]]
            if match[0] in MEANT or not symbol.name or LEVELS.index(symbol.level) > heard:
                continue
            names.append(symbol.name)
        return names


def unescaped(text: str) -> str:
    """A symbol as the table writes it (`\\#` for #, `\\t` for a tab) as itself."""
    return ESCAPES.get(text, text)


def parsed(text: str) -> Table:
    """The table in `text`: its `complexSymbols:` rows (identifier, regexp), then its
    `symbols:` rows (identifier, name, level, preserve); a missing level is all."""
    regexps: dict[str, str] = {}
    rows: dict[str, Symbol] = {}
    section = ""
    for line in text.lstrip("\ufeff").splitlines():
        if not line or line.startswith("#"):
            continue
        if line in ("complexSymbols:", "symbols:"):
            section = line
            continue
        fields = line.split("\t")
        if section == "complexSymbols:":
            regexps[fields[0]] = fields[1]
        elif section == "symbols:" and len(fields) > 1:
            level = fields[2] if len(fields) > 2 and fields[2] in LEVELS else "all"
            rows[unescaped(fields[0])] = Symbol(fields[1], level)
    groups = {f"complex{index}": identifier for index, identifier in enumerate(regexps)}
    plain = {symbol: row for symbol, row in rows.items() if symbol not in regexps and symbol.strip()}
    alternatives = [f"(?P<{group}>{regexps[identifier]})" for group, identifier in groups.items()]
    alternatives.append(f"(?P<plain>{'|'.join(map(re.escape, sorted(plain, key=len, reverse=True)))})")
    complex_rows = {group: rows.get(identifier, Symbol("", "all")) for group, identifier in groups.items()}
    return Table(re.compile("|".join(alternatives)), complex_rows, plain)


def table(path: Path = SYMBOLS) -> Table | None:
    """speech-dispatcher's English table, or None where it is not installed."""
    return parsed(path.read_text(encoding="utf-8")) if path.is_file() else None
