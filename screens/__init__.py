"""Screens: what every screen is and returns (`base`: what it shows, `Content`, and
what happens next, `Push`, `Pop`, ...), the stack of them the main loop owns and a
key press's one path through it (`stack`), and the screens beyond the tutorial's
(`input_handlers` holds those): answers beside the map (`answer`), questions
(`question`), the help, the options, the history, the hall of fame, and the popup
when saving failed."""
