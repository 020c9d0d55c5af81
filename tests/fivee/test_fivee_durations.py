"""Lasting effects: a condition that lasts some rounds, one held by concentration, and one shaken
off by a save repeated at the end of each of the target's turns (combat/common/durations.py).

SRD 5.2, Combat: "A round represents about 6 seconds", so "1 minute" is 10 rounds.
Hold Person (Spell.json): "Duration: Concentration, up to 1 minute. ... The target must succeed
on a Wisdom saving throw or have the Paralyzed condition for the duration. At the end of each of
its turns, the target repeats the save, ending the spell on itself on a success."

Aria (initiative 20) and Bram (5) against a Goblin Warrior from the bestiary (10 + 2 = 12): its
Wisdom is 8, so its Wisdom saves add -1.
"""

from __future__ import annotations

from datetime import UTC

import msgspec
import pytest

from combat.common.commands import ApplyCondition, ConcentrationSave, Damage, EndConcentration, StartConcentration
from combat.common.events import ConcentrationEnded, SaveMade
from combat.fivee.monsters import AddCreature
from combat.fivee.turn_pointer import GotoTurn, PreviousTurn
from combat.kernel.commands import EndTurn
from combat.kernel.condition_words import lasting_words
from combat.kernel.events import ConditionEnded, ConditionSpec, DiceRolled, TurnStarted
from projections.state import state_view
from tests.helpers import Table, of_type, pc

GOBLIN = "goblin-warrior"
FIVE_E = ("srd-2024", "srd-2024-variant", "a5e")


def _fight(ruleset: str = "srd-2024") -> Table:
    """Aria, the Goblin Warrior, Bram, in that order; round 1, Aria's turn."""
    t = Table.as_rolled(ruleset)
    t.add(pc("aria"), pc("bram"))
    t.do(AddCreature(creature="Goblin Warrior", side="goblins"))
    t.start({"aria": 20, GOBLIN: 10, "bram": 5})
    assert (t.state.round, t.state.turn) == (1, "aria")
    return t


def _condition(name: str, **fields: object) -> ConditionSpec:
    return msgspec.convert({"name": name, **fields}, ConditionSpec)


def _round(t: Table, save_faces: tuple[tuple[int, ...], ...] = ()) -> list:
    """Aria, the goblin and Bram end their turns: the next round starts with Aria's. Returns
    the events of the last end_turn (the one that starts the next round)."""
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant=GOBLIN, save_faces=save_faces))
    return t.do(EndTurn(combatant="bram"))


def _hold_person(t: Table, **extra: object) -> None:
    """Aria casts Hold Person on her turn; the goblin fails its first save (the GM applies it)."""
    t.do(StartConcentration(combatant="aria", effect="Hold Person"))
    spec = {"source": "aria", "concentration": "aria", "rounds": 10, "save": {"ability": "wis", "dc": 13}, **extra}
    t.do(ApplyCondition(target=GOBLIN, condition=_condition("paralyzed", **spec)))


# -- for some rounds -------------------------------------------------------------------------


def test_a_condition_for_1_minute_ends_as_its_sources_turn_starts_ten_rounds_later():
    """Applied by Aria on her turn in round 1, "1 minute" (10 rounds) ends as her turn starts in
    round 11, by a ConditionEnded in the command that starts it, before that turn starts."""
    t = _fight()
    t.do(ApplyCondition(target=GOBLIN, condition=_condition("frightened", source="aria", rounds=10)))
    [held] = t[GOBLIN].conditions
    assert (held.ends, held.ends_on, held.rounds, held.until_round) == ("start", "aria", 10, 11)
    for _ in range(9):
        events = _round(t)
        assert not of_type(events, ConditionEnded) and t[GOBLIN].has("frightened")
    assert t.state.round == 10
    events = _round(t)
    [ended] = of_type(events, ConditionEnded)
    assert ended.target == GOBLIN and ended.condition == "frightened"
    assert ended.reason == "10 rounds are up: start of Aria's turn, round 11"
    started = of_type(events, TurnStarted)[-1]
    assert events.index(ended) < events.index(started) and started.round == 11 and started.combatant == "aria"
    assert not t[GOBLIN].has("frightened")
    assert t.rebuilt() == t.state


def test_rounds_counted_on_another_creatures_turn_run_to_the_named_creatures_turn_in_round_r_plus_n():
    """Applied on Bram's turn in round 1 for 2 rounds, ending on Aria's turn: it ends as her turn
    starts in round 3. Ending at the end of her turn (`ends: end`) runs to the end of it."""
    t = _fight()
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant=GOBLIN))
    t.do(ApplyCondition(target=GOBLIN, condition=_condition("poisoned", ends_on="aria", rounds=2)))
    t.do(ApplyCondition(target=GOBLIN, condition=_condition("blinded", ends_on="aria", ends="end", rounds=2)))
    t.do(EndTurn(combatant="bram"))  # round 2: Aria's turn
    _round(t)  # round 3 starts
    assert t.state.round == 3 and not t[GOBLIN].has("poisoned") and t[GOBLIN].has("blinded")
    [ended] = of_type(t.do(EndTurn(combatant="aria")), ConditionEnded)
    assert ended.condition == "blinded"
    assert t.rebuilt() == t.state


def test_moving_the_turn_back_does_not_end_a_counted_condition_early():
    """previous_turn into round 1 again: the condition counted to round 2 is still there."""
    t = _fight()
    t.do(ApplyCondition(target=GOBLIN, condition=_condition("frightened", source="aria", rounds=1)))
    _round(t)
    assert t.state.round == 2 and not t[GOBLIN].has("frightened")
    t2 = _fight()
    t2.do(EndTurn(combatant="aria"))
    t2.do(ApplyCondition(target=GOBLIN, condition=_condition("frightened", ends_on="aria", rounds=1)))
    t2.do(PreviousTurn())  # Aria's turn again, round 1: not the start of round 2
    assert t2[GOBLIN].has("frightened")


def test_bad_rounds_are_refused():
    t = _fight()
    t.rejects(ApplyCondition(target=GOBLIN, condition=_condition("frightened", source="aria", rounds=0)), "condition/rounds")
    error = t.rejects(
        ApplyCondition(target=GOBLIN, condition=_condition("frightened", source="a trap", rounds=10)), "condition/duration"
    )
    assert "ends_on" in error.allowed
    t.rejects(
        ApplyCondition(target=GOBLIN, condition=_condition("frightened", ends_on="aria", rounds=2, until_round=2)),
        "condition/until-round",
    )
    t.rejects(
        ApplyCondition(target=GOBLIN, condition=_condition("frightened", ends_on="aria", ends="end of next turn", rounds=2)),
        "condition/rounds",
    )
    t.rejects(ApplyCondition(target=GOBLIN, condition=_condition("frightened", ends_on="nobody", rounds=2)), "combatant/unknown")


# -- until the spell ends (concentration) -------------------------------------------------------


def test_a_condition_held_by_concentration_ends_when_the_concentration_is_ended():
    t = _fight()
    _hold_person(t)
    events = t.do(EndConcentration(combatant="aria"))
    [stopped] = of_type(events, ConcentrationEnded)
    [ended] = of_type(events, ConditionEnded)
    assert events.index(stopped) < events.index(ended)
    assert (ended.target, ended.condition, ended.reason) == (GOBLIN, "paralyzed", "Aria's concentration on Hold Person ended")
    assert not t[GOBLIN].conditions
    assert t.rebuilt() == t.state


def test_a_failed_concentration_save_after_damage_ends_the_condition_it_held():
    """Aria takes 10 damage: DC 10 Constitution save, +2; a 3 fails (5), and the goblin is free."""
    t = _fight()
    _hold_person(t)
    t.do(Damage(target="aria", damage_type="slashing", amount=10))
    assert t[GOBLIN].has("paralyzed")
    events = t.do(ConcentrationSave(combatant="aria", faces=(3,)))
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["paralyzed"]
    assert not t[GOBLIN].has("paralyzed")
    assert t.rebuilt() == t.state


def test_concentrating_on_something_else_or_falling_unconscious_ends_it_too():
    t = _fight()
    _hold_person(t)
    events = t.do(StartConcentration(combatant="aria", effect="Bless"))
    assert of_type(events, ConditionEnded) and not t[GOBLIN].conditions
    _hold_person(t)
    events = t.do(Damage(target="aria", damage_type="slashing", amount=20))  # 0 HP: Unconscious
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["paralyzed"]
    assert t.rebuilt() == t.state


def test_only_the_condition_held_by_the_ended_concentration_ends():
    """Two Paralyzed, one held by Aria, one by Bram: Aria's ending leaves Bram's, the very entry."""
    t = _fight()
    _hold_person(t)
    t.do(StartConcentration(combatant="bram", effect="Hold Person"))
    t.do(ApplyCondition(target=GOBLIN, condition=_condition("paralyzed", concentration="bram")))
    [ended] = of_type(t.do(EndConcentration(combatant="aria")), ConditionEnded)
    assert ended.entry is not msgspec.UNSET and ended.entry.concentration == "aria"
    [left] = t[GOBLIN].conditions
    assert left.concentration == "bram" and left.effect == "Hold Person"
    assert t.rebuilt() == t.state


def test_a_condition_tied_to_no_concentration_is_refused():
    t = _fight()
    error = t.rejects(
        ApplyCondition(target=GOBLIN, condition=_condition("paralyzed", concentration="aria")), "condition/not-concentrating"
    )
    assert "start_concentration" in error.allowed
    t.do(StartConcentration(combatant="aria", effect="Bless"))
    error = t.rejects(
        ApplyCondition(target=GOBLIN, condition=_condition("paralyzed", concentration="aria", effect="Hold Person")),
        "condition/not-concentrating",
    )
    assert error.allowed == "effect: Bless"
    t.rejects(ApplyCondition(target=GOBLIN, condition=_condition("paralyzed", effect="Bless")), "condition/effect-alone")


# -- a save repeated at the end of each of its turns --------------------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_hold_person_a_failed_repeated_save_keeps_it_and_a_success_ends_it(ruleset):
    """The goblin's Wisdom save adds -1 (WIS 8): a 13 is 12, a failure; a 14 is 13, a success."""
    t = _fight(ruleset)
    _hold_person(t)
    [held] = t[GOBLIN].conditions
    assert held.save is not msgspec.UNSET and (held.save.ability, held.save.dc) == ("wisdom", 13)
    assert (held.concentration, held.effect, held.until_round) == ("aria", "Hold Person", 11)
    t.do(EndTurn(combatant="aria"))
    events = t.do(EndTurn(combatant=GOBLIN, save_faces=((13,),)))
    [save] = of_type(events, SaveMade)
    assert (save.combatant, save.ability, save.dc, save.total, save.success) == (GOBLIN, "wisdom", 13, 12, False)
    assert not of_type(events, ConditionEnded) and t[GOBLIN].has("paralyzed")
    t.do(EndTurn(combatant="bram"))
    t.do(EndTurn(combatant="aria"))
    events = t.do(EndTurn(combatant=GOBLIN, save_faces=((14,),)))
    [save] = of_type(events, SaveMade)
    [ended] = of_type(events, ConditionEnded)
    assert save.success and save.total == 13 and events.index(save) < events.index(ended)
    assert ended.reason == "succeeded on the repeated wisdom save"
    assert not t[GOBLIN].conditions and t["aria"].concentration == "Hold Person"  # the spell ends on the goblin alone
    assert t.rebuilt() == t.state


def test_the_repeated_save_is_rolled_from_the_seed_when_no_faces_are_entered():
    t = _fight()
    _hold_person(t)
    t.do(EndTurn(combatant="aria"))
    events = t.do(EndTurn(combatant=GOBLIN))
    [roll] = [e for e in of_type(events, DiceRolled) if e.purpose == "wisdom save"]
    assert roll.source == "generated" and roll.roller == GOBLIN
    assert t.rebuilt() == t.state


def test_a_paralyzed_creature_fails_a_repeated_strength_save_without_a_roll():
    """Paralyzed: "You automatically fail Strength and Dexterity saving throws"; dice are refused."""
    t = _fight()
    _hold_person(t, save={"ability": "str", "dc": 13})
    t.do(EndTurn(combatant="aria"))
    t.rejects(EndTurn(combatant=GOBLIN, save_faces=((20,),)), "dice/unused-faces")
    events = t.do(EndTurn(combatant=GOBLIN))
    [save] = of_type(events, SaveMade)
    assert not save.success and "automatically fails: paralyzed" in save.reason and not of_type(events, DiceRolled)
    assert t[GOBLIN].has("paralyzed")


def test_goto_turn_ends_the_turn_with_its_repeated_save_and_previous_turn_without():
    t = _fight()
    _hold_person(t)
    t.do(EndTurn(combatant="aria"))
    events = t.do(PreviousTurn())  # the goblin's turn taken back: no save
    assert not of_type(events, SaveMade)
    t.do(GotoTurn(combatant=GOBLIN))
    [save] = of_type(t.do(GotoTurn(combatant="bram", save_faces=((20,),))), SaveMade)
    assert save.success and not t[GOBLIN].conditions
    assert t.rebuilt() == t.state


def test_save_faces_beyond_the_saves_owed_are_refused():
    t = _fight()
    t.rejects(EndTurn(combatant="aria", save_faces=((10,),)), "dice/unused-faces")
    _hold_person(t)
    t.do(EndTurn(combatant="aria"))
    error = t.rejects(EndTurn(combatant=GOBLIN, save_faces=((10,), (11,))), "dice/unused-faces")
    assert "paralyzed" in error.allowed


def test_a_bad_repeated_save_is_refused():
    t = _fight()
    t.do(StartConcentration(combatant="aria", effect="Hold Person"))
    t.rejects(
        ApplyCondition(target=GOBLIN, condition=_condition("paralyzed", save={"ability": "luck", "dc": 13})), "save/ability"
    )
    t.rejects(
        ApplyCondition(target=GOBLIN, condition=_condition("paralyzed", save={"ability": "wis", "dc": 0})), "condition/save-dc"
    )


def test_the_state_shows_what_ends_a_condition_and_old_conditions_read_as_they_did():
    t = _fight()
    t.do(ApplyCondition(target="bram", condition=_condition("prone", source="shove")))
    _hold_person(t)
    view = state_view(t.state)["combatants"]
    assert view["bram"]["conditions"] == [{"name": "prone", "source": "shove", "ends": None, "ends_on": None}]
    assert view[GOBLIN]["conditions"] == [
        {
            "name": "paralyzed",
            "source": "aria",
            "ends": "start",
            "ends_on": "aria",
            "rounds": 10,
            "until_round": 11,
            "concentration": "aria",
            "effect": "Hold Person",
            "save": {"ability": "wisdom", "dc": 13},
        }
    ]
    [held] = t[GOBLIN].conditions
    assert lasting_words(held, lambda cid: t[cid].name) == (
        "until the start of Aria's turn 10 rounds on (round 11), while Aria concentrates on Hold Person, "
        "repeating a DC 13 Wisdom save at the end of each of its turns"
    )


def test_a_hidden_condition_held_twice_is_not_named_to_a_viewer_when_one_ends():
    """The entry a ConditionEnded names is the condition itself: a viewer sees neither."""
    import uuid
    from datetime import datetime
    from types import SimpleNamespace

    from combat.kernel.records import Recorded
    from projections.redaction import HIDDEN_CONDITION, Redaction

    t = _fight()
    t.do(StartConcentration(combatant="aria", effect="Hold Person"))
    t.do(ApplyCondition(target=GOBLIN, condition=_condition("poisoned", hidden=True, source="a trap")))
    t.do(ApplyCondition(target=GOBLIN, condition=_condition("poisoned", hidden=True, concentration="aria")))
    redaction = Redaction(t.state, SimpleNamespace(role="viewer", combatants=frozenset()))
    ending = t.do(EndConcentration(combatant="aria"))
    assert of_type(ending, ConditionEnded)[0].entry is not msgspec.UNSET
    shown = []
    for seq, event in enumerate(t.events, start=1):
        rec = Recorded(
            originator_id=uuid.UUID(int=1),
            originator_version=seq,
            timestamp=datetime.now(UTC),
            actor="gm",
            command_id="c",
            event=event,
        )
        shown.append(redaction.record(rec).event)
    [ended] = of_type(shown, ConditionEnded)
    assert ended.condition == HIDDEN_CONDITION and ended.entry is msgspec.UNSET


@pytest.mark.parametrize("ruleset", ("declared-d10", "segments-1e"))
def test_rulesets_outside_the_5e_core_refuse_lasting_effects(ruleset):
    """Their turns neither count the rounds of a condition nor repeat its save (the rule that
    their apply_condition calls refuses them)."""
    from combat.common.durations import prepared
    from combat.kernel.decider import Tx
    from combat.kernel.errors import RuleError
    from combat.rulesets import get_ruleset

    rules = get_ruleset(ruleset)
    with pytest.raises(RuleError) as refused:
        prepared(Tx(rules, rules.initial_state()), _condition("frightened", ends_on="aria", rounds=10))
    assert refused.value.code == "condition/lasting-effect" and "ends_on" in refused.value.allowed
    assert prepared(Tx(rules, rules.initial_state()), _condition("frightened", ends_on="aria", ends="end")).ends == "end"
