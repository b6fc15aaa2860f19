"""Every game is a recording: its text format and file (`recording`), playing
one back in the window or headless (`replay`), and getting a game back from
its recording after a crash (`recovery`); and games to share: the daily game
(`daily`), a finished game's score checked by its recording (`verify`), and a
game watched while it is played (`follow`)."""
