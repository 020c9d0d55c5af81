"""One set of bounds for a character sheet, on every way in: the ranges are declared once on
the sheet's fields (msgspec `Meta`), and `checked_sheet` holds a sheet from anywhere to them
(JSON, the builder, a Foundry import, `add_character`, the party's store).

The sheets here are drawn from the sheet's own type description (`msgspec.inspect`), so a
field added later is drawn, bounded and pushed out of bounds without this file changing."""

from __future__ import annotations

import copy
import re
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import inspect

from combat.characters.build import build_sheet
from combat.characters.foundry import import_actor
from combat.characters.sheet import SKILL_ABILITY, Abilities, CharacterSheet, checked_sheet
from combat.fivee.characters import AddCharacter
from combat.kernel.errors import RuleError
from tests.characters.foundry_actors import foundry_actor, item_of

SHEET = inspect.type_info(CharacterSheet)


# The texts the rules read, drawn from what they accept (any other text is drawn freely).
_DICE = st.sampled_from(["1d4", "1d6", "1d8", "2d6", "1d10+2", "3d6"])
_TEXTS: dict[str, st.SearchStrategy[Any]] = {
    "damage_dice": _DICE,
    "versatile_dice": _DICE,
    "damage": _DICE,
    "sneak_attack": _DICE,
    "martial_arts": _DICE,
    "dice": _DICE,
    "hit_dice": st.sampled_from(["", "5d6", "2d10+3d8"]),
    "skills": st.sampled_from(sorted(SKILL_ABILITY)),
    "expertise": st.sampled_from(sorted(SKILL_ABILITY)),
}
_WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ABCXYZ-'", min_size=1, max_size=20).filter(str.strip)


def _low_high(info: Any) -> tuple[int | None, int | None]:
    """A whole number's lowest and highest values (None: not declared)."""
    low = info.ge if info.ge is not None else None if info.gt is None else info.gt + 1
    high = info.le if info.le is not None else None if info.lt is None else info.lt - 1
    return low, high


def _drawn(info: Any, *, full: bool, text: st.SearchStrategy[Any] = _WORDS) -> st.SearchStrategy[Any]:
    """Values of `info`'s type within its bounds, as its JSON holds them. `full`: every list
    has an entry and every optional part is there, so every bounded field is on the sheet."""
    if isinstance(info, inspect.IntType):
        return st.integers(*_low_high(info))
    if isinstance(info, inspect.StrType):
        return text
    if isinstance(info, inspect.BoolType):
        return st.booleans()
    if isinstance(info, inspect.NoneType):
        return st.none()
    if isinstance(info, inspect.LiteralType):
        return st.sampled_from(info.values)
    if isinstance(info, inspect.UnionType):
        kinds = [t for t in info.types if not (full and isinstance(t, inspect.NoneType))]
        return st.one_of([_drawn(t, full=full, text=text) for t in kinds])
    if isinstance(info, inspect.VarTupleType | inspect.ListType):
        most = min(info.max_length if info.max_length is not None else 3, 3)
        return st.lists(_drawn(info.item_type, full=full, text=text), min_size=1 if full else 0, max_size=most)
    if isinstance(info, inspect.DictType):
        return st.dictionaries(_WORDS, _drawn(info.value_type, full=full), min_size=1 if full else 0, max_size=1)
    if isinstance(info, inspect.StructType):
        parts = {f.encode_name: _drawn(f.type, full=full, text=_TEXTS.get(f.encode_name, _WORDS)) for f in info.fields}
        needed = {k: v for k, v in parts.items() if full or any(f.required and f.encode_name == k for f in info.fields)}
        return st.fixed_dictionaries(needed, optional={k: v for k, v in parts.items() if k not in needed})
    raise AssertionError(f"no values drawn for {info!r}: add its kind here")


def _agreeing(sheet: dict[str, Any]) -> dict[str, Any]:
    """The fields that must agree with each other, made to: the level is the class levels'
    sum, pact slots have a level, a long range is at least the normal one."""
    if sheet.get("classes"):
        sheet["level"] = sum(sheet["classes"].values())
    casting = sheet.get("spellcasting")
    if casting and casting.get("pact_slots") and not casting.get("pact_level"):
        casting["pact_level"] = 1
    for attack in sheet.get("attacks", ()):
        if attack.get("normal_range") is not None and attack.get("long_range") is not None:
            attack["long_range"] = max(attack["long_range"], attack["normal_range"])
    return sheet


def sheets(*, full: bool = False) -> st.SearchStrategy[dict[str, Any]]:
    return _drawn(SHEET, full=full).map(_agreeing)


def _bounded(info: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every bounded place on the sheet: (path as the refusal names it, its type)."""
    found: list[tuple[str, Any]] = []
    if isinstance(info, inspect.IntType):
        found.append((path, info))
    elif isinstance(info, inspect.UnionType):
        for t in info.types:
            found += _bounded(t, path)
    elif isinstance(info, inspect.VarTupleType | inspect.ListType):
        if info.max_length is not None:
            found.append((path, info))
        found += _bounded(info.item_type, f"{path}[0]")
    elif isinstance(info, inspect.DictType):
        found += _bounded(info.value_type, f"{path}[...]")
    elif isinstance(info, inspect.StructType):
        for f in info.fields:
            found += _bounded(f.type, f"{path}.{f.encode_name}" if path else f.encode_name)
    return found


BOUNDED = _bounded(SHEET)


def _set(sheet: dict[str, Any], path: str, value: Any) -> None:
    steps = re.findall(r"(\w+)|\[(\d+|\.\.\.)\]", path)
    node: Any = sheet
    for i, (key, index) in enumerate(steps):
        last = i == len(steps) - 1
        slot = key or (int(index) if index != "..." else next(iter(node)))
        if last:
            node[slot] = value
        else:
            node = node[slot]


def _said(message: str) -> str:
    """The refusal's field path without the names of the list entries it passes through."""
    return re.sub(r"\] \([^()]*\)", "]", message)


def test_every_number_on_the_sheet_has_both_bounds_declared():
    """Every whole number of the sheet and its parts carries a lowest and a highest value in
    its `Meta`, so JSON, msgspec.convert, the JSON Schema and checked_sheet all hold it."""
    unbounded = [path for path, info in BOUNDED if isinstance(info, inspect.IntType) and None in _low_high(info)]
    assert len(BOUNDED) >= 30 and not unbounded


def test_the_published_schema_carries_the_bounds():
    """`GET /schemas/character` is msgspec's schema of the same type: max_hp's range is there."""
    schema = msgspec.json.schema(CharacterSheet)
    max_hp = schema["$defs"]["CharacterSheet"]["properties"]["max_hp"]
    assert (max_hp["minimum"], max_hp["maximum"]) == (1, 100_000)


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_a_sheet_within_its_bounds_is_taken_and_comes_back_the_same_through_json(sheet):
    """Any sheet checked_sheet takes encodes and decodes again to the same sheet, and is taken
    again as it is (so the party's store and a fight's log always read back what they wrote)."""
    taken = checked_sheet(sheet)
    again = msgspec.json.decode(msgspec.json.encode(taken), type=CharacterSheet)
    assert again == taken
    assert checked_sheet(taken) == taken == checked_sheet(msgspec.json.encode(sheet))


@settings(max_examples=150, deadline=None)
@given(sheets(full=True), st.sampled_from(BOUNDED), st.integers(1, 10**15), st.booleans())
def test_a_number_outside_its_bound_is_refused_naming_the_field_and_its_range(sheet, place, beyond, above):
    """Whatever bounded field is pushed out of its range, by a little or by 10^15, the sheet
    is refused (character/invalid) with the field's path in the message and its range allowed."""
    path, info = place
    if isinstance(info, inspect.IntType):
        low, high = _low_high(info)
        assert low is not None and high is not None, f"{path} has no bounds declared"
        _set(sheet, path, high + beyond if above else low - beyond)
        expected = f"from {low} to {high}"
    else:  # a list with a longest length
        _set(sheet, path, [0] * (info.max_length + 1))
        expected = f"at most {info.max_length} entries"
    with pytest.raises(RuleError) as refused:
        checked_sheet(sheet)
    error = refused.value
    assert error.code == "character/invalid"
    assert f": {path} " in _said(error.message) and expected in (error.allowed or "")


def test_a_sheet_built_in_python_is_held_to_the_same_bounds():
    """The constructor checks nothing: a sheet with a Strength of 31 and 10^12 HP built in Python
    is refused by checked_sheet as it would be from JSON."""
    built = CharacterSheet(name="Brann", ac=18, max_hp=10**12)
    with pytest.raises(RuleError, match=r"max_hp 1000000000000 is refused") as refused:
        checked_sheet(built)
    assert refused.value.allowed == "max_hp: a whole number from 1 to 100000"


def test_the_builder_refuses_scores_beyond_30_given_as_abilities():
    """`build_sheet` with an `Abilities` (not the text parse_scores reads) goes through the same
    check: Strength 31 is refused naming abilities.strength."""
    with pytest.raises(RuleError, match=r"abilities\.strength 31") as refused:
        build_sheet(name="Brann", class_name="Fighter", level=5, scores=Abilities(strength=31))
    assert refused.value.code == "character/invalid"


def test_a_level_that_is_not_the_sum_of_the_class_levels_is_refused():
    """The sheet's level is its character level: a Fighter 3 / Wizard 2 is level 5, not 7."""
    with pytest.raises(RuleError, match=r"level 7 with classes") as refused:
        checked_sheet({"name": "Brann", "ac": 16, "max_hp": 40, "level": 7, "classes": {"Fighter": 3, "Wizard": 2}})
    assert "sum of the class levels" in (refused.value.allowed or "")


def test_a_whole_sheet_beyond_its_bounds_cannot_join_a_fight(table):
    """`add_character` with a sheet sent whole (built in Python, so no JSON decoding held it)
    is refused, and nothing is appended."""
    sheet = CharacterSheet(name="Brann", ac=10**9, max_hp=30)
    error = table.rejects(AddCharacter(character=sheet, side="party"), "character/invalid")
    assert "ac 1000000000" in error.message and error.allowed == "ac: a whole number from 0 to 100"


# --- from Foundry -------------------------------------------------------------------------------


def fighter_with_hp(hp: Any) -> dict[str, Any]:
    actor = copy.deepcopy(foundry_actor("fighter-4x"))
    actor["system"]["attributes"]["hp"]["max"] = hp
    return actor


def test_a_foundry_fighter_with_a_trillion_hit_points_is_refused_saying_where_foundry_keeps_them():
    """hp.max 10^12: the sheet holds at most 100,000; the refusal names max_hp, its range and
    the actor's field it was read from."""
    with pytest.raises(RuleError) as refused:
        import_actor(fighter_with_hp(10**12))
    error = refused.value
    assert error.code == "character/invalid"
    assert "max_hp 1000000000000" in error.message and "system.attributes.hp.max" in error.message
    assert error.allowed == "max_hp: a whole number from 1 to 100000"


def test_a_foundry_import_with_negative_hit_points_is_refused_too():
    """An import is checked whether or not it is saved: hp.max -5 is below the sheet's 1."""
    with pytest.raises(RuleError, match=r"max_hp -5 is refused"):
        import_actor(fighter_with_hp(-5))


def test_a_foundry_wizard_with_5000_first_level_slots_is_refused():
    """spell1.override 5000: at most 1,000 slots of a level."""
    actor = copy.deepcopy(foundry_actor("wizard-2x"))
    actor["system"]["spells"]["spell1"]["override"] = 5000
    with pytest.raises(RuleError, match=r"spellcasting\.slots\[0\] 5000 is refused") as refused:
        import_actor(actor)
    assert "system.spells" in refused.value.message


def test_a_foundry_feature_with_5000_uses_is_refused_naming_it():
    """Second Wind's uses.max 5000: the refusal names the resource by its item's name."""
    actor = copy.deepcopy(foundry_actor("randal-premade"))
    item_of(actor, "Second Wind")["system"]["uses"]["max"] = "5000"
    with pytest.raises(RuleError, match=r"resources\[\d\] \(Second Wind\)\.uses 5000 is refused"):
        import_actor(actor)


def test_a_foundry_longsword_whose_die_is_a_word_is_refused_naming_the_item():
    """dnd5e 4.x damage.base.denomination "eight": refused as foundry/unreadable, naming the
    Longsword and saying number and denomination are whole numbers."""
    actor = copy.deepcopy(foundry_actor("fighter-4x"))
    item_of(actor, "Longsword")["system"]["damage"]["base"]["denomination"] = "eight"
    with pytest.raises(RuleError) as refused:
        import_actor(actor)
    error = refused.value
    assert error.code == "foundry/unreadable"
    assert "item 'Longsword' (weapon): damage.base.denomination is 'eight'" in error.message
    assert "whole numbers from 1 to 100" in (error.allowed or "")


def test_a_foundry_dagger_whose_damage_part_is_not_a_formula_is_refused_naming_the_item():
    """dnd5e 2.x damage.parts [[4, "piercing"]]: a part is a [formula, type] pair."""
    actor = copy.deepcopy(foundry_actor("wizard-2x"))
    item_of(actor, "Dagger")["system"]["damage"]["parts"] = [[4, "piercing"]]
    with pytest.raises(RuleError, match=r"item 'Dagger' \(weapon\): damage\.parts\[0\]") as refused:
        import_actor(actor)
    assert refused.value.code == "foundry/unreadable" and '"1d8 + @mod"' in (refused.value.allowed or "")


def test_a_foundry_class_of_a_billion_levels_is_refused_before_its_hit_points_are_read():
    """levels 10^9: refused at once (the Hit Points advancement is read a level at a time)."""
    actor = copy.deepcopy(foundry_actor("fighter-4x"))
    next(i for i in actor["items"] if i["type"] == "class")["system"]["levels"] = 10**9
    with pytest.raises(RuleError, match=r"class 'Fighter': system\.levels 1000000000") as refused:
        import_actor(actor)
    assert refused.value.allowed == "a whole number from 1 to 20"


def test_a_foundry_hp_of_infinity_is_not_a_number_the_importer_reads():
    """hp.max "Infinity": not a number, so HP come from the Hit Points advancement (45) as for null."""
    sheet, _ = import_actor(fighter_with_hp("Infinity"))
    assert sheet.max_hp == 45
