"""Regenerate combat/spells/srd_5_2_spells.json from the SRD 5.2 spell records as Open5e compiles them.

Run from the repository root when the source records change; the output is committed and
shipped as package data, so installing the package never needs this script or the records:

    python scripts/build_spells_data.py [SOURCE_DIR]   # default ../shared/data/srd-5.2

What is read from where, and how a spell is judged full, partial or narrative: combat/spells/srd.py.
"""

from __future__ import annotations

from pathlib import Path

from open5e_records import read_records, source_from_argv, write_one_a_line

from combat.spells.srd import spells

FILES = ("Spell.json", "SpellCastingOption.json")
OUTPUT = Path(__file__).resolve().parent.parent / "combat" / "spells" / "srd_5_2_spells.json"


def build(source: Path, output: Path = OUTPUT) -> int:
    return write_one_a_line(output, spells(read_records(source, FILES)))


if __name__ == "__main__":
    print(f"{build(source_from_argv())} spells -> {OUTPUT}")
