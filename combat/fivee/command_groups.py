"""Groups of the shared rules' commands, by when a ruleset's phase table allows them (re-exported
by combat.fivee, where the rulesets read them)."""

from __future__ import annotations

__all__ = ["GM_TURN_COMMANDS", "RULING_COMMANDS", "ANYTIME_COMMANDS"]

# The commands of the shared rules each ruleset's phase table places: the GM's moves during
# a turn, the rulings (allowed wherever the ruleset lets the GM rule), and what the GM edits
# or calls for whenever the fight is not over.
GM_TURN_COMMANDS = ("roll_damage", "grant_action", "goto_turn", "previous_turn")
RULING_COMMANDS = (
    "damage",
    "heal",
    "grant_temp_hp",
    "apply_condition",
    "remove_condition",
    "start_concentration",
    "end_concentration",
    "concentration_save",
    "saving_throw",
    "judge_save",
    "save_effect",
)
ANYTIME_COMMANDS = ("set_hp", "change_stat_block", "ability_check", "contest")
