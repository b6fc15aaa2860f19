"""Every game is a recording: its lines' format (`record_format`), its file, written as
the game plays (`recording`) and read back (`record_reader`), the keys and
options it was played by (`rules`), its lines played through the real screens
(`replay_lines`), playing one back in the window or headless (`replay`), playing on
from a replay as one's own game (`take_over`), and getting a game back from its
recording after a crash (`recovery`); and games to share: the daily game (`daily`),
a finished game's score checked by its recording (`verify`), and a game watched
while it is played (`follow`)."""
