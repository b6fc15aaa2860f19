"""The popup when the game could not be saved on quitting."""

from __future__ import annotations

import tcod

from controls.key_help import key_name
from controls.keys import COMMAND_HELP, SAVE_FAILED_KEYS, Command
from screens.base import Pop, PopupMessage, Quit, Transition, Unchanged


class SaveFailedPopup(PopupMessage):
    """Say why the game could not be saved on quitting, and let the player choose.

    The window stays open meanwhile, so nothing is lost unless the player says so.
    """

    def __init__(self, reason: str):
        choices = "   ".join(
            f"[{key_name(key)}] {COMMAND_HELP[command]}" for key, command in SAVE_FAILED_KEYS.items()
        )
        super().__init__(f"The game could not be saved:\n{reason}\n\n{choices}")
        names = [key_name(key) for key in SAVE_FAILED_KEYS]
        self.answers = Unchanged(f"Answer {', '.join(names[:-1])} or {names[-1]}.")

    def ev_keydown(self, event: tcod.event.KeyDown) -> Transition | None:
        match SAVE_FAILED_KEYS.get(event.sym):
            case Command.RETRY_SAVE:
                return Quit()  # The main loop saves on it, as on any quit.
            case Command.QUIT_WITHOUT_SAVING:
                return Quit(save=False)
            case Command.RESUME:
                return Pop()
        return self.answers

    def ev_textinput(self, event: tcod.event.TextInput) -> Unchanged:
        """Only the choices' keys answer: a symbol names them again."""
        return self.answers

    def ev_mousebuttondown(self, event: tcod.event.MouseButtonDown) -> None:
        """Nor does a click: the choice is the player's to make."""
