"""srd-2024 ending the fight: by defeat of a side, or by the GM.

"Combat ends when one side or the other is defeated, which can mean the entities are killed
or knocked out or have surrendered or fled. Combat can also end when both sides agree to end it."
"""

from combat.common.commands import Damage, Heal
from combat.fivee.attack_commands import Attack
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import BeginCombat, EndCombat, EndTurn, Ruling
from combat.kernel.events import CombatEnded, PhaseChanged, RulingMade
from tests.helpers import Table, monster, of_type, pc


def _fight() -> Table:
    t = Table().add(pc("aria"), pc("bram"), monster("goblin-1", group="goblins"), monster("goblin-2", group="goblins"))
    return t.start({"aria": 15, "goblin-1": 10, "bram": 5})


def test_the_fight_ends_by_itself_when_the_last_foe_dies():
    """'Combat ends when one side or the other is defeated, which can mean the entities are killed.'"""
    t = _fight()
    t.do(Damage(target="goblin-1", amount=7, damage_type="fire"))
    assert t.state.phase == "turns"
    events = t.do(Attack(attacker="aria", target="goblin-2", faces=(15,), damage_faces=(4,)))
    assert PhaseChanged(previous="turns", phase="ended") in events
    assert of_type(events, CombatEnded) == [
        CombatEnded(winner="party", reason="every foe of the party side is down", automatic=True)
    ]
    assert t.state.phase == "ended" and t.state.winner == "party" and t.state.turn is None


def test_the_monsters_win_when_every_character_is_knocked_out():
    """'defeated ... can mean the entities are ... knocked out'."""
    t = _fight()
    t.do(Damage(target="aria", amount=20, damage_type="slashing"))
    events = t.do(Damage(target="bram", amount=20, damage_type="slashing"))
    assert of_type(events, CombatEnded)[0].winner == "monsters"
    assert t["aria"].status == "unconscious"


def test_a_character_healed_in_time_keeps_the_fight_going():
    """A side with anyone still standing is not yet defeated."""
    t = _fight()
    t.do(Damage(target="aria", amount=20, damage_type="slashing"))
    t.do(Heal(target="aria", amount=3))
    events = t.do(Damage(target="bram", amount=20, damage_type="slashing"))
    assert of_type(events, CombatEnded) == [] and t.state.phase == "turns"


def test_the_gm_ends_the_fight_when_the_foe_surrenders():
    """Defeated 'can mean the entities ... have surrendered or fled'."""
    t = _fight()
    events = t.do(EndCombat(reason="the goblins surrender", winner="party"))
    assert of_type(events, CombatEnded) == [CombatEnded(winner="party", reason="the goblins surrender")]
    assert t.state.phase == "ended" and t.state.ended_reason == "the goblins surrender"


def test_both_sides_may_agree_to_end_it_without_a_winner():
    """'Combat can also end when both sides agree to end it.'"""
    t = _fight()
    t.do(EndCombat(reason="a truce"))
    assert t.state.phase == "ended" and t.state.winner is None


def test_the_winner_named_by_the_gm_must_be_a_side_in_the_fight():
    """The winner is one of the sides that fought."""
    t = _fight()
    error = t.rejects(EndCombat(winner="dragons"), "combat/unknown-side")
    assert error.allowed == "monsters, party"


def test_the_gm_can_call_off_the_fight_before_initiative_is_rolled():
    """The ambush is called off while the GM is still deciding who is surprised."""
    t = Table().add(pc("aria"), monster("goblin"))
    t.do(BeginCombat())
    t.do(EndCombat(reason="the goblin runs before anyone moves"))
    assert t.state.phase == "ended" and t.state.round == 0


def test_after_the_end_only_rulings_are_recorded():
    """After the fight nothing more happens in it; the GM's rulings are still written down."""
    t = _fight()
    t.do(EndCombat(reason="the goblins flee", winner="party"))
    t.rejects(EndTurn(combatant="aria"), "phase/not-allowed")
    t.rejects(Damage(target="goblin-1", amount=3, damage_type="piercing"), "phase/not-allowed")
    t.rejects(RollInitiative(), "phase/not-allowed")
    t.rejects(EndCombat(), "phase/not-allowed")
    events = t.do(Ruling(text="the goblins drop a map as they flee"))
    assert events == [RulingMade(text="the goblins drop a map as they flee")]


def test_an_empty_ruling_is_rejected():
    """A ruling is kept 'for the argument afterwards', so it needs words."""
    t = _fight()
    t.rejects(Ruling(text="  "), "ruling/empty")
