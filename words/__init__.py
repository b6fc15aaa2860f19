"""What the player reads: how a name is written (`grammar`), and what monsters,
items and the stairs are, told from their numbers (`descriptions`)."""
