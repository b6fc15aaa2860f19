"""How messages say names: a capital first letter, "a" or "an", plurals; one home
for each, so every message says them alike."""

from __future__ import annotations


def capitalized(text: str) -> str:
    """The text with its first letter upper case, the rest as it was
    (`str.capitalize` would make "Health Potion" "Health potion")."""
    return text[:1].upper() + text[1:]


def with_article(name: str) -> str:
    """The name with "a" or "an" before it, as a message says it: "an Orc", "a Troll"."""
    article = "an" if name[:1].lower() in ("a", "e", "i", "o", "u") else "a"
    return f"{article} {name}"


def plural(noun: str, count: int) -> str:
    """The noun for `count` of it: "Orc" for one, "Orcs" for any other count."""
    return noun if count == 1 else f"{noun}s"


def counted(count: int, noun: str) -> str:
    """A count and its noun: "1 turn", "3 turns"."""
    return f"{count} {plural(noun, count)}"


def listed(names: list[str]) -> str:
    """Names counted and joined as a sentence says them, in first-seen order:
    "an Orc", "2 Orcs and a Troll", "nothing" for none."""
    counts = dict.fromkeys(names, 0)
    for name in names:
        counts[name] += 1
    words = [with_article(name) if count == 1 else counted(count, name) for name, count in counts.items()]
    if not words:
        return "nothing"
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
