"""A spell as the engine reads it: the SRD 5.2 record with its mechanics as data.

Everything here is read from the record and its text by scripts/build_spells_data.py (see
combat/spells/srd.py for what each field is read from); nothing here applies a rule. A
command that casts a spell takes these fields and leaves to the GM what `manual` lists.

Dice are in the engine's notation without spaces ("8d6", "1d4+1"). Durations are counted in
rounds: 1 minute is 10 rounds, 1 hour 600, 1 day 14,400.
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = [
    "Ability",
    "Ends",
    "Duration",
    "Area",
    "Targets",
    "Save",
    "DamageRoll",
    "Healing",
    "ConditionImposed",
    "HpBand",
    "Restoration",
    "RollBonus",
    "Projectiles",
    "Upcast",
    "Scaling",
    "Option",
    "FollowUp",
    "Review",
    "SpellRiders",
    "Spell",
    "AUTOMATION",
]

Ability = Literal["strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma"]
# A short effect that ends at a turn boundary of the caster's rather than after whole rounds.
Ends = Literal["start_of_your_next_turn", "end_of_your_next_turn"]
AUTOMATION = ("full", "partial", "narrative")


class _Part(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    pass


class Duration(_Part, frozen=True, kw_only=True):
    """`text` as the SRD gives it ("1 minute", "Until dispelled"); `rounds` when it is a time:
    0 for "Instantaneous", 1 round, 10 a minute, 600 an hour, 14,400 a day; None for "Until
    dispelled", "Until dispelled or triggered" and "Special".

    `ends`: a one-round spell whose text says when it ends ("Until the start of your next
    turn, you have a +5 bonus to AC" - Shield) ends at that boundary of the caster's turn."""

    text: str
    rounds: int | None = None
    ends: Ends | None = None


class Area(_Part, frozen=True, kw_only=True):
    """ "a 20-foot-radius Sphere": shape sphere, size 20 (feet: the radius of a sphere, cylinder
    or emanation, the side of a cube, the length of a cone or line)."""

    shape: Literal["sphere", "cube", "cone", "line", "cylinder", "emanation"]
    size: int
    width: int | None = None  # a line's: "a 100-foot-long, 5-foot-wide Line"


class Targets(_Part, frozen=True, kw_only=True):
    """Who the spell affects: up to `count` creatures ("Up to three creatures": 3), every
    creature in `area`, or both ("Choose up to six creatures in a 30-foot-radius Sphere");
    neither for a Self spell (the caster) or a spell whose darts, rays or beams each pick a
    target (see `Projectiles`)."""

    count: int | None = None
    area: Area | None = None
    # Set by a reviewed entry (combat/spells/reviewed/); a draft leaves them unset:
    # `who`: "self" (the caster only: Shield), "creatures" (those named, up to `count`, plus
    # `per_slot` for each slot level above the spell's: "one additional creature for each
    # spell slot level above 1"), "area" (the creatures the GM names in `area`, no cap unless
    # the text gives one in `count`). The caster may be named in the area only where
    # `caster_included` (Fireball's Sphere: yes; Burning Hands's Cone from the caster, and
    # Entangle's "Each creature (other than you)": no).
    who: Literal["self", "creatures", "area"] | None = None
    per_slot: int = 0
    caster_included: bool = False
    # "a Humanoid": a target of another type (its stat block's) is refused.
    creature_types: tuple[str, ...] = ()


class Save(_Part, frozen=True, kw_only=True):
    """The saving throw a target makes.

    `half_on_success`: "... or half as much damage on a successful one" (also "half as much
    damage only"). `repeats`: "At the end of each of its turns, the target repeats the save,
    ending the spell on itself on a success" (Hold Person) is `end_of_each_turn`; the start of
    each turn likewise; other repeats (when it takes damage, every 30 days) stay in the text."""

    ability: Ability
    half_on_success: bool = False
    repeats: Literal["end_of_each_turn", "start_of_each_turn"] | None = None


class DamageRoll(_Part, frozen=True, kw_only=True):
    """One roll of damage: `types` has one entry, or several when the caster chooses one
    ("Choose Acid, Cold, Fire, Lightning, Poison, or Thunder" - Chromatic Orb)."""

    dice: str
    types: tuple[str, ...]


class Healing(_Part, frozen=True, kw_only=True):
    """ "regains a number of Hit Points equal to 2d8 plus your spellcasting ability modifier"
    (Cure Wounds): dice 2d8, plus_modifier."""

    dice: str
    plus_modifier: bool = False


class ConditionImposed(_Part, frozen=True, kw_only=True):
    """A condition the spell gives its targets (on a failed save when the spell has one):
    "must succeed on a Wisdom saving throw or have the Paralyzed condition for the duration".
    `ends`: sooner than the spell ("have the Blinded condition until the end of your next
    turn" - Color Spray); unset, it lasts as long as the spell."""

    name: str  # lower case, as the engine's conditions are named
    ends: Ends | None = None
    # More from the same failed save, ending with it (combat/fivee/spell_conditions.py):
    # "it has the Prone and Incapacitated conditions" (Hideous Laughter) is incapacitated with
    # `also` prone; "While Charmed, the creature has the Incapacitated condition and a Speed of
    # 0" (Hypnotic Pattern) is charmed with `also` incapacitated and `speed_zero`.
    also: tuple[str, ...] = ()
    speed_zero: bool = False


class HpBand(_Part, frozen=True, kw_only=True):
    """What the spell does to a target by its current Hit Points, read in order, the first band
    whose `at_most` holds it applying (combat/fivee/spell_riders.py): "If the target has 100
    Hit Points or fewer, it dies" (Power Word Kill: at_most 100, dies); "the Blinded, Deafened,
    and Stunned conditions for 1 hour" (Divine Word's 21-30: at_most 30, those conditions, 600
    rounds). `at_most` unset: any Hit Points above the bands before it ("Otherwise, its Speed is
    0 until the start of your next turn" - Power Word Stun). A target above every band takes the
    spell's damage, if it has any. A spell with a save applies them on a failed save.

    `save`: "makes a Constitution saving throw at the end of each of its turns, ending the
    condition on itself on a success" against the caster's spell save DC; `ends`: until that
    boundary of the caster's turn."""

    at_most: int | None = None
    dies: bool = False
    conditions: tuple[str, ...] = ()
    rounds: int | None = None
    ends: Ends | None = None
    save: Ability | None = None
    speed_zero: bool = False


class Restoration(_Part, frozen=True, kw_only=True):
    """What a healing spell ends or restores beyond Hit Points rolled (combat/fivee/spell_restoration.py):

    - `conditions`: ended on the target if it has them ("This spell also ends the Blinded,
      Deafened, and Poisoned conditions on the target" - Heal); with `one_of`, the caster names
      one of them in `CastSpell.option` ("end one condition on it: Blinded, Deafened, Paralyzed,
      or Poisoned" - Lesser Restoration), `exhaustion` adding "1 Exhaustion level" to the
      choice (Greater Restoration);
    - `all_hit_points`: "The target regains all its Hit Points" (Power Word Heal), and
      `stand_up`: "If the creature has the Prone condition, it can use its Reaction to stand
      up" (option "stand up");
    - `stabilize`: "Choose a creature within range that has 0 Hit Points and isn't dead. The
      creature becomes Stable" (Spare the Dying);
    - `revive_within`: "You touch a creature that has died within the last minute. That
      creature revives with 1 Hit Point" (Revivify: 10 rounds)."""

    conditions: tuple[str, ...] = ()
    one_of: bool = False
    exhaustion: bool = False
    all_hit_points: bool = False
    stand_up: bool = False
    stabilize: bool = False
    revive_within: int | None = None


class RollBonus(_Part, frozen=True, kw_only=True):
    """Dice added to a target's d20 rolls while the spell lasts: "the target adds 1d4 to the
    attack roll or save" (Bless) is 1d4 on attack rolls and saving throws; Bane's "must
    subtract 1d4" is -1d4."""

    dice: str
    rolls: tuple[Literal["attack_rolls", "saving_throws", "ability_checks"], ...]


class Projectiles(_Part, frozen=True, kw_only=True):
    """Several separate hits from one casting, each aimed at any target in range and each
    dealing the spell's damage: Magic Missile's three darts, Scorching Ray's three rays (an
    attack roll each), Eldritch Blast's beams (one, more at character levels 5, 11, 17)."""

    kind: Literal["darts", "rays", "beams"]
    count: int


class Upcast(_Part, frozen=True, kw_only=True):
    """What a slot of `slot` level changes (only what changes is set): from the SRD's
    per-slot options, e.g. Fireball at slot 5: damage 10d6; Magic Missile at slot 2: 4 darts."""

    slot: int
    damage: tuple[DamageRoll, ...] = ()
    healing: Healing | None = None
    targets: int | None = None
    projectiles: int | None = None
    area_size: int | None = None
    range: int | None = None
    duration: Duration | None = None
    concentration: bool | None = None
    text: str = ""  # what the option says when it is not one of the numbers above


class Scaling(_Part, frozen=True, kw_only=True):
    """A cantrip at a character level (5, 11, 17): Fire Bolt's 2d10 at level 5, Eldritch
    Blast's two beams."""

    character_level: int
    damage: tuple[DamageRoll, ...] = ()
    projectiles: int | None = None
    text: str = ""


class Option(_Part, frozen=True, kw_only=True):
    """One of the effects the caster picks in the command (`CastSpell.option`): Command's
    "Grovel. The target has the Prone condition and then ends its turn." Its `condition` lands
    on a failed save; `text` is the SRD's sentence for it, for the GM."""

    name: str  # lower case, as the command names it: "grovel"
    condition: ConditionImposed | None = None
    text: str = ""
    riders: SpellRiders | None = None  # in place of the spell's when this option is chosen (Bestow Curse's 1d8, Enlarge/Reduce)


class FollowUp(_Part, frozen=True, kw_only=True):
    """One thing `spell_effect` does again while the spell lasts (combat/fivee/spell_effect_uses.py).

    - `name`: how the command's `option` picks it among several ("ram", "storm"); the first
      is the one taken when the command names none;
    - `roll`: "attack" (a spell attack at one creature: Spiritual Weapon), "save" (each
      creature named saves: Spirit Guardians) or "damage" with neither (Heat Metal);
    - `uses`: what the caster spends on it, its "bonus_action" or a "magic" action; unset,
      nothing: a creature's move or turn sets it off ("when it enters the spell's area or ends
      its turn there", the GM naming the creatures), or, with `your_turn`, it comes on the
      caster's turn ("On each of your turns, such a phantasm can deal 2d8 Psychic damage");
    - `save`, `damage`, `per_slot`: its own save and damage where they are not the spell's as
      cast (Flaming Sphere has none as cast), with `per_slot` dice more for each slot level
      above the spell's; unset, the spell's at the level it was cast at;
    - `more`: dice added ("Under such conditions, the spell's damage increases by 1d10");
    - `plus_modifier`: "4d6 plus your spellcasting ability modifier";
    - `per_feet`: the damage is for every so many feet a creature moves, the GM naming how
      far ("2d4 Piercing damage for every 5 feet it travels");
    - `heals_half`: "you regain Hit Points equal to half the amount of Necrotic damage dealt";
    - `condition`, `until`: a failed save's condition, lasting until the spell ends, "until
      the end of the current turn" (`end_of_its_turn`), or until it is removed (Prone: `removed`);
      `ends_concentration`: a failed save also ends the creature's Concentration (Sleet Storm);
    - `needs`: a condition this spell gave the target that must still hold ("While the hand
      grapples the target");
    - `delayed`: once, on the target's next turn, with no concentration ("2d4 Acid damage at
      the end of its next turn"), for a creature the spell hit or that failed its save;
    - `granted`: the creature the spell was cast on acts, not its caster ("the target can take
      a Magic action to exhale a 15-foot Cone" - Dragon's Breath)."""

    name: str = ""
    roll: Literal["attack", "save", "damage"]
    uses: Literal["bonus_action", "magic"] | None = None
    save: Save | None = None
    damage: tuple[DamageRoll, ...] = ()
    per_slot: str = ""
    more: str = ""
    plus_modifier: bool = False
    per_feet: int = 0
    heals_half: bool = False
    condition: str = ""
    until: Literal["spell_ends", "end_of_its_turn", "removed"] = "spell_ends"
    ends_concentration: bool = False
    your_turn: bool = False
    needs: str = ""
    delayed: bool = False
    granted: bool = False


class SpellRiders(_Part, frozen=True, kw_only=True):
    """What a reviewed spell does beyond damage, healing, a condition and bonuses: its lasting
    effect's riders (combat/kernel/riders.py gives each one's sentence), and what happens at a
    later moment. `cast_spell` gives them to the effect named for the spell on each target
    (combat/fivee/spell_effects_ongoing.py), with the numbers worked out at this casting:

    - `ac_base`: 13 for Mage Armor's "base AC becomes 13 plus its Dexterity modifier";
    - `max_hp`, `max_hp_per_slot`: Aid's 5, and its "increase by 5 for each spell slot level
      above 2";
    - `temp_hp_each_turn`: Heroism's Temporary Hit Points, the caster's spellcasting modifier;
    - `immune_to`, `speed_times`, `save_advantage`, `extra_action`, `lethargy`: Heroism's
      immunity to Frightened, Haste's doubled Speed, Advantage on Dexterity saves, additional
      action and the lethargy when it ends;
    - `cannot`: Confusion's "can't take Bonus Actions or Reactions" ("bonus_action", "reaction"),
      on the effect a failed save leaves, with the save repeated at the end of its turns where
      the entry's `save.repeats` says so;
    - `on_hit`: what an attack spell's hit leaves on the target until the end of the caster's
      next turn: `advantage_against` (Guiding Bolt) or `no_healing` (Chill Touch);
    - `fails_into`, `ends_on_damage`: Sleep's Unconscious on the second failed save, and its
      end when the target takes damage;
    - `beast_form`: Polymorph's Temporary Hit Points, the chosen Beast's Hit Points
      (`CastSpell.option` names the Beast);
    - `dust_at_zero`: Disintegrate: "If this damage reduces it to 0 Hit Points, it ... [is]
      disintegrated into gray dust";
    - `follow_up`: what `spell_effect` does later while the caster concentrates (Acid
      Arrow's: on its target's next turn), one `FollowUp` or several the command picks among;
      `saves_later`: its save is the only one, none as it is cast ("The first time a creature
      enters the webs on a turn or starts its turn there" - Web); `cannot`: what of its turn's
      economy a target can't take (Confusion's "can't take Bonus Actions or Reactions");
      `damage_plus_modifier`: "1d8 plus your spellcasting ability modifier";
    - what a spell adds to hits (combat/fivee/hit_damage.py): `hit_dice` of the spell's damage
      type on `hit_on` "target" (Hunter's Mark, Hex: the caster's hits on the target) or
      "weapons" (Divine Favor: the caster's weapon hits); `weapon_bonus`: Magic Weapon's +1, as
      (lowest slot, bonus) steps; `chosen_check_disadvantage`: Hex's chosen ability (the
      command's `option`); `move_mark`: Hunter's Mark and Hex move to a new creature once theirs drops
      to 0 Hit Points;
    - what a spell cast right after a hit does (combat/fivee/after_hit.py): `after_hit`, the hit
      it follows: "melee" ("immediately after hitting a target with a Melee weapon or an
      Unarmed Strike": the smites) or "weapon" ("after hitting a creature with a weapon":
      Ensnaring Strike); `extra_against`, `extra_against_dice`: Divine Smite's "The damage
      increases by 1d8 if the target is a Fiend or an Undead";
    - `turn_start_dice`, `turn_start_save`: damage at the start of each of the target's turns,
      one die more per slot level above the spell's, then the save that ends it (Searing
      Smite; Ensnaring Strike's has none); `large_save_advantage`: Ensnaring Strike's "A Large
      or larger creature has Advantage on this save";
    - `attacked_with`, `from_types`, `no_invisible`, `resistances`, `ac_floor`, `save_bonus`,
      `speed_bonus`, `ends_when_acts`, `shares_damage`: the defences and their ends of
      combat/fivee/spell_defences.py (Blur, Faerie Fire, Protection from Evil and Good,
      Shining Smite, Stoneskin, Barkskin, Warding Bond, Longstrider, Invisibility); `seen_only`:
      Faerie Fire's Advantage is "if the attacker can see it";
      `resistance_choice`: the types the caster picks one of in `CastSpell.damage_type`
      ("Resistance to one damage type of your choice: Acid, Cold, Fire, Lightning, or Thunder");
    - `save_disadvantage`, `check_advantage`, `check_disadvantage`, `weapon_damage`: Enlarge's
      "Advantage on Strength checks" and "an extra 1d4 damage", Reduce's Disadvantage and "1d4
      less damage" (each an `Option`'s riders);
    - `duplicates`: Mirror Image's three duplicates (combat/fivee/mirror_image.py); `ward`:
      Sanctuary's Wisdom save for a creature that targets the warded one, against the caster's
      spell save DC (combat/fivee/sanctuary.py); `reduce_dice`, `reduce_choice`: Resistance's
      "reduces the total damage taken by 1d4", of the type chosen in `CastSpell.damage_type`
      (combat/fivee/damage_reduction.py)."""

    ac_base: int | None = None
    max_hp: int | None = None
    max_hp_per_slot: int = 0
    temp_hp_each_turn: bool = False
    immune_to: tuple[str, ...] = ()
    speed_times: int | None = None
    save_advantage: tuple[Ability, ...] = ()
    extra_action: str = ""
    lethargy: bool = False
    on_hit: Literal["advantage_against", "no_healing"] | None = None
    fails_into: str | None = None
    ends_on_damage: bool = False
    beast_form: bool = False
    dust_at_zero: bool = False
    follow_up: tuple[FollowUp, ...] = ()
    saves_later: bool = False
    cannot: tuple[Literal["bonus_action", "reaction"], ...] = ()
    damage_plus_modifier: bool = False
    hit_dice: str = ""
    hit_on: Literal["target", "weapons"] | None = None
    weapon_bonus: tuple[tuple[int, int], ...] = ()
    chosen_check_disadvantage: bool = False
    move_mark: bool = False
    after_hit: Literal["melee", "weapon"] | None = None
    extra_against: tuple[str, ...] = ()
    extra_against_dice: str = ""
    turn_start_dice: str = ""
    turn_start_save: Ability | None = None
    large_save_advantage: bool = False
    attacked_with: Literal["advantage", "disadvantage"] | None = None
    from_types: tuple[str, ...] = ()
    no_invisible: bool = False
    seen_only: bool = False
    resistances: tuple[str, ...] = ()
    resistance_choice: tuple[str, ...] = ()
    ac_floor: int | None = None
    save_bonus: int | None = None
    speed_bonus: int | None = None
    ends_when_acts: bool = False
    shares_damage: bool = False
    save_disadvantage: tuple[Ability, ...] = ()
    check_advantage: tuple[Ability, ...] = ()
    check_disadvantage: tuple[Ability, ...] = ()
    weapon_damage: str = ""
    duplicates: int | None = None
    ward: bool = False
    reduce_dice: str = ""
    reduce_choice: tuple[str, ...] = ()


class Review(_Part, frozen=True, kw_only=True):
    """A person read the entry against the spell's SRD text, sentence by sentence.

    `changes`: what was changed from the draft, in words. `text_sha`: the first 16 hex digits
    of the SHA-256 of the text reviewed (desc, a newline, higher_level): a draft whose text
    changes makes the review stale, and the catalogue's test says so."""

    reviewed: bool = True
    changes: tuple[str, ...] = ()
    text_sha: str


class Spell(_Part, frozen=True, kw_only=True):
    """One spell. `automation` says how much of it the fields describe:

    - full: every sentence of the text that changes a fight (damage, healing, a condition,
      AC, a bonus to rolls, who is affected, saves and their repeats) is in the fields;
      sentences about objects only ("Flammable objects ... start burning") are left aside;
    - partial: some of it is in the fields and `manual` quotes the sentences the GM applies;
    - narrative: none of it is (Detect Magic, Fly): the GM applies the text as written."""

    name: str
    level: int  # 0: a cantrip
    school: str
    casting_time: Literal["action", "bonus_action", "reaction", "other"]
    casting_time_text: str = ""  # for "other": "1 minute", "10 minutes", "1 hour"
    reaction_trigger: str = ""  # "which you take when you are hit by an attack roll ..."
    range: int | Literal["self", "touch", "sight", "unlimited", "special"]  # feet (a mile: 5,280)
    range_text: str
    components: str  # "V, S, M"
    material: str = ""
    ritual: bool = False
    concentration: bool = False
    duration: Duration
    targets: Targets = Targets()
    attack: Literal["melee", "ranged"] | None = None
    save: Save | None = None
    damage: tuple[DamageRoll, ...] = ()
    damage_types: tuple[str, ...] = ()  # every type the SRD lists for the spell
    healing: Healing | None = None
    condition: ConditionImposed | None = None
    ac_bonus: int | None = None  # "a +2 bonus to AC for the duration"; lasts as `duration` says
    roll_bonus: RollBonus | None = None
    projectiles: Projectiles | None = None
    upcast: tuple[Upcast, ...] = ()
    cantrip_scaling: tuple[Scaling, ...] = ()
    classes: tuple[str, ...] = ()  # lower case: "wizard"
    automation: Literal["full", "partial", "narrative"]
    manual: tuple[str, ...] = ()  # what the GM applies by hand
    # Riders a reviewed entry can carry (a draft never sets them):
    options: tuple[Option, ...] = ()  # the caster picks one in the command (Command's five)
    hp_bands: tuple[HpBand, ...] = ()  # by its current Hit Points: "If the target has 100 Hit Points or fewer, it dies"
    restores: Restoration | None = None  # conditions ended, all Hit Points, Stable, revived
    dispels: bool = False  # ends the spells on its target (Dispel Magic: combat/fivee/spell_dispel.py)
    # A spell on named creatures whose whole lasting effect is a failed save's: when every
    # target succeeds nothing is left to concentrate on, and the concentration ends.
    lapses_when_all_save: bool = False
    riders: SpellRiders | None = None  # its lasting effect's riders and later moments
    desc: str = ""  # a reviewed entry leaves the text to the draft it was reviewed against
    higher_level: str = ""
    review: Review | None = None  # None: the draft, not reviewed

    def at_slot(self, slot: int) -> Upcast | None:
        """What a slot of that level changes, if anything."""
        return next((u for u in self.upcast if u.slot == slot), None)

    def duration_at(self, slot: int | None) -> tuple[Duration, bool]:
        """The duration and whether it needs concentration at this slot ("Your Concentration
        can last longer with a spell slot of level 6 (up to 10 minutes)" - Dominate Person)."""
        up = self.at_slot(slot) if slot is not None and slot > self.level else None
        if up is None or up.duration is None:
            return self.duration, self.concentration
        return up.duration, self.concentration if up.concentration is None else up.concentration

    def at_character_level(self, level: int) -> Scaling | None:
        """A cantrip's strongest scaling step reached at that character level."""
        reached = [s for s in self.cantrip_scaling if s.character_level <= level]
        return reached[-1] if reached else None
