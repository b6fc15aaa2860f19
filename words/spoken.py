"""A line as a screen reader should say it: words where the window shows symbols.

Readers at their default settings spell out parentheses, semicolons and dashes
("left paren x2 right paren") and skip or mangle a key shown as a lone symbol
("Press ? for help" is heard as "Press for help").  The window keeps its
symbols; the screen reader (`words.reading`) says every line through `spoken`,
so each rule below is written once for every screen and message.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from words.descriptions import EQUIPPED
from words.grammar import capitalized

# A key shown as a lone symbol, by the name a player would say.
KEY_NAMES: Final = {
    "?": "question mark",
    ";": "semicolon",
    ":": "colon",
    "/": "slash",
    ">": "greater than",
    "<": "less than",
    "=": "equals",
    "+": "plus",
    "-": "minus",
    "_": "underscore",
    "@": "at",
    ".": "period",
    "&": "ampersand",
}


def times(count: int) -> str:
    """How often a message happened: "twice", "3 times"."""
    return "twice" if count == 2 else f"{count} times"


def repeated(match: re.Match[str]) -> str:
    """A count after a sentence is how often it happened ("Hit, twice."); after a
    name, how many there are ("Health Potion, 3 of them")."""
    end, count = match[1], int(match[2])
    return f", {times(count)}{end}" if end else f", {count} of them"


def aside(match: re.Match[str]) -> str:
    """Words in parentheses: a sentence of their own after a sentence, else after a comma."""
    before, words = match[1], match[2]
    if not before:
        return words
    if before[-1] in ".!?":
        return f"{before} {capitalized(words)}."
    return f"{before}, {words}"


WORD: Final = re.compile(r"[A-Za-z]{2}")

Rule = tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]

# In order: each rule reads the line as the ones before left it.
RULES: Final[list[Rule]] = [
    (re.compile(r"([.!?]?) \(x(\d+)\)"), repeated),  # "Hit. (x2)", "Health Potion (x3)"
    (re.compile(r"^\(?(\w)\) "), r"\1, "),  # An inventory's or a choice's letter: "(a) ", "a) "
    (re.compile(rf" {re.escape(EQUIPPED)}"), ", equipped"),
    (re.compile(r"^(\w) - "), r"\1, "),  # A pick-up's letter: "b - a Health Potion"
    (re.compile(r"(\d+)/(\d+)"), r"\1 of \2"),  # "HP: 30/30"
    (re.compile(r"(?<![/\w.-])([A-Za-z]+)/([A-Za-z]+)(?![/\w.-])"), r"\1 or \2"),  # "(y/n)", not a path
    (re.compile(r"(?<=\w)\+(?=\w)"), " "),  # "Shift+Tab"
    (re.compile(r"; "), ", "),
    (re.compile(r"(^|.*?)\s*\(([^()]*)\)"), aside),
    (
        re.compile(rf"(?<!\S)({'|'.join(map(re.escape, KEY_NAMES))})(?=[,:]?(?:\s|$))"),
        lambda match: KEY_NAMES[match[1]],
    ),
]


def spoken(line: str) -> str:
    """The line with its symbols in words: "(a) Dagger (E)" as "a, Dagger, equipped",
    "Press ? for help." as "Press question mark for help.".  A line with no word in
    it, a row of the map in signs, is left as it is: it is for a braille display."""
    if not WORD.search(line):
        return line
    for pattern, replacement in RULES:
        line = pattern.sub(replacement, line)
    return line
