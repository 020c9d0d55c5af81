"""Two fights of one campaign played with entered faces, shared by the statistics tests."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path

from combat.app.application import Encounters
from combat.fivee.attack_commands import Attack
from combat.fivee.casts import CastSpell
from combat.fivee.characters import AddCharacter
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn
from tests.helpers import member, monster

FIGHTER = member("Brann", armor="Chain Mail", weapons=("Longsword",))
WIZARD = member("Elara", 5, "Fireball", weapons=("Dagger",))


@dataclass
class Played:
    campaign: uuid.UUID
    first: uuid.UUID
    second: uuid.UUID


def _begin(encounters: Encounters, campaign: uuid.UUID, name: str, goblin: str, initiative: tuple[int, int, int]) -> uuid.UUID:
    eid = encounters.create("srd-2024", name, seed=3, campaign=campaign)
    encounters.execute(eid, AddCharacter(character="Brann", side="party"))
    encounters.execute(eid, AddCharacter(character="Elara", side="party"))
    encounters.execute(eid, AddCombatant(combatant=monster(goblin, max_hp=40)))
    encounters.execute(eid, BeginCombat())
    for cid, face in zip(("brann", "elara", goblin), initiative, strict=True):
        encounters.execute(eid, RollInitiative(combatant=cid, faces=(face,)))
    return eid


def two_fights_at(db: Path) -> Played:
    """play_two_fights on a new store at `db`, closed again (for a CLI or another process to read)."""
    encounters = Encounters(db)
    try:
        return play_two_fights(encounters)
    finally:
        encounters.close()


def play_two_fights(encounters: Encounters) -> Played:
    """Fight 1: Brann (Longsword +6, 1d8+3) hits goblin-1 (AC 15) with a 15 for 6+3 = 9;
    Elara's Fireball (8d6, all 3s: 24) catches goblin-1 (save 4) and Brann (save 10+1 = 11),
    both failing DC 14; goblin-1 rolls a natural 1 at Brann; round 2, Brann's natural 20
    doubles the dice: 5+4+3 = 12. Fight 2: Brann's miss (3+6 = 9) is undone and he hits with
    a 17 for 8+3 = 11; Elara's dagger hit (12) is amended to a 2, a miss."""
    campaign = encounters.campaigns.create("Greyhawk").id
    encounters.campaigns.save(campaign, FIGHTER)
    encounters.campaigns.save(campaign, WIZARD)
    first = _begin(encounters, campaign, "the goblin ambush", "goblin-1", (18, 12, 5))
    encounters.execute(first, Attack(attacker="brann", target="goblin-1", faces=(15,), damage_faces=(6,)))
    encounters.execute(first, EndTurn(combatant="brann"))
    encounters.execute(
        first,
        CastSpell(
            caster="elara",
            spell="Fireball",
            targets=("goblin-1", "brann"),
            damage_faces=((3,) * 8,),
            save_faces={"goblin-1": (4,), "brann": (10,)},
        ),
    )
    encounters.execute(first, EndTurn(combatant="elara"))
    encounters.execute(first, Attack(attacker="goblin-1", target="brann", faces=(1,)))
    encounters.execute(first, EndTurn(combatant="goblin-1"))
    encounters.execute(first, Attack(attacker="brann", target="goblin-1", faces=(20,), damage_faces=(5, 4)))

    second = _begin(encounters, campaign, "the goblin's brother", "goblin-2", (15, 9, 8))
    encounters.execute(second, Attack(attacker="brann", target="goblin-2", faces=(3,)))
    encounters.undo_last(second, reason="he had already moved out of reach")
    encounters.execute(second, Attack(attacker="brann", target="goblin-2", faces=(17,), damage_faces=(8,)))
    encounters.execute(second, EndTurn(combatant="brann"))
    encounters.execute(second, Attack(attacker="elara", target="goblin-2", faces=(12,), damage_faces=(4,)))
    dagger = [r.seq for r in encounters.records(second)][-1]
    encounters.amend(
        second, [dagger], Attack(attacker="elara", target="goblin-2", faces=(2,)), reason="the die rolled off the table: a 2"
    )
    return Played(campaign=campaign, first=first, second=second)
