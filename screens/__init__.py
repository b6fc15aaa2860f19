"""Screens beyond the tutorial's (help, options, popups, the hall of fame) and
how a game ends: the game-over screen, the death, the morgue file."""
