"""The one home of how messages say names: every message says them alike."""

from __future__ import annotations

import pytest

from words.grammar import capitalized, counted, listed, plural, with_article


@pytest.mark.parametrize(
    ("name", "said"),
    [("Orc", "an Orc"), ("Troll", "a Troll"), ("orc", "an orc"), ("Health Potion", "a Health Potion"),
     ("Iron Sword", "an Iron Sword"), ("", "a ")],
)
def test_a_or_an_goes_by_the_first_letter(name: str, said: str) -> None:
    assert with_article(name) == said


def test_capitalized_keeps_the_rest_as_it_was() -> None:
    assert capitalized("an Orc comes into view.") == "An Orc comes into view."
    assert capitalized("") == ""


@pytest.mark.parametrize(("count", "said"), [(0, "0 turns"), (1, "1 turn"), (2, "2 turns")])
def test_one_is_singular_any_other_count_plural(count: int, said: str) -> None:
    assert counted(count, "turn") == said
    assert plural("Orc", count) == ("Orc" if count == 1 else "Orcs")


def test_listed_counts_and_joins_names_in_first_seen_order() -> None:
    assert listed([]) == "nothing"
    assert listed(["Orc"]) == "an Orc"
    assert listed(["Orc", "Troll", "Orc"]) == "2 Orcs and a Troll"
    assert listed(["Troll", "Orc", "Rat"]) == "a Troll, an Orc and a Rat"
