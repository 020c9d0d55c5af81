"""Stat blocks and table moves shared by the declared-d10 scenarios: a table, a duel, a declared and rolled round."""

from __future__ import annotations

from collections.abc import Mapping

from combat.kernel.commands import BeginCombat
from combat.kernel.events import AttackProfile, CombatantSpec
from combat.rulesets.declared_d10.declarations import D10CloseDeclarations, D10Declare
from combat.rulesets.declared_d10.initiative import D10RollGroupInitiative
from combat.rulesets.declared_d10.state import D10Traits
from combat.rulesets.declared_d10.surprise import D10StartNormalRound
from combat.rulesets.declared_d10.traits import D10SetTraits
from tests.helpers import Table, monster, pc

SWORD = AttackProfile(name="Sword", bonus=5, damage="1d6", damage_type="slashing")


BOW = AttackProfile(name="Longbow", bonus=6, damage="1d8", damage_type="piercing", kind="ranged")


CLUB = AttackProfile(name="Club", bonus=4, damage="1d6", damage_type="bludgeoning")


def d10_table(*specs: CombatantSpec, settings: dict | None = None, traits: Mapping[str, D10Traits] | None = None) -> Table:
    t = Table(ruleset="declared-d10", settings=settings)
    t.add(*specs)
    for cid, tr in (traits or {}).items():
        t.do(D10SetTraits(combatant=cid, traits=tr))
    return t


def open_normal_round(t: Table) -> Table:
    t.do(BeginCombat())
    t.do(D10StartNormalRound())
    return t


def play_round(
    t: Table, declared: Mapping[str, tuple[str, str | None]], initiative: Mapping[str, int | tuple[int, ...]]
) -> Table:
    """Declare (as the GM), lock, and roll each group's d10 with the faces given, in that order."""
    for cid, (action, target) in declared.items():
        t.do(D10Declare(combatant=cid, action=action, target=target))
    t.do(D10CloseDeclarations())
    for group, faces in initiative.items():
        t.do(D10RollGroupInitiative(group=group, faces=faces if isinstance(faces, tuple) else (faces,)))
    return t


def duel(settings: dict | None = None, traits: Mapping[str, D10Traits] | None = None, **kw) -> Table:
    """Tammy (sword) against an ogre (club), a normal round open."""
    tammy = pc("tammy", **{"player": "Ana", "attacks": (SWORD,), **kw.get("tammy", {})})
    ogre = monster("ogre", **{"max_hp": 20, "ac": 12, "attacks": (CLUB,), **kw.get("ogre", {})})
    return open_normal_round(d10_table(tammy, ogre, settings=settings, traits=traits))


TAMMY_ATTACKS_THE_OGRE = {"tammy": ("attack", "ogre"), "ogre": ("attack", "tammy")}


def tammys_turn(**kw):
    return play_round(duel(**kw), TAMMY_ATTACKS_THE_OGRE, {"party": 8, "monsters": 2})


STRENGTH = {"tammy": D10Traits(feats_of_strength=1), "ogre": D10Traits(feats_of_strength=4)}


OGRE_GRABS_TAMMY = {"tammy": ("grapple", None), "ogre": ("grapple", "tammy")}
