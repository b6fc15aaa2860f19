"""Every game is a recording: its text format and file (`recording`), playing
one back in the window or headless (`replay`), and getting a game back from
its recording after a crash (`recovery`)."""
