"""What the game keeps on disk: the data folder and every file's name in it
(`paths`), files written whole and never through a link (`safe_io`), one game per
folder (`game_lock`); the save itself (`savefile`, its fields declared once:
`save_fields`, older formats: `save_data`); what a death leaves (`death`: the
`morgue` file, the `hall_of_fame`); and what the main loop writes after each frame
(`effects`, with the game's own saves: `autosave`)."""
