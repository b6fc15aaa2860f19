"""Exceptions that steer the game rather than report bugs."""


class Impossible(Exception):
    """Raised when an action can't be performed; its message says why, and no turn passes."""


class QuitWithoutSaving(SystemExit):
    """Can be raised to exit the game without automatically saving."""


class BackToMainMenu(Exception):
    """Raised to leave a finished game for the main menu (see `window.loop.handle_event`)."""
