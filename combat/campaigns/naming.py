"""Whether a command names a stored character, to be filled in from its campaign: its own
module so that the application asks it without loading the campaigns' store."""

from __future__ import annotations

from combat.fivee.characters import AddCharacter

__all__ = ["names_a_stored_character"]


def names_a_stored_character(command: object) -> bool:
    """`add_character` naming a character of the campaign, to be filled in before it is decided."""
    return isinstance(command, AddCharacter) and isinstance(command.character, str)
