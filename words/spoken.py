"""A line as a screen reader should say it: words where the window shows symbols.

Readers at their default punctuation level (Orca's "most") spell out parentheses,
brackets, colons between words, slashes, dashes and a number's sign ("left paren
x2 right paren", "HP colon 30", "slash tmp slash options dot txt") and skip or
mangle a key shown as a lone symbol ("Press ? for help" is heard as "Press for
help").  The window keeps its symbols; the screen reader (`words.reading`) says
every line through `spoken`, so each rule below is written once for every screen
and message (tests/test_heard.py checks them against speech-dispatcher's table).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path, PurePath, PureWindowsPath
from typing import Final

from saving import paths
from words.descriptions import EQUIPPED, FILES_WIDTH
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
        return f"{before} {capitalized(words)}{'' if words[-1:] in ('.', '!', '?') else '.'}"
    return f"{before}, {words}"


def separator(match: re.Match[str]) -> str:
    """A colon ending a phrase, which readers say ("HP colon 30"): a full stop before
    a capital or at the line's end ("In view."), else a comma ("HP, 30 of 30")."""
    return "." if not match[1] or match[1].isupper() else ","


MONTHS: Final = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


def date(match: re.Match[str]) -> str:
    """A date as written in the hall of fame ("2026-11-29"), said "29 November 2026"
    (readers say the dashes)."""
    year, month, day = (int(part) for part in match.groups())
    return f"{day} {MONTHS[month - 1]} {year}" if 1 <= month <= 12 else f"{year} {month} {day}"


def clock(match: re.Match[str]) -> str:
    """A time of day ("06:11"), said "6 11" (readers say the colon)."""
    hours, minutes = int(match[1]), match[2]
    return f"{hours} o'clock" if minutes == "00" else f"{hours} {minutes}"


# A file's kind by its ending, said as words: "options.txt" is "the options text file".
FILE_KINDS: Final = {"txt": "text", "rec": "recording", "png": "picture", "sav": "save", "json": "JSON"}
# A file's name alone: "growing.rec".
FILE_NAME: Final = re.compile(rf"(?<![\w.])[\w-]+\.(?:{'|'.join(FILE_KINDS)})\b")
# A path: a run of signs from the root ("/", "C:\\") or with a file's ending
# ("morgue/morgue-1.txt"), holding a slash or a backslash and a letter.
PATH: Final = re.compile(
    r"(?<!\S)(?=\S*[A-Za-z])(?=\S*[\\/])(?:(?:[\\/]|[A-Za-z]:\\)\S*|\S*\.[A-Za-z]+)(?<![.,;:!?])"
)


def named(name: str) -> str:
    """A file's or folder's name as words: "morgue-1.txt" as "morgue 1 text file"."""
    stem, dot, kind = name.rpartition(".")
    if not dot or not stem:
        return " ".join(re.split(r"[-_.\s]+", name))
    return f"{named(stem)} {FILE_KINDS.get(kind.lower(), ' '.join(kind))} file"


def folder(path: PurePath) -> str:
    """Where `path` is, in words: the player's data folder and the folders in it by name."""
    try:
        inside = (path.resolve() if isinstance(path, Path) else path).relative_to(paths.data_dir().resolve())
    except (ValueError, OSError, RuntimeError):
        return f"the {named(path.name)} folder" if path.name else "a folder"  # Not the data folder's.
    if inside == Path():
        return "your data folder"
    return " of ".join([*(f"the {named(part)} folder" for part in reversed(inside.parts)), "your data folder"])


def in_words(match: re.Match[str]) -> str:
    """A path as words: readers spell it ("slash tmp slash options dot txt"), so the
    folder is named in words ("your data folder") and the file by its name."""
    path: PurePath = PureWindowsPath(match[0]) if "\\" in match[0] else Path(match[0])
    if "." not in path.name:
        return folder(path)
    return f"the {named(path.name)} in {folder(path.parent)}"


def data_folder_part(line: str) -> str | None:
    """A line that is a piece of the data folder's path as the character screen cuts
    it (`FILES_WIDTH`): the first piece said as the folder, the others as nothing;
    None for any other line."""
    whole = paths.shown(paths.data_dir().resolve())
    pieces = [whole[start : start + FILES_WIDTH] for start in range(0, len(whole), FILES_WIDTH)]
    if line not in pieces:
        return None
    return "your data folder" if line == pieces[0] else ""


WORD: Final = re.compile(r"[A-Za-z]{2}")

Rule = tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]

# In order: each rule reads the line as the ones before left it.
RULES: Final[list[Rule]] = [
    (re.compile(r"([.!?]?) \(x(\d+)\)"), repeated),  # "Hit. (x2)", "Health Potion (x3)"
    (re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"), date),  # "2026-11-29", the hall of fame's
    (re.compile(r"\b(\d{1,2}):(\d{2})\b"), clock),  # "06:11"
    (re.compile(r"^[(\[]?(\w)[)\]] "), r"\1, "),  # A choice's letter: "(a) ", "a) ", "[N] "
    (re.compile(rf" {re.escape(EQUIPPED)}"), ", equipped"),
    (re.compile(r"^(\w) - "), r"\1, "),  # A pick-up's letter: "b - a Health Potion"
    (re.compile(r"(\d+)/(\d+)"), r"\1 of \2"),  # "HP: 30/30"
    (re.compile(r"(?<=\w)/s\b"), " a second"),  # "4 events/s"
    (re.compile(r"(?<!\S)\+/-(?!\S*\w)"), "plus or minus"),  # A replay's keys: "+/-: speed"
    (re.compile(r"(?<![/\w.-])([A-Za-z]+)/([A-Za-z]+)(?![/\w.-])"), r"\1 or \2"),  # "(y/n)", not a path
    (PATH, in_words),  # "Kept in /home/me/.local/share/tombs/options.txt"
    (FILE_NAME, lambda match: f"the {named(match[0])}"),  # "Following growing.rec."
    (re.compile(r"\bCtrl\+(?=\w)"), "Control "),  # "Ctrl+B", which a voice may say letter by letter
    (re.compile(r"(?<=\w)\+(?=\w)"), " "),  # "Shift+Tab"
    (re.compile(r"; "), ", "),
    (re.compile(r"(^|.*?)\s*\(([^()]*)\)"), aside),
    (
        re.compile(rf"(?<!\S)({'|'.join(map(re.escape, KEY_NAMES))})(?=[,:]?(?:\s|$))"),
        lambda match: KEY_NAMES[match[1]],
    ),
    (re.compile(r"(?<!\w)\+(\d+) (?=\w)"), r"\1 more "),  # "+2 power"
    (re.compile(r"(?<!\w)-(\d+) (?=\w)"), r"\1 less "),  # "-1 defense"
    (re.compile(r"(?<=[A-Za-z])-(?=[A-Za-z])"), " "),  # "colour-blind"
    (re.compile(r":(?=$| (\S?))"), separator),  # "In view:", "HP: 30", "colon: Where you are"
]


def spoken(line: str) -> str:
    """The line with its symbols in words: "(a) Dagger (E)" as "a, Dagger, equipped",
    "Press ? for help." as "Press question mark for help.".  A line with no word in
    it, a row of the map in signs, is left as it is: it is for a braille display."""
    if not WORD.search(line):
        return line
    part = data_folder_part(line)
    if part is not None:
        return part
    for pattern, replacement in RULES:
        line = pattern.sub(replacement, line)
    return line
