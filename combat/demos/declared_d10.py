"""A scripted declared-d10 fight, played through the application like a GM would, any seed.

Four adventurers creep up on an ogre camp by a ravine: two ogres, their chief (his own
initiative group) and three goblin minions. The players enter their surprise roll from real
dice, so the fight always opens with a surprise round; after that every die comes from the
encounter's seed. Each round everyone declares, the players reorder their group (the
healthiest first), each group rolls its d10, and the script plays each turn from the
declaration, asking the GM for a change when a declared target has fallen.

The table also argues, as tables do: in the surprise round the GM takes back Carl's step onto
the crumbling edge of the ravine (an undo), and before the second round Lee insists Larry had
declared the chief, not a goblin. The GM amends the declaration; Larry's Fire Bolt at the
goblin then no longer fits it (a conflict), so the GM amends the bolt too, at the chief with
the same dice, and lets whatever else no longer fits stand by ruling.
"""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from combat.app.application import Encounters, Outcome
from combat.common.commands import Heal
from combat.demos.cast import foe, party_member
from combat.demos.table import DemoTable, standing_foes, weakest_foe
from combat.kernel.commands import AddCombatant, BeginCombat, EndCombat, EndTurn
from combat.kernel.events import AttackProfile
from combat.kernel.state import Combatant, EncounterState
from combat.rulesets.declared_d10.actions import D10Disengage, D10Move, D10ParryDodge, D10Sneak, D10SprintFlee, D10UseItem
from combat.rulesets.declared_d10.attacks import D10Attack, D10AttackRolled, D10FreeAttack
from combat.rulesets.declared_d10.declarations import D10ActionDeclared, D10CloseDeclarations, D10Declare, D10RuleOnChange
from combat.rulesets.declared_d10.grapples import D10BreakGrapple, D10Grapple
from combat.rulesets.declared_d10.initiative import D10OrderGroup, D10RollGroupInitiative
from combat.rulesets.declared_d10.opposition import D10OpposedRoll
from combat.rulesets.declared_d10.state import D10Traits, Declaration, can_act
from combat.rulesets.declared_d10.surprise import D10RollSurprise
from combat.rulesets.declared_d10.timers import D10StartTimer
from combat.rulesets.declared_d10.traits import D10SetTraits
from combat.rulesets.declared_d10.wounds import D10Damage

__all__ = ["run_demo", "DEMO_PARTY", "DEMO_CAMP"]

MAX_ROUNDS = 15
SETTINGS = {"weapon_tiers": True, "declaration_seconds": 60}
# The players rolled these at the table: 14 + Bob's Stealth +0 against 11 + the chief's
# Perception +2, one over: surprise, not full surprise.
SURPRISE_FACES = ((14,), (11,))
RANGED = ("carl", "larry")
BARREL_BLAST = ("goblin-1", "goblin-2", "goblin-3", "ogre-1", "tammy", "carl")
BEHIND_THE_CART = ("tammy", "carl")


_LONGSWORD = AttackProfile(name="Longsword", bonus=5, damage="1d8", damage_type="slashing")
_SWORD = AttackProfile(name="Sword", bonus=5, damage="1d6", damage_type="slashing")
_LONGBOW = AttackProfile(name="Longbow", bonus=6, damage="1d8", damage_type="piercing", kind="ranged")
_DAGGER = AttackProfile(name="Dagger", bonus=3, damage="1d4", damage_type="piercing")
_FIRE_BOLT = AttackProfile(name="Fire Bolt", bonus=5, damage="1d10", damage_type="fire", kind="ranged")
_STAFF = AttackProfile(name="Staff", bonus=2, damage="1d6", damage_type="bludgeoning")
DEMO_PARTY = (
    party_member("bob", "Bob", "Sam", max_hp=24, ac=15, attacks=(_LONGSWORD,)),
    party_member("tammy", "Tammy", "Ana", max_hp=20, ac=14, attacks=(_SWORD,)),
    party_member("carl", "Carl", "Kim", max_hp=18, ac=13, attacks=(_LONGBOW, _DAGGER)),
    party_member("larry", "Larry", "Lee", max_hp=14, ac=11, attacks=(_FIRE_BOLT, _STAFF)),
)
_CLUB = AttackProfile(name="Club", bonus=4, damage="1d6+1", damage_type="bludgeoning")
_GREAT_CLUB = AttackProfile(name="Great Club", bonus=5, damage="1d8+2", damage_type="bludgeoning")
_SPEAR = AttackProfile(name="Spear", bonus=3, damage="1d6", damage_type="piercing")
DEMO_CAMP = (
    *(foe(f"ogre-{i}", f"Ogre {i}", "ogres", group="ogres", max_hp=20, ac=12, attacks=(_CLUB,)) for i in (1, 2)),
    foe("grukk", "Grukk the Chief", "ogres", group="chief", max_hp=30, ac=14, attacks=(_GREAT_CLUB,)),
    *(foe(f"goblin-{i}", f"Goblin {i}", "ogres", group="goblins", max_hp=1, ac=12, attacks=(_SPEAR,)) for i in (1, 2, 3)),
)
TRAITS = {
    "bob": D10Traits(dr=2, stealth=0, perception=1, feats_of_strength=3, weapon_tiers={"Longsword": "masterwork"}),
    "tammy": D10Traits(dr=1, stealth=4, perception=2, feats_of_strength=1),
    "carl": D10Traits(stealth=3, perception=3, feats_of_strength=0),
    "larry": D10Traits(stealth=1, perception=2, spells=("Fire Bolt",), weapon_tiers={"Staff": "shoddy"}),
    "ogre-1": D10Traits(dr=1, feats_of_strength=4),
    "ogre-2": D10Traits(dr=1, feats_of_strength=4),
    "grukk": D10Traits(dr=2, perception=2, feats_of_strength=5, weapon_tiers={"Great Club": "masterwork"}),
    **{f"goblin-{i}": D10Traits(minion=True, perception=1, stealth=2) for i in (1, 2, 3)},
}


class _Table(DemoTable):
    """Every foe takes the free attacks a command opened."""

    def after(self, outcome: Outcome, *, command: bool) -> None:
        if not command:
            return
        for offer in outcome.state.rules.free_attacks:
            state = self.state
            attacker, target = state.combatants[offer.attacker], state.combatants[offer.target]
            still_open = offer in state.rules.free_attacks
            if still_open and state.phase == "turns" and can_act(state, attacker) and target.status == "active":
                self(D10FreeAttack(attacker=attacker.id, target=target.id))


def run_demo(encounters: Encounters, *, seed: int, report: Callable[[Outcome], None]) -> UUID:
    encounter_id = encounters.create("declared-d10", "The ogre camp by the ravine", seed=seed, settings=SETTINGS)
    table = _Table(encounters, encounter_id, report)
    for spec in DEMO_PARTY + DEMO_CAMP:
        table(AddCombatant(combatant=spec))
        table(D10SetTraits(combatant=spec.id, traits=TRAITS[spec.id]))
    table(BeginCombat())
    table(
        D10RollSurprise(attackers="party", defenders="ogres", attacker_faces=SURPRISE_FACES[0], defender_faces=SURPRISE_FACES[1])
    )
    blasted: set[str] = set()
    while table.state.phase == "declare":
        if table.state.round > MAX_ROUNDS:
            table(EndCombat(reason="the ogres drag their wounded back across the ravine"))
            break
        if table.state.round == 2:
            _review_the_surprise_round(table)
        _between_rounds(table, blasted)
        if table.state.phase != "declare":
            break
        _declare_all(table)
        table(D10RollGroupInitiative())
        while table.state.phase == "turns":
            state = table.state
            _play_turn(table, state.combatants[state.turn])  # type: ignore[index]
    return encounter_id


# -- the table argues -----------------------------------------------------------------------


def _review_the_surprise_round(table: _Table) -> None:
    """Before anyone declares for round 2, Lee insists Larry had declared Fire Bolt at the chief,
    not at a goblin, and the GM amends the declaration. If Larry's bolt then no longer fits it,
    the GM amends the bolt too (at Grukk, with the same dice), and lets stand whatever else no
    longer fits (a goblin that now lives and missed its turn, Grukk's wound penalty...)."""
    records = list(table.encounters.records(table.id))
    undone = set(table.state.retracted)
    declared = next(
        (r for r in records if isinstance(r.event, D10ActionDeclared) and r.event.combatant == "larry" and r.seq not in undone),
        None,
    )
    if declared is None or declared.event.target == "grukk":
        return
    outcome = table.amend(
        declared.seq,
        D10Declare(combatant="larry", action="cast", target="grukk", detail="Fire Bolt"),
        reason="Lee declared Fire Bolt at Grukk the Chief, not the goblin: the GM's notes had it wrong",
    )
    larrys_attacks = {r.seq for r in records if isinstance(r.event, D10AttackRolled) and r.event.attacker == "larry"}
    bolt = next((c.seq for c in outcome.state.conflicts if c.seq in larrys_attacks), None)
    if bolt is not None and table.encounters.state(table.id, at=bolt - 1).combatants["grukk"].status == "active":
        outcome = table.amend(
            bolt,
            D10Attack(attacker="larry", target="grukk", attack="Fire Bolt"),
            reason="then the bolt flew at Grukk, rolled with the same dice",
        )
    table.let_stand(outcome, ruling="what else happened at the table stands")


# -- between rounds: the GM's timer and what it sets off -------------------------------------


def _between_rounds(table: _Table, blasted: set[str]) -> None:
    state = table.state
    if state.round == 2:
        table(D10StartTimer(what="the oil barrels by the campfire explode", die="1d4"))
    if state.round == 3:
        goblin = next((c for c in _standing(state, "ogres") if c.group == "goblins"), None)
        if goblin is not None and state.combatants["carl"].status == "active":
            # Carl and a goblin race for the rope that holds the camp's gate.
            table(D10OpposedRoll(what="reaching the gate rope first", a="carl", b=goblin.id, a_bonus=3, b_bonus=2))
    for timer in state.rules.timers:
        if timer.fired and timer.id not in blasted:
            blasted.add(timer.id)
            near = tuple(cid for cid in BARREL_BLAST if state.combatants[cid].status in ("active", "unconscious"))
            if near:
                table(
                    D10Damage(
                        targets=near,
                        notation="2d6",
                        damage_type="fire",
                        source=None,
                        area=True,
                        behind_cover=tuple(cid for cid in BEHIND_THE_CART if cid in near),
                    )
                )


# -- declarations ------------------------------------------------------------------------------


def _standing(state: EncounterState, side: str) -> list[Combatant]:
    return [c for c in state.combatants.values() if c.side == side and c.status == "active"]


def _toughest(state: EncounterState, c: Combatant) -> Combatant | None:
    foes = standing_foes(state, c)
    return max(foes, key=lambda f: (f.hp, f.id)) if foes else None


# Who each creature goes for while that one stands: the ogres hold the front, the goblins
# harass the archer and the wizard.
ENGAGED = {"ogre-1": "bob", "ogre-2": "tammy", "grukk": "bob", "goblin-1": "carl", "goblin-2": "larry", "goblin-3": "carl"}


def _plan(state: EncounterState, c: Combatant) -> tuple[str, str | None, str]:
    """What the player (or the GM, for a creature) declares for `c` this round."""
    weakest, toughest = weakest_foe(state, c), _toughest(state, c)
    hurt = c.hp * 3 <= c.max_hp
    if c.has("grappled"):
        return "grapple", None, "tries to break free"
    if c.side == "ogres":
        if c.group == "ogres" and hurt and state.round > 2:
            return "sprint_flee", None, "runs for the ravine bridge"
        if c.id == "grukk" and state.round == 2 and state.combatants["bob"].status == "active":
            return "grapple", "bob", "grabs the warrior"
        engaged = state.combatants[ENGAGED[c.id]]
        target = engaged if engaged.status == "active" else weakest
        return "attack", target.id if target else None, ""
    if weakest is None or toughest is None:
        return "move", None, ""
    if c.id == "bob":
        if hurt:
            return "parry_dodge", None, "holds the line behind his shield"
        goblins = [f for f in standing_foes(state, c) if f.group == "goblins"]
        if goblins and state.round >= 3:
            return "attack", goblins[0].id, "knocks one out for questioning"
        return "attack", toughest.id, ""
    if c.id == "tammy":
        if state.round == 1:
            return "move", None, "slips round the tents"
        if c.hp * 2 <= c.max_hp and state.round % 2 == 0:
            return "use_item", None, "drinks a healing potion"
        return "attack", ("grukk" if state.combatants["grukk"].status == "active" else weakest.id), ""
    if c.id == "larry":
        if c.hp * 2 <= c.max_hp:
            return "disengage", weakest.id, "backs away from the melee"
        return "cast", weakest.id, "Fire Bolt"
    return "attack", toughest.id, ""  # Carl shoots at the biggest threat


def _declare_all(table: _Table) -> None:
    state = table.state
    for c in state.combatants.values():
        if not can_act(state, c):
            continue
        # In round 4 Larry dithers over his spell list until the GM calls time.
        if c.id == "larry" and state.round == 4:
            continue
        action, target, detail = _plan(state, c)
        table(D10Declare(combatant=c.id, action=action, target=target, detail=detail), actor=c.player or "gm")
    party = sorted(_standing(state, "party"), key=lambda c: (-c.hp * 100 // c.max_hp, c.id))
    if len(party) > 1:
        table(D10OrderGroup(group="party", order=tuple(c.id for c in party)), actor=party[0].player or "gm")
    waiting = [c for c in state.combatants.values() if can_act(state, c) and c.id not in table.state.rules.declarations]
    table(D10CloseDeclarations(time_up=bool(waiting)))


# -- turns ---------------------------------------------------------------------------------------


def _play_turn(table: _Table, c: Combatant) -> None:
    declared = table.state.rules.declarations.get(c.id)
    if c.id == "carl" and table.state.round == 1 and declared is not None and declared.action == "attack":
        # Carl steps out for a clear shot; the GM takes it back before the arrow flies.
        table(D10Move(combatant=c.id, detail="steps out onto the edge of the ravine"))
        table.undo("the edge of the ravine is crumbling: Carl stays behind the cart")
    if declared is not None and c.status == "active":
        {
            "attack": _attack,
            "cast": _attack,
            "parry_dodge": lambda t, c, d: t(D10ParryDodge(combatant=c.id)),
            "grapple": _grapple,
            "disengage": _disengage,
            "use_item": _use_item,
            "sprint_flee": _flee,
            "move": _move,
        }.get(declared.action, lambda t, c, d: None)(table, c, declared)
    if table.state.phase == "turns" and table.state.turn == c.id:
        table(EndTurn(combatant=c.id))


def _attack(table: _Table, c: Combatant, declared: Declaration) -> None:
    state = table.state
    target = state.combatants.get(declared.target or "")
    if target is None or target.status != "active":
        target = _ask_for_a_new_target(table, c, declared)
        if target is None:
            return
    options: dict = {}
    if c.id == "carl" and state.round == 1:
        options["long_range"] = True  # the chief is across the ravine
    if c.id == "carl" and target.group == "goblins":
        options["cover"] = True  # goblins duck behind the supply cart
    if c.id == "carl" and state.round == 3 and target.id == "grukk":
        options["called_shot"] = "the torch in his hand"
    if c.id == "tammy" and state.rules.stealthy.get("tammy") == state.round - 1:
        options["sneak_attack"] = True
    if c.id == "tammy" and target.id == "grukk":
        options["critical_effect"] = "wounds Grukk and knocks the great club from his hand"
    if c.id == "bob" and target.group == "goblins":
        options["subdual"] = True
    if c.id == "bob":
        options["fumble_effect"] = "overextends: his foes gain Advantage against him next round"
    table(D10Attack(attacker=c.id, target=target.id, attack="Fire Bolt" if c.id == "larry" else None, **options))


def _ask_for_a_new_target(table: _Table, c: Combatant, declared: Declaration) -> Combatant | None:
    """The declared target is down. A bow or a spell can shift aim a little; a charge cannot."""
    state = table.state
    new = weakest_foe(state, c)
    if new is None:
        return None
    fallen = state.combatants[declared.target].name if declared.target in state.combatants else "the target"
    ranged = c.id in RANGED
    if ranged:
        ruling = f"{fallen} is down; {new.name} is close enough to shift the aim the tiny amount needed"
    else:
        ruling = f"{c.name} was charging at {fallen} and keeps running past, unable to turn in time"
    table(D10RuleOnChange(combatant=c.id, allowed=ranged, target=new.id, ruling=ruling))
    if ranged:
        return new
    table(D10Move(combatant=c.id, detail=f"runs past where {fallen} stood"))
    return None


def _move(table: _Table, c: Combatant, declared: Declaration) -> None:
    if c.id == "tammy":
        table(D10Sneak(combatant=c.id, dc=12))
    else:
        table(D10Move(combatant=c.id, detail=declared.detail))


def _grapple(table: _Table, c: Combatant, declared: Declaration) -> None:
    state = table.state
    if c.has("grappled"):
        since = state.rules.grapples.get(c.id)
        if since is None or since.round < state.round:
            table(D10BreakGrapple(combatant=c.id))
        return
    target = state.combatants.get(declared.target or "")
    if target is not None and target.status == "active" and not target.has("grappled"):
        table(D10Grapple(attacker=c.id, target=target.id))


def _disengage(table: _Table, c: Combatant, declared: Declaration) -> None:
    foe = table.state.combatants.get(declared.target or "")
    if foe is None or foe.status != "active" or c.has("grappled"):
        return
    table(D10Disengage(combatant=c.id, foe=foe.id, attack="Staff"))
    table(D10Move(combatant=c.id, away_from=(foe.id,), detail="backs away behind the cart"))


def _use_item(table: _Table, c: Combatant, declared: Declaration) -> None:
    table(D10UseItem(combatant=c.id, item="a healing potion"))
    table(Heal(target=c.id, notation="2d4", source=c.id))


def _flee(table: _Table, c: Combatant, declared: Declaration) -> None:
    if c.has("grappled"):
        return
    foes = tuple(f.id for f in standing_foes(table.state, c))[:2]
    table(D10SprintFlee(combatant=c.id, flee_from=foes, leaves_battlefield=True, detail="over the ravine bridge"))
