"""What the game keeps on disk: the data folder and every file's name in it
(`paths`), files written whole and never through a link (`safe_io`), one game
per folder (`game_lock`), and the save itself (`savefile`, `save_data`,
`autosave`)."""
