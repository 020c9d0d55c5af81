"""Regenerate combat/bestiary/srd_5_2.json from the SRD 5.2 records as Open5e compiles them.

Run from the repository root when the source records change; the output is committed and
shipped as package data, so installing the package never needs this script or the records:

    python scripts/build_bestiary.py [SOURCE_DIR]   # default ../shared/data/srd-5.2
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import msgspec

from combat.bestiary.open5e import stat_blocks

FILES = ("Creature.json", "CreatureAction.json", "CreatureActionAttack.json", "CreatureTrait.json")
OUTPUT = Path(__file__).resolve().parent.parent / "combat" / "bestiary" / "srd_5_2.json"


def build(source: Path, output: Path = OUTPUT) -> int:
    records = [record for name in FILES for record in json.loads((source / name).read_text(encoding="utf-8"))]
    blocks = sorted(stat_blocks(records), key=lambda b: b.name.lower())
    # One stat block a line: a change to one creature is a one-line diff.
    lines = ",\n".join(msgspec.json.encode(block).decode() for block in blocks)
    output.write_text(f"[\n{lines}\n]\n", encoding="utf-8")
    return len(blocks)


if __name__ == "__main__":
    source = (
        Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "srd-5.2"
    )
    print(f"{build(source)} stat blocks -> {OUTPUT}")
