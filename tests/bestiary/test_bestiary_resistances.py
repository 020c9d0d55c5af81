"""Magic Resistance and Legendary Resistance as data on every SRD 5.2 stat block that has them,
checked against the Open5e records themselves (the saves read them from the block)."""

from __future__ import annotations

import json
import re

import pytest

from combat.bestiary.library import srd
from combat.bestiary.model import BlockTrait, StatBlock
from tests.helpers import SRD_RECORDS

SOURCE = SRD_RECORDS


def _records() -> tuple[dict[str, str], list[dict]]:
    names = {r["pk"]: r["fields"]["name"] for r in json.loads((SOURCE / "Creature.json").read_text())}
    return names, [r["fields"] for r in json.loads((SOURCE / "CreatureTrait.json").read_text())]


@pytest.mark.skipif(not SOURCE.exists(), reason="the Open5e records are not beside this checkout")
def test_every_stat_block_with_magic_resistance_in_the_records_has_it_as_data():
    """ "Magic Resistance. The [creature] has Advantage on saving throws against spells and other
    magical effects." Every creature whose record has the trait, and no other, has
    `magic_resistance` (the Archmage, the Balor, the devils, the golems ... the Unicorn)."""
    names, traits = _records()
    expected = {names[t["parent"]] for t in traits if t["name"] == "Magic Resistance"}
    found = {b.name for b in srd() if b.magic_resistance}
    assert found == expected
    assert {"Archmage", "Balor", "Imp", "Unicorn", "Tarrasque"} <= found and len(found) >= 30


@pytest.mark.skipif(not SOURCE.exists(), reason="the Open5e records are not beside this checkout")
def test_every_stat_block_with_legendary_resistance_in_the_records_has_its_uses():
    """ "Legendary Resistance (3/Day, or 4/Day in Lair). If the aboleth fails a saving throw, it
    can choose to succeed instead": every creature with the trait has its uses a day, and its
    uses in its lair where the record gives them."""
    names, traits = _records()
    expected = {}
    for t in traits:
        m = re.fullmatch(r"Legendary Resistance \((\d+)/Day(?:, or (\d+)/Day in Lair)?\)", t["name"])
        if m:
            expected[names[t["parent"]]] = (int(m.group(1)), int(m.group(2)) if m.group(2) else None)
    found = {b.name: (b.legendary_resistance, b.legendary_resistance_in_lair) for b in srd() if b.legendary_resistance}
    assert found == expected
    assert found["Aboleth"] == (3, 4) and len(found) >= 30


def test_a_gms_own_block_has_magic_resistance_by_its_trait():
    """A block logged before `magic_resistance` existed, or a GM's own, has it from its trait."""
    block = StatBlock(name="Warded Knight", ac=18, hp=52, traits=(BlockTrait(name="Magic Resistance", text="..."),))
    assert block.magic_resistance and block.has_trait("magic resistance")
    assert not StatBlock(name="Knight", ac=18, hp=52).magic_resistance
