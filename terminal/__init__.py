"""Playing in a terminal (`python main.py --terminal`), over SSH too: the window's
80x50 console drawn with ANSI escapes, only what changed (`drawing`), in a terminal of
fewer rows the rows that matter, the map following the player (`view`); the bytes
the keys send turned into the events the window gives (`key_parser`); the
terminal itself, put in raw mode and always given back (`device`, `posix`,
`windows`), opened for a game and given back (`session`); the front end the main
loop draws to and reads from (`front_end`);
and, for a screen reader (`--screen-reader`), the game as lines of text
(`screen_reader`: what `words.reading` says of each screen and of the game's news).

Imported only when `--terminal` is given: a window's start-up pays nothing for it.
"""
