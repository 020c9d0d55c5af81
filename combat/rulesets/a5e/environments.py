"""The nine example environments of Turn-Based Action, as data a Narrator can pick or extend.

An environment has world bonuses and penalties (objects, obstacles and field conditions the
Narrator adjudicates) and world actions (what the environment does at the start of a round).
Where the text gives a save, DC or damage it is here, so resolving a world action is
arithmetic. A Narrator's own environment is the same structure, sent whole in `set_scene`.

Cavernous and furnished list no world actions in the text, so they have none here.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from combat.kernel.events import AttackProfile, CombatantSpec

__all__ = ["Ability", "Feature", "Summon", "WorldAction", "Environment", "ENVIRONMENTS", "SHADOW", "LEECHES"]

Ability = Literal["strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma"]


class Feature(msgspec.Struct, frozen=True, kw_only=True):
    """A world bonus or penalty: `Stalactites. Obstacles ... DC 12 Dexterity saving throw or 2d6 piercing`."""

    name: str
    kind: Literal["obstacle", "area hazard", "object", "field"]
    text: str
    check: str | None = None  # an ability check it calls for, e.g. "wisdom (perception)"
    save: Ability | None = None
    dc: int | None = None
    damage: str | None = None
    damage_type: str | None = None


class Summon(msgspec.Struct, frozen=True, kw_only=True):
    """New participants a world action brings: the stat block, and its initiative if fixed."""

    creature: CombatantSpec
    initiative: int | None = None  # None: it rolls a Dexterity check when it arrives
    looks_like_random_participant: bool = False


class WorldAction(msgspec.Struct, frozen=True, kw_only=True):
    """`Flame Burst (Recharge 4-6). A single participant makes a DC 12 Dexterity saving throw or
    they take 1d12 fire damage.`"""

    name: str
    text: str
    recharge: int | None = None  # "Recharge 4-6" is 4: regained on a d6 of 4 or more
    # Who it reaches: one participant, all, those the Narrator names (in the mud, near the
    # cliff), or nobody (it brings new participants).
    targets: Literal["one", "all", "chosen", "none"]
    save: Ability | None = None
    dc: int | None = None
    damage: str | None = None
    damage_type: str | None = None
    reduced_damage: str | None = None
    reduced_when: str | None = None
    condition: str | None = None  # suffered on a failed save (or by everyone reached if no save)
    condition_ends: Literal["start", "end"] | None = None  # of the target's next turn
    effect: str | None = None  # what else happens to those it reaches, in words
    once_per_target: bool = False  # "cannot be targeted by this action again until Turn-Based Action ends"
    summon: Summon | None = None


class Environment(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    bonuses: tuple[Feature, ...] = ()
    penalties: tuple[Feature, ...] = ()
    world_actions: tuple[WorldAction, ...] = ()

    def world_action(self, name: str) -> WorldAction | None:
        wanted = _key(name)
        return next((a for a in self.world_actions if _key(a.name) == wanted), None)


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


# "A shadow that looks identical to a random participant": the text gives no statistics, so
# it uses the shadow a Narrator of a 5e-family game reaches for (AC 12, 16 HP, Strength Drain).
SHADOW = CombatantSpec(
    id="shadow",
    name="Shadow",
    kind="monster",
    side="shadow",
    max_hp=16,
    ac=12,
    initiative_bonus=2,
    speed=40,
    con_save=1,
    size="medium",
    attacks=(AttackProfile(name="Strength Drain", bonus=4, damage="2d6+2", damage_type="necrotic"),),
    vulnerabilities=("radiant",),
    resistances=("acid", "cold", "fire", "lightning", "thunder"),
    immunities=("necrotic", "poison"),
)
# "A swarm of insects (leeches)": the swarm of insects stat block, as leeches.
LEECHES = CombatantSpec(
    id="leeches",
    name="Swarm of Leeches",
    kind="monster",
    side="leeches",
    max_hp=22,
    ac=12,
    initiative_bonus=1,
    speed=20,
    size="medium",
    attacks=(AttackProfile(name="Bites", bonus=3, damage="4d4", damage_type="piercing", reach=0),),
    resistances=("bludgeoning", "piercing", "slashing"),
)


def _cover(name: str, text: str) -> Feature:
    return Feature(name=name, kind="obstacle", text=text)


ENVIRONMENTS: dict[str, Environment] = {
    env.id: env
    for env in (
        Environment(
            id="cavernous",
            name="Cavernous",
            bonuses=(
                Feature(
                    name="Echo",
                    kind="field",
                    text="Sound travels twice as far, and any effect which causes "
                    "thunder damage does 1 extra point of damage per die rolled.",
                ),
                Feature(
                    name="Stalactites",
                    kind="obstacle",
                    text="Obstacles that can be knocked down by ranged attacks "
                    "that deal any damage (AC 12). The creature beneath a stalactite makes a DC 12 Dexterity saving "
                    "throw or takes 2d6 piercing damage.",
                    save="dexterity",
                    dc=12,
                    damage="2d6",
                    damage_type="piercing",
                ),
                _cover("Stalagmites", "Obstacles that each provide half cover."),
            ),
            penalties=(
                Feature(
                    name="Loose Foundation",
                    kind="area hazard",
                    text="Can cause the entire section of cave to "
                    "collapse within 2 rounds of being disturbed by any explosive effect or significant impact. "
                    "Participants still in the area are grappled and start to suffocate (escape DC 12).",
                    dc=12,
                ),
            ),
        ),
        Environment(
            id="fiery",
            name="Fiery",
            penalties=(
                Feature(
                    name="Burning Surface",
                    kind="field",
                    text="Touching an unattended object or a surface for the "
                    "first time on a participant's turn causes them to take 1d6 fire damage.",
                    damage="1d6",
                    damage_type="fire",
                ),
                Feature(
                    name="Floating Ash",
                    kind="area hazard",
                    text="A participant that ends their turn in this area "
                    "hazard makes a DC 10 Constitution saving throw or is blinded until the start of their next turn.",
                    save="constitution",
                    dc=10,
                ),
            ),
            world_actions=(
                WorldAction(
                    name="Flame Burst",
                    recharge=4,
                    targets="one",
                    save="dexterity",
                    dc=12,
                    damage="1d12",
                    damage_type="fire",
                    text="A single participant makes a DC 12 Dexterity saving throw or they take 1d12 fire damage.",
                ),
                WorldAction(
                    name="Sweltering Heat",
                    targets="all",
                    save="constitution",
                    dc=10,
                    condition="fatigue",
                    text="All participants make a DC 10 Constitution saving throw or suffer one level of fatigue.",
                ),
            ),
        ),
        Environment(
            id="forested",
            name="Forested",
            bonuses=(
                _cover("Brush", "Obstacle provides half cover while a participant is prone behind it."),
                _cover("Trees (Fallen or Standing)", "Obstacle provides half cover."),
            ),
            penalties=(
                Feature(
                    name="Fallen Leaves",
                    kind="area hazard",
                    text="May conceal potholes, traps, and other hazards. "
                    "Participants can perceive what's under the leaves by making a DC 12 Wisdom (Perception) check.",
                    check="wisdom (perception)",
                    dc=12,
                ),
            ),
            world_actions=(
                WorldAction(
                    name="Distressed Animal Cacophony",
                    recharge=4,
                    targets="all",
                    effect="can only hear sounds within 10 feet (except for loud, explosive noises)",
                    text="All participants can only hear sounds within 10 feet of them (except for loud, explosive noises).",
                ),
            ),
        ),
        Environment(
            id="frigid",
            name="Frigid",
            penalties=(
                Feature(
                    name="Frostbitten Surface",
                    kind="field",
                    text="Touching an unattended object or a surface for "
                    "the first time on a participant's turn causes them to take 1d6 cold damage. This effect is "
                    "nullified if they have resistance to cold damage or the participant's skin isn't exposed to the "
                    "surface.",
                    damage="1d6",
                    damage_type="cold",
                ),
                Feature(
                    name="Icy Patch",
                    kind="area hazard",
                    text="When a participant starts moving in a single "
                    "direction through this area hazard, movement in another direction is considered difficult "
                    "terrain until the start of their next turn.",
                ),
                Feature(name="Snow", kind="field", text="The area is lightly obscured."),
            ),
            world_actions=(
                WorldAction(
                    name="Cold Chill",
                    recharge=4,
                    targets="all",
                    save="constitution",
                    dc=15,
                    damage="2d6",
                    damage_type="cold",
                    reduced_damage="1d6",
                    reduced_when="wearing cold weather gear",
                    text="All participants make a DC 15 Constitution saving throw or take 2d6 cold damage. This "
                    "damage is reduced to 1d6 if they are wearing cold weather gear.",
                ),
            ),
        ),
        Environment(
            id="furnished",
            name="Furnished",
            bonuses=(
                Feature(
                    name="Chandelier",
                    kind="obstacle",
                    text="Can be swung from with a DC 12 Dexterity (Acrobatics) "
                    "check, or knocked down dealing 2d6 bludgeoning damage to any creatures underneath (each makes a "
                    "DC 12 Dexterity saving throw to negate the damage).",
                    check="dexterity (acrobatics)",
                    save="dexterity",
                    dc=12,
                    damage="2d6",
                    damage_type="bludgeoning",
                ),
                Feature(
                    name="Mirror",
                    kind="object",
                    text="A participant using this Medium-sized object as cover can use "
                    "their reaction to reflect a 1st-level spell or cantrip targeting them, turning it back onto the "
                    "spellcaster by succeeding on a Dexterity check opposed by a spellcasting ability check (on a "
                    "failure, the spell hits a randomly determined unoccupied square). The mirror then breaks.",
                ),
                _cover("Tables", "Obstacles that can be pushed over as an action to provide half cover."),
            ),
            penalties=(
                Feature(
                    name="Clutter",
                    kind="area hazard",
                    text="Counts as difficult terrain. If a participant uses the "
                    "Dash action to move through the area, they make a DC 10 Dexterity saving throw or fall prone.",
                    save="dexterity",
                    dc=10,
                ),
            ),
        ),
        Environment(
            id="hazy",
            name="Hazy",
            penalties=(
                Feature(
                    name="Blanketed Ground",
                    kind="area hazard",
                    text="May conceal potholes, traps, and other hazards. "
                    "Participants can perceive what's under the fog by making a DC 12 Wisdom (Perception) check.",
                    check="wisdom (perception)",
                    dc=12,
                ),
                Feature(name="Thick Fog", kind="field", text="The area is heavily obscured."),
            ),
            world_actions=(
                WorldAction(
                    name="Shadow Puppet",
                    recharge=6,
                    targets="none",
                    summon=Summon(creature=SHADOW, initiative=20, looks_like_random_participant=True),
                    text="A shadow that looks identical to a random participant in the haze manifests and is "
                    "hostile to everyone (initiative 20). The shadow can see through the fog clearly.",
                ),
                WorldAction(
                    name="Twisting Haze",
                    targets="all",
                    effect="moves into a randomly determined unoccupied space within 5 feet",
                    text="All participants in the haze move into randomly determined unoccupied spaces within 5 feet.",
                ),
            ),
        ),
        Environment(
            id="rocky",
            name="Rocky",
            bonuses=(
                Feature(
                    name="Boulder",
                    kind="obstacle",
                    text="Can be dislodged and made to roll with a DC 15 Strength "
                    "(Athletics) check, dealing 2d10 bludgeoning damage to any creatures in its way (each makes a DC "
                    "12 Dexterity saving throw to negate the damage).",
                    check="strength (athletics)",
                    save="dexterity",
                    dc=12,
                    damage="2d10",
                    damage_type="bludgeoning",
                ),
                Feature(
                    name="Loose Rocks",
                    kind="object",
                    text="Can be used for a thrown weapon attack (1d4 bludgeoning, range 15/30 feet).",
                    damage="1d4",
                    damage_type="bludgeoning",
                ),
            ),
            penalties=(Feature(name="Uneven Footing", kind="area hazard", text="Counts as difficult terrain."),),
            world_actions=(
                WorldAction(
                    name="Falling Rocks",
                    recharge=5,
                    targets="chosen",
                    save="dexterity",
                    dc=15,
                    damage="2d6",
                    damage_type="bludgeoning",
                    text="Participants near a treacherous cliffside make a DC 15 "
                    "Dexterity saving throw or take 2d6 bludgeoning damage.",
                ),
            ),
        ),
        Environment(
            id="stormy",
            name="Stormy",
            penalties=(
                Feature(name="Heavy Precipitation", kind="field", text="The area counts as difficult terrain."),
                Feature(
                    name="Loud Winds",
                    kind="field",
                    text="All participants can only hear sounds within 15 feet of them (except for loud, explosive noises).",
                ),
            ),
            world_actions=(
                WorldAction(
                    name="Forceful Gale",
                    targets="one",
                    save="strength",
                    dc=12,
                    effect="is pushed 15 feet in one direction (this movement does not provoke opportunity attacks)",
                    text="A single participant makes a DC 12 Strength saving throw or they are pushed 15 feet in "
                    "one direction. This movement does not provoke opportunity attacks.",
                ),
                WorldAction(
                    name="Lightning Strike",
                    recharge=5,
                    targets="one",
                    save="dexterity",
                    dc=10,
                    damage="4d6",
                    damage_type="lightning",
                    once_per_target=True,
                    text="A single participant makes a DC 10 Dexterity saving throw or they take 4d6 lightning "
                    "damage. They cannot be targeted by this action again until Turn-Based Action ends.",
                ),
            ),
        ),
        Environment(
            id="swampy",
            name="Swampy",
            penalties=(
                Feature(name="Thick Trudge", kind="area hazard", text="Counts as difficult terrain."),
                Feature(
                    name="Tenacious Mud",
                    kind="area hazard",
                    text="When a participant ends their turn in this area "
                    "hazard, they make a DC 12 Strength saving throw or are restrained until the end of their next "
                    "turn. They can use their action to break free of this effect.",
                    save="strength",
                    dc=12,
                ),
            ),
            world_actions=(
                WorldAction(
                    name="Swamp Gas",
                    targets="chosen",
                    save="constitution",
                    dc=10,
                    condition="poisoned",
                    condition_ends="end",
                    text="Participants in mud make a DC 10 Constitution saving throw or are "
                    "poisoned until the end of their next turn.",
                ),
                WorldAction(
                    name="Leeches",
                    recharge=6,
                    targets="none",
                    summon=Summon(creature=LEECHES),
                    text="A swarm of insects (leeches) rises out of the swamp to attack any creature in the marsh.",
                ),
            ),
        ),
    )
}
