"""Playing in a terminal (`python main.py --terminal`), over SSH too: the window's
80x50 console drawn with ANSI escapes, only what changed (`drawing`); the bytes
the keys send turned into the events the window gives (`key_parser`); the
terminal put in raw mode and always given back (`posix`, `windows`); and the
front end the main loop draws to and reads from (`front_end`).

Imported only when `--terminal` is given: a window's start-up pays nothing for it.
"""
