"""Regenerate combat/bestiary/srd_5_2.json from the SRD 5.2 records as Open5e compiles them.

Run from the repository root when the source records change; the output is committed and
shipped as package data, so installing the package never needs this script or the records:

    python scripts/build_bestiary.py [SOURCE_DIR]   # default ../shared/data/srd-5.2
"""

from __future__ import annotations

from pathlib import Path

from open5e_records import read_records, source_from_argv, write_one_a_line

from combat.bestiary.open5e import stat_blocks

FILES = ("Creature.json", "CreatureAction.json", "CreatureActionAttack.json", "CreatureTrait.json")
OUTPUT = Path(__file__).resolve().parent.parent / "combat" / "bestiary" / "srd_5_2.json"


def build(source: Path, output: Path = OUTPUT) -> int:
    return write_one_a_line(output, sorted(stat_blocks(read_records(source, FILES)), key=lambda b: b.name.lower()))


if __name__ == "__main__":
    print(f"{build(source_from_argv())} stat blocks -> {OUTPUT}")
