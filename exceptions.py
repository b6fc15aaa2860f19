"""Exceptions that steer the game rather than report bugs."""


class Impossible(Exception):
    """Raised when an action can't be performed; its message says why, and no turn passes."""


class QuitWithoutSaving(SystemExit):
    """Raised by a front end that can show nothing more (a terminal gone, its save failed
    once already): the main loop ends without saving.  Screens never raise it: they
    return `Quit(save=False)`."""
