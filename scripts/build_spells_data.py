"""Regenerate combat/spells/srd_5_2_spells.json from the SRD 5.2 spell records as Open5e compiles them.

Run from the repository root when the source records change; the output is committed and
shipped as package data, so installing the package never needs this script or the records:

    python scripts/build_spells_data.py [SOURCE_DIR]   # default ../shared/data/srd-5.2

What is read from where, and how a spell is judged full, partial or narrative: combat/spells/srd.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import msgspec

from combat.spells.srd import spells

FILES = ("Spell.json", "SpellCastingOption.json")
OUTPUT = Path(__file__).resolve().parent.parent / "combat" / "spells" / "srd_5_2_spells.json"


def build(source: Path, output: Path = OUTPUT) -> int:
    records = [record for name in FILES for record in json.loads((source / name).read_text(encoding="utf-8"))]
    found = spells(records)
    # One spell a line: a change to one spell is a one-line diff.
    lines = ",\n".join(msgspec.json.encode(spell).decode() for spell in found)
    output.write_text(f"[\n{lines}\n]\n", encoding="utf-8")
    return len(found)


if __name__ == "__main__":
    source = (
        Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "srd-5.2"
    )
    print(f"{build(source)} spells -> {OUTPUT}")
