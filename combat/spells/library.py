"""Finding a spell by name: the SRD 5.2's 339, shipped in the package.

Two files hold them: srd_5_2_spells.json is the draft, read by scripts/build_spells_data.py
from Open5e's fields and prose; reviewed/level_N.json holds the entries a person checked
against the SRD text, sentence by sentence (`Spell.review`). The reviewed entry is what the
engine reads; a spell without one is cast as its draft says and shown as "draft, not
reviewed" (`reviewed()` tells which). A reviewed entry keeps no text of its own: the draft's
(the SRD's words) is joined to it, and `text_sha` says which text it was reviewed against.

`find` is what a character sheet's spell names and a stat block's Spellcasting lists resolve
against; `search` is what `combat spells` and GET /spells list; `counts` says how many are
fully, partially or only narratively described by their fields (docs/spells.md quotes it).
"""

from __future__ import annotations

import functools
import hashlib

import msgspec

from combat.kernel.errors import RuleError
from combat.kernel.names import closest
from combat.spells.model import AUTOMATION, Spell

__all__ = ["srd", "drafts", "reviewed_entries", "text_sha", "by_name", "find", "search", "counts", "draft_label"]

_spells = msgspec.json.Decoder(list[Spell])


@functools.cache
def drafts() -> tuple[Spell, ...]:
    """The 339 as scripts/build_spells_data.py read them (CC-BY-4.0; see NOTICE.md beside the data)."""
    from importlib import resources  # with tempfile and shutil: loaded when the data is read, not at import

    return tuple(_spells.decode(resources.files(__package__).joinpath("srd_5_2_spells.json").read_bytes()))


@functools.cache
def reviewed_entries() -> tuple[Spell, ...]:
    """The reviewed entries as stored (without their text), every level's file in turn."""
    from importlib import resources

    folder = resources.files(__package__).joinpath("reviewed")
    found: list[Spell] = []
    for level in range(10):
        path = folder.joinpath(f"level_{level}.json")
        if path.is_file():
            found.extend(_spells.decode(path.read_bytes()))
    return tuple(found)


def text_sha(spell: Spell) -> str:
    """What `Review.text_sha` holds for the text a spell was reviewed against."""
    return hashlib.sha256(f"{spell.desc}\n{spell.higher_level}".encode()).hexdigest()[:16]


@functools.cache
def srd() -> tuple[Spell, ...]:
    """The 339 SRD 5.2 spells, by name: each reviewed entry with its draft's text, else the draft."""
    reviewed = {s.name.lower(): s for s in reviewed_entries()}
    return tuple(
        msgspec.structs.replace(reviewed[d.name.lower()], desc=d.desc, higher_level=d.higher_level)
        if d.name.lower() in reviewed
        else d
        for d in drafts()
    )


def draft_label(spell: Spell) -> str:
    """How a spell's automation is shown: "full", or "partial (draft, not reviewed)"."""
    return spell.automation if spell.review is not None else f"{spell.automation} (draft, not reviewed)"


@functools.cache
def by_name() -> dict[str, Spell]:
    """Every spell by its lower-case name."""
    return {s.name.lower(): s for s in srd()}


def _key(name: str) -> str:
    return " ".join(name.lower().replace("’", "'").split())


def find(name: str) -> Spell:
    """The spell called `name`, in any case; an unknown name is refused with the closest ones."""
    spells = by_name()
    key = _key(name)
    if key in spells:
        return spells[key]
    close = closest(key, spells)
    raise RuleError(
        "spell/unknown",
        f"no spell called '{name}' in the SRD 5.2 spells",
        allowed=", ".join(spells[k].name for k in close) if close else "a name from `combat spells` or GET /spells",
    )


def _words(spell: Spell) -> set[str]:
    text = " ".join((spell.name, spell.school, *spell.damage_types, *(t for d in spell.damage for t in d.types), *spell.classes))
    return set(text.lower().replace("/", " ").split())


def search(query: str = "", *, level: int | None = None, cls: str | None = None) -> list[Spell]:
    """Spells matching every word of `query` (all of them without one), by name. A word
    matches a word of the name, the school, a damage type or a class ("fire": the spells
    named for fire and those dealing Fire damage); a word of several letters also matches
    the start of a name's word ("fireb": Fireball). `level` (0: cantrips) and `cls`
    ("wizard") narrow the list."""
    found = []
    for spell in srd():
        if level is not None and spell.level != level:
            continue
        if cls is not None and cls.lower() not in spell.classes:
            continue
        words = _words(spell)
        name_words = _key(spell.name).split()
        if all(w in words or any(n.startswith(w) for n in name_words) for w in _key(query).split()):
            found.append(spell)
    return found


def counts() -> dict[str, int]:
    """How many spells are full, partial and narrative (see `Spell` for what each means)."""
    tally = dict.fromkeys(AUTOMATION, 0)
    for spell in srd():
        tally[spell.automation] += 1
    return tally
