"""The screens the tutorial never had, and the death story: how a game ended
(`game_over`), the morgue file and the hall of fame."""
