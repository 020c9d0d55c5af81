"""A transcribed table session in the style of an Avrae game: six players against a sea hag,
rounds 0-2, every die entered as it was rolled (srd-2024).

Each step is (what happened, command, who sent it, HP that changed, whose turn, round after).
The twelve table moves that once had no command all occur: initiative rolled in set-up as
each character joins, an ability check outside any action, the GM's goto_turn for the hag's
surprise turn (a 2014-style habit), an attack in two steps (the d20, then damage), a contest,
Action Surge (grant_action), a Critical Hit on a 19 (critical_range), previous_turn after a
turn ended by mistake, Rage (change_stat_block), extra damage dice of their own type (Hunter's
Mark), a damage type chosen for the attack (Chromatic Orb), a bonus-action attack (Spiritual
Weapon), a saving throw with no DC (the GM keeps Toll the Dead's DC behind the screen), Death
Glare's "drops to 0 Hit Points" (set_hp) and a reaction attack (Polearm Master).

tests/rulesets/srd2024/test_sea_hag_session.py plays it; replays/srd-2024-sea-hag.jsonl is its recorded log.
"""

from __future__ import annotations

from typing import NamedTuple

from combat.common.commands import ApplyCondition, SavingThrow
from combat.demos.cast import foe, party_member
from combat.fivee.ability_checks import AbilityCheck, Contest
from combat.fivee.action_commands import BonusAction, Move, TakeAction
from combat.fivee.attack_commands import Attack, RollDamage
from combat.fivee.attack_events import ExtraDamage
from combat.fivee.gm_edit_commands import ChangeStatBlock, GrantAction, SetHp, StatChanges
from combat.fivee.initiative import RollInitiative
from combat.fivee.turn_pointer import GotoTurn, PreviousTurn
from combat.kernel.commands import AddCombatant, BeginCombat, Command, EndTurn, Ruling
from combat.kernel.events import AttackProfile, CombatantSpec, ConditionSpec

__all__ = ["Step", "PARTY", "SEA_HAG", "STEPS", "START_HP"]


_RAPIER = AttackProfile(name="Rapier", bonus=6, damage="1d8+4", damage_type="piercing")
_GLAIVE = AttackProfile(name="Glaive", bonus=7, damage="1d10+4", damage_type="slashing", reach=10)
_GREATAXE = AttackProfile(name="Greataxe", bonus=6, damage="1d12+4", damage_type="slashing")
_LONGBOW = AttackProfile(
    name="Longbow", bonus=7, damage="1d8+3", damage_type="piercing", kind="ranged", normal_range=150, long_range=600
)
_ORB = AttackProfile(name="Chromatic Orb", bonus=5, damage="3d8", damage_type="acid", kind="ranged", normal_range=90)
_WEAPON = AttackProfile(name="Spiritual Weapon", bonus=5, damage="1d8+3", damage_type="force")
PARTY = (
    party_member("mozzie", "Mozzie", "ana", max_hp=27, ac=15, initiative_bonus=4, attacks=(_RAPIER,)),
    party_member("ilse", "Ilse", "ben", max_hp=44, ac=18, initiative_bonus=1, attacks=(_GLAIVE,), attacks_per_action=2),
    party_member("brakka", "Brakka", "cai", max_hp=45, ac=14, initiative_bonus=2, attacks=(_GREATAXE,)),
    party_member("rill", "Rill", "dee", max_hp=36, ac=15, initiative_bonus=3, attacks=(_LONGBOW,)),
    party_member("corwin", "Corwin", "eli", max_hp=18, ac=12, initiative_bonus=2, attacks=(_ORB,), con_save=2),
    party_member("teo", "Teo", "fay", max_hp=31, ac=18, attacks=(_WEAPON,)),
)
# SRD 5.2 Sea Hag: AC 14, HP 52, Initiative +1, "Claw. Melee Attack Roll: +5, reach 5 ft. 10 (2d6 + 3) Slashing damage."
_CLAW = AttackProfile(name="Claw", bonus=5, damage="2d6+3", damage_type="slashing")
SEA_HAG = foe("sea-hag", "Sea Hag", "hag", max_hp=52, ac=14, initiative_bonus=1, con_save=3, attacks=(_CLAW,))

START_HP = {c.id: c.max_hp for c in (*PARTY, SEA_HAG)}


class Step(NamedTuple):
    said: str
    command: Command
    actor: str
    hp: dict[str, int]  # HP that changed with this step
    turn: str | None
    round: int


def _joins(pc: CombatantSpec, face: int) -> list[Step]:
    return [
        Step(f"{pc.name} joins", AddCombatant(combatant=pc), "gm", {}, None, 0),
        Step(
            f"!init join: {pc.name} rolls {face}", RollInitiative(combatant=pc.id, faces=(face,)), pc.player or "gm", {}, None, 0
        ),
    ]


STEPS: list[Step] = [
    # -- round 0: set-up, initiative rolled as each character joins -------------------------
    *_joins(PARTY[0], 15),  # Mozzie 19
    *_joins(PARTY[1], 13),  # Ilse 14
    *_joins(PARTY[2], 9),  # Brakka 11
    *_joins(PARTY[3], 5),  # Rill 8
    *_joins(PARTY[4], 4),  # Corwin 6
    *_joins(PARTY[5], 2),  # Teo 2
    Step("The sea hag lurks in the shallows", AddCombatant(combatant=SEA_HAG), "gm", {}, None, 0),
    Step(
        "Rill's Perception check spots the ripples: Dee rolls 8, the GM calls it, 8 + 5 = 13 against DC 11",
        AbilityCheck(combatant="rill", ability="wisdom", skill="perception", bonus=5, dc=11, faces=(8,)),
        "gm",
        {},
        None,
        0,
    ),
    Step("!init begin", BeginCombat(), "gm", {}, None, 0),
    Step(
        "The hag rolls 16 + 1 = 17: round 1 begins with Mozzie",
        RollInitiative(combatant="sea-hag", faces=(16,)),
        "gm",
        {},
        "mozzie",
        1,
    ),
    # -- round 1 ----------------------------------------------------------------------------
    Step(
        "!i move: the hag takes its surprise turn first, as the GM runs surprise (2014 style)",
        GotoTurn(combatant="sea-hag", reason="the hag's surprise turn"),
        "gm",
        {},
        "sea-hag",
        1,
    ),
    Step(
        "The hag claws Mozzie: 14 + 5 = 19 against AC 15, a hit",
        Attack(attacker="sea-hag", target="mozzie", faces=(14,)),
        "gm",
        {},
        "sea-hag",
        1,
    ),
    Step("... damage 4 + 5 + 3 = 12 slashing", RollDamage(attacker="sea-hag", faces=(4, 5)), "gm", {"mozzie": 15}, "sea-hag", 1),
    Step(
        "The hag tries to shove Mozzie: Athletics 12 + 3 = 15 against Acrobatics 11 + 6 = 17, Mozzie keeps her feet",
        Contest(
            combatant="sea-hag",
            ability="strength",
            skill="athletics",
            bonus=3,
            faces=(12,),
            opponent="mozzie",
            opponent_ability="dexterity",
            opponent_skill="acrobatics",
            opponent_bonus=6,
            opponent_faces=(11,),
        ),
        "gm",
        {},
        "sea-hag",
        1,
    ),
    Step("!i next", EndTurn(combatant="sea-hag"), "gm", {}, "ilse", 1),
    Step(
        "Ilse's glaive: 12 + 7 = 19, hit for 1 + 4 = 5",
        Attack(attacker="ilse", target="sea-hag", faces=(12,), damage_faces=(1,)),
        "ben",
        {"sea-hag": 47},
        "ilse",
        1,
    ),
    # Ilse joined without a character sheet, so her Champion's 19-20 is the GM's to grant:
    # a player may claim only what a sheet gives (combat/fivee/sheet_claims.py).
    Step(
        "... and a natural 19, a Critical Hit for a Champion: 3 + 5 + 4 = 12",
        Attack(attacker="ilse", target="sea-hag", faces=(19,), damage_faces=(3, 5), critical_range=19),
        "gm",
        {"sea-hag": 35},
        "ilse",
        1,
    ),
    Step("Action Surge", GrantAction(combatant="ilse", kind="action", reason="Action Surge"), "ben", {}, "ilse", 1),
    Step("Ilse swings again: 2 + 7 = 9, a miss", Attack(attacker="ilse", target="sea-hag", faces=(2,)), "ben", {}, "ilse", 1),
    Step("!i next", EndTurn(combatant="ilse"), "ben", {}, "brakka", 1),
    Step("!i next by mistake: Brakka had not gone yet", EndTurn(combatant="brakka"), "gm", {}, "rill", 1),
    Step("!i prev", PreviousTurn(reason="Brakka's turn was ended by mistake"), "gm", {}, "brakka", 1),
    Step("Brakka rages (a bonus action)", BonusAction(combatant="brakka", description="Rage"), "cai", {}, "brakka", 1),
    Step(
        "... and the GM notes the resistances",
        ChangeStatBlock(
            combatant="brakka", changes=StatChanges(resistances=("bludgeoning", "piercing", "slashing")), reason="Rage"
        ),
        "gm",
        {},
        "brakka",
        1,
    ),
    Step(
        "Brakka's greataxe: 10 + 6 = 16, hit for 7 + 4 = 11",
        Attack(attacker="brakka", target="sea-hag", faces=(10,), damage_faces=(7,)),
        "cai",
        {"sea-hag": 24},
        "brakka",
        1,
    ),
    Step("!i next", EndTurn(combatant="brakka"), "cai", {}, "rill", 1),
    # Extra damage a player claims must be on a character sheet; these characters have none,
    # so the GM enters it (as for Ilse's 19 above and Mozzie's Sneak Attack below).
    Step(
        "Rill's longbow with Hunter's Mark: 11 + 7 = 18, a hit",
        Attack(
            attacker="rill",
            target="sea-hag",
            distance=60,
            faces=(11,),
            extra_damage=(ExtraDamage(dice="1d6", damage_type="force"),),
        ),
        "gm",
        {},
        "rill",
        1,
    ),
    Step(
        "... 5 + 3 = 8 piercing and 4 force",
        RollDamage(attacker="rill", faces=(5,), extra_faces=((4,),)),
        "dee",
        {"sea-hag": 12},
        "rill",
        1,
    ),
    Step("!i next", EndTurn(combatant="rill"), "dee", {}, "corwin", 1),
    Step(
        "Corwin's Chromatic Orb, fire chosen: 10 + 5 = 15, 2 + 3 + 1 = 6 fire",
        Attack(attacker="corwin", target="sea-hag", distance=30, faces=(10,), damage_faces=(2, 3, 1), damage_type="fire"),
        "eli",
        {"sea-hag": 6},
        "corwin",
        1,
    ),
    Step("!i next", EndTurn(combatant="corwin"), "eli", {}, "teo", 1),
    Step(
        "Teo's Spiritual Weapon (a bonus action): 4 + 5 = 9, a miss",
        Attack(attacker="teo", target="sea-hag", using="bonus_action", faces=(4,)),
        "fay",
        {},
        "teo",
        1,
    ),
    Step("Teo casts Toll the Dead", TakeAction(combatant="teo", action="magic", detail="Toll the Dead"), "fay", {}, "teo", 1),
    Step(
        "The hag's Wisdom save, DC behind the screen: 14 + 1 = 15",
        SavingThrow(combatant="sea-hag", ability="wisdom", bonus=1, faces=(14,), reason="Toll the Dead"),
        "gm",
        {},
        "teo",
        1,
    ),
    Step("The GM rules on it", Ruling(text="Toll the Dead was DC 13: the hag's 15 saves, no damage"), "gm", {}, "teo", 1),
    Step("!i next: round 2", EndTurn(combatant="teo"), "fay", {}, "mozzie", 2),
    # -- round 2 ----------------------------------------------------------------------------
    Step(
        "Mozzie's rapier with Sneak Attack: 3 + 6 = 9, a miss",
        Attack(attacker="mozzie", target="sea-hag", faces=(3,), extra_damage=(ExtraDamage(dice="2d6", damage_type="piercing"),)),
        "gm",
        {},
        "mozzie",
        2,
    ),
    Step("!i next", EndTurn(combatant="mozzie"), "ana", {}, "sea-hag", 2),
    Step(
        "Horrific Appearance has Corwin frightened",
        ApplyCondition(
            target="corwin",
            condition=ConditionSpec(name="frightened", source="Horrific Appearance", ends="end", ends_on="corwin"),
        ),
        "gm",
        {},
        "sea-hag",
        2,
    ),
    Step(
        "Death Glare: Eli rolls Corwin's Wisdom save, the GM calls it: 6 + 1 = 7 against DC 11 fails",
        SavingThrow(combatant="corwin", ability="wisdom", dc=11, bonus=1, faces=(6,), reason="Death Glare"),
        "gm",
        {},
        "sea-hag",
        2,
    ),
    Step(
        "'If the target has 20 Hit Points or fewer, it drops to 0 Hit Points'",
        SetHp(combatant="corwin", hp=0, reason="Death Glare"),
        "gm",
        {"corwin": 0},
        "sea-hag",
        2,
    ),
    Step("The hag moves toward Teo, into the reach of Ilse's glaive", Move(combatant="sea-hag", feet=5), "gm", {}, "sea-hag", 2),
    Step(
        "Polearm Master: Ilse's reaction attack, 16 + 7 = 23 for 2 + 4 = 6, and the hag falls",
        Attack(attacker="ilse", target="sea-hag", using="reaction", faces=(16,), damage_faces=(2,)),
        "ben",
        {"sea-hag": 0},
        None,
        2,
    ),
]
