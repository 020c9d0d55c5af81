"""Whether a command names a stored character, to be filled in from its campaign: its own
module so that the application asks it without loading the campaigns' store."""

from __future__ import annotations

from combat.fivee.characters import AddCharacter, characters_of
from combat.kernel.state import EncounterState

__all__ = ["names_a_stored_character", "carries_characters"]


def names_a_stored_character(command: object) -> bool:
    """`add_character` naming a character of the campaign, to be filled in before it is decided."""
    return isinstance(command, AddCharacter) and isinstance(command.character, str)


def carries_characters(state: EncounterState) -> bool:
    """Does a fight hold a stored character (so that a write to it has something to carry)?"""
    return any(s.character is not None for s in characters_of(state).sheets.values())
