"""What the player presses and what it means: the key tables (`keys`), the
player's own keys file (`key_file`), the help made from them (`key_help`),
walks (`travel`, and the walk under way: `walking`), autofight (`autofight`),
and aiming (`targeting`, `blast`)."""
