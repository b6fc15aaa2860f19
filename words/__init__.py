"""What the player reads: how a name is written (`grammar`); what monsters, items,
the stairs and the character are, told from their numbers (`descriptions`); the
answers to the player's questions (`questions`); what `q`, `r` and `w` ask (`verbs`);
how a game ended (`game_over`); each screen and the game's news as lines of text, for
the screen reader and any front end that speaks or prints (`reading`); and the program's
own name (`program`)."""
