"""The round structure as a state machine (`combat diagram segments-1e`).

set-up -> surprise check (once) -> surprise segments -> then every round:
declare actions -> group initiative -> fast actions (parley, flee, charge, go first) ->
multi-attack creatures in melee take their first routine -> HIGH group -> LOW group ->
remaining multi-attack routines -> spells resolved by casting time -> end of round.
A spell goes off in whichever step the timeline reaches its segment (segments.spell_due);
the spells step resolves those going off after the round's last turn.
"""

from __future__ import annotations

from combat.kernel.phases import PhaseTable, Step

__all__ = ["PHASES", "TURN_PHASES", "ACTION_PHASES", "NEXT_STEP"]

SETUP, SURPRISE, SURPRISE_SEGMENTS = "setup", "surprise", "surprise_segments"
DECLARE, INITIATIVE = "declare", "initiative"
FAST, FIRST_ROUTINES, HIGH, LOW, REST_ROUTINES, SPELLS = (
    "fast_actions",
    "multi_attacks",
    "high",
    "low",
    "multi_attacks_rest",
    "spells",
)
END_OF_ROUND, ENDED = "end_of_round", "ended"

ACTION_PHASES = (FAST, FIRST_ROUTINES, HIGH, LOW, REST_ROUTINES, SPELLS)
TURN_PHASES = (SURPRISE_SEGMENTS, *ACTION_PHASES)
ALL = (SETUP, SURPRISE, SURPRISE_SEGMENTS, DECLARE, INITIATIVE, *ACTION_PHASES, END_OF_ROUND, ENDED)
FIGHTING = ALL[1:-1]

# The automatic step that leaves each turn phase once nobody is left to act in it.
NEXT_STEP = {
    FAST: "fast_actions_done",
    FIRST_ROUTINES: "first_routines_done",
    HIGH: "high_done",
    LOW: "low_done",
    REST_ROUTINES: "routines_done",
    SPELLS: "spells_done",
}
_ORDER = list(ACTION_PHASES) + [END_OF_ROUND]

RULINGS = (
    "damage",
    "heal",
    "apply_condition",
    "remove_condition",
    "saving_throw",
    "start_concentration",
    "end_concentration",
    "check_morale",
)

PHASES = PhaseTable(
    "segments-1e",
    ALL,
    [
        Step("add_creature", (SETUP,)),
        Step("describe_battlefield", (SETUP,)),
        Step("begin_combat", (SETUP,), SURPRISE),
        Step("check_surprise", (SURPRISE,)),
        Step("surprise_checked", (SURPRISE,), SURPRISE_SEGMENTS, automatic=True),
        Step("round_begins", (SURPRISE, SURPRISE_SEGMENTS, END_OF_ROUND), DECLARE, automatic=True),
        Step("declare_round_action", (DECLARE,)),
        Step("close_declarations", (DECLARE,), INITIATIVE),
        Step("roll_group_d6", (INITIATIVE,)),
        Step("groups_set", (INITIATIVE,), FAST, automatic=True),
        *(Step(NEXT_STEP[p], (p,), _ORDER[i + 1], automatic=True) for i, p in enumerate(ACTION_PHASES)),
        Step("routine_attack", (SURPRISE_SEGMENTS, FAST, FIRST_ROUTINES, HIGH, LOW, REST_ROUTINES)),
        Step("move_to", (SURPRISE_SEGMENTS, FAST, HIGH, LOW)),
        Step("minor_action", TURN_PHASES[:-1]),
        Step("immediate_action", TURN_PHASES),
        Step("major_action", (SURPRISE_SEGMENTS, FAST, HIGH, LOW)),
        Step("announce_delay", (HIGH, LOW)),
        Step("begin_casting", (SURPRISE_SEGMENTS, HIGH, LOW)),
        Step("forgo_spell", (HIGH, LOW)),
        # A spell goes off in time order with the other turns (segments.spell_due).
        Step("resolve_spell", TURN_PHASES),
        Step("free_attack", TURN_PHASES),
        Step("open_free_attack", TURN_PHASES),
        Step("immediate_attack", ACTION_PHASES),
        Step("end_turn", TURN_PHASES),
        *(Step(name, FIGHTING) for name in RULINGS),
        Step("ruling", ALL),
        Step("end_combat", FIGHTING, ENDED),
        Step("side_defeated", FIGHTING, ENDED, automatic=True),
    ],
    initial=SETUP,
)
