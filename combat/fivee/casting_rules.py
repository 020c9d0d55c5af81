"""Rules of casting beyond a spell's own text (SRD 5.2, "Casting Spells"; the chapter is not in
the Open5e records under /work/shared/data/srd-5.2, so its sentences are quoted as the rules
give them).

- One spell slot per turn (srd-2024 and its variant take its bundle,
  combat/fivee/one_slot_per_turn.py): "On a turn, you can expend only one spell slot to cast a spell. This rule means you can't,
  for example, cast a spell with a spell slot using the Magic action and another one using a
  Bonus Action on the same turn." Any creature's turn: a reaction spell with a slot on another
  creature's turn counts on that turn. Casting without a slot is not limited: a cantrip, a
  stat block's "At Will" or "N/Day" spell. a5e keeps its own rule and does not take it.
- Pact Magic (ClassFeature.json, "Pact Magic"): "For example, when you're a level 5 Warlock,
  you have two level 3 spell slots. To cast the level 1 spell Charm Person, you must spend one
  of those slots, and you cast it as a level 3 spell." A spell cast without naming the slot
  level takes a slot of its own level if the caster has one left, else a Pact Magic slot
  (cast at the pact level, as the example says).
- Rituals: a spell with the Ritual tag may be cast as a ritual, without a slot, taking 10
  minutes longer than its casting time (Wizard, "Ritual Adept": "You can cast any spell as a
  Ritual if that spell has the Ritual tag and the spell is in your spellbook"; the other
  casters, a prepared one). A round is 6 seconds, so no ritual is cast in a fight's turns:
  `cast_spell` with `ritual` is refused there (`spell/ritual-in-combat`) and the spell may be
  cast with its slot instead. Before the fight (the set-up phase, the one time outside combat
  an encounter records) `cast_spell` records a ritual, and only a ritual: no slot spent, no
  action, its effect as the spell's. A character casts the rituals on its sheet; a stat block's
  Spellcasting casts its spells as the block says, not as rituals (`spell/ritual-caster`).
"""

from __future__ import annotations

from combat.characters.sheet import Spellcasting
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant

__all__ = ["pact_slot_for", "OUTSIDE_FIGHT", "ritual_cast"]

OUTSIDE_FIGHT = "setup"  # the phase before the fight: the time outside combat an encounter records


def pact_slot_for(casting: Spellcasting, pact_spent: int, level: int, wanted: int | None, own_left: bool) -> int | None:
    """The pact level when a Pact Magic slot casts this spell: the slot level named is the pact
    level, or none is named, the spell's own level has no slot left and a pact slot of at
    least the spell's level is."""
    if not casting.pact_slots or pact_spent >= casting.pact_slots or casting.pact_level < level:
        return None
    if wanted == casting.pact_level or (wanted is None and not own_left):
        return casting.pact_level
    return None


def ritual_cast(phase: str, c: Combatant, spell: str, *, asked: bool, ritual_tag: bool, from_block: bool) -> bool:
    """Whether this casting is a ritual (`asked`: the command says so); refused where the rules
    don't allow it, and any other casting before the fight."""
    outside = phase == OUTSIDE_FIGHT
    if not asked:
        if outside:
            raise RuleError(
                "spell/before-the-fight",
                f"{c.name} can't cast {spell} before the fight: only a ritual is recorded outside the fight's turns",
                allowed="ritual: true for a spell with the Ritual tag; other spells once the fight's turns begin",
            )
        return False
    if not ritual_tag:
        raise RuleError("spell/not-ritual", f"{spell} has no Ritual tag and can't be cast as a ritual", allowed="ritual: false")
    if from_block:
        raise RuleError(
            "spell/ritual-caster",
            f"{c.name} casts {spell} from its stat block, as the block says, not as a ritual",
            allowed="ritual: false, in the fight's turns",
        )
    if not outside:
        raise RuleError(
            "spell/ritual-in-combat",
            f"{c.name} can't cast {spell} as a ritual in a fight: a ritual takes 10 minutes longer than its casting time",
            allowed="ritual: false, casting it with a spell slot; or a ritual before the fight",
        )
    return True
