"""Each scripts/build_*.py regenerates the data file the package ships from the SRD 5.2 records
as Open5e compiles them, byte for byte (so the committed file is what its script makes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import ROOT, SRD_RECORDS, script_build

BUILT = {  # each script: the file it writes, and how many it says it wrote (stat blocks, classes, spells)
    "build_bestiary": ("combat/bestiary/srd_5_2.json", 331),
    "build_characters_data": ("combat/characters/srd_5_2.json", 12),
    "build_spells_data": ("combat/spells/srd_5_2_spells.json", 339),
}


def test_every_build_script_is_checked_here():
    assert sorted(p.stem for p in (ROOT / "scripts").glob("build_*.py")) == sorted(BUILT)


@pytest.mark.skipif(not SRD_RECORDS.exists(), reason="the Open5e records (../shared/data/srd-5.2) are not beside this checkout")
@pytest.mark.parametrize("script", sorted(BUILT))
def test_the_shipped_data_is_what_its_script_builds_from_the_open5e_records(script, tmp_path):
    committed, count = BUILT[script]
    built = tmp_path / Path(committed).name
    assert script_build(script, SRD_RECORDS, built) == count
    assert built.read_bytes() == (ROOT / committed).read_bytes()
