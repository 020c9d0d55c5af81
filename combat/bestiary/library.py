"""Finding a stat block by name: the SRD 5.2 bestiary shipped in the package, then the
local store of blocks a GM imported (`combat monsters --import`).

The local store is one JSON file of stat blocks, `combat-bestiary.json` in the working
directory beside the default `combat.db`, or wherever COMBAT_BESTIARY points. It is read
only when a creature is added; the creature's whole block then goes into the log.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from pathlib import Path

import msgspec

from combat.bestiary.model import StatBlock
from combat.bestiary.settings import DEFAULT_STORE, STORE_ENV
from combat.kernel.errors import RuleError
from combat.kernel.names import closest

__all__ = ["STORE_ENV", "DEFAULT_STORE", "srd", "store_path", "local", "save_local", "everything", "find", "search"]

_blocks = msgspec.json.Decoder(list[StatBlock])


@functools.cache
def srd() -> tuple[StatBlock, ...]:
    """The 331 SRD 5.2 creatures (CC-BY-4.0; see NOTICE.md beside the data)."""
    from importlib import resources  # with tempfile and shutil: loaded when the data is read, not at import

    return tuple(_blocks.decode(resources.files(__package__).joinpath("srd_5_2.json").read_bytes()))


def store_path(path: str | os.PathLike[str] | None = None) -> Path:
    return Path(path or os.environ.get(STORE_ENV) or DEFAULT_STORE)


def local(path: str | os.PathLike[str] | None = None) -> tuple[StatBlock, ...]:
    file = store_path(path)
    return tuple(_blocks.decode(file.read_bytes())) if file.exists() else ()


def save_local(blocks: Iterable[StatBlock], path: str | os.PathLike[str] | None = None) -> Path:
    """Add `blocks` to the local store; a block with the name of a stored one replaces it."""
    file = store_path(path)
    kept = {b.name.lower(): b for b in local(file)}
    kept.update({b.name.lower(): b for b in blocks})
    tmp = file.with_name(file.name + ".tmp")
    tmp.write_bytes(msgspec.json.format(msgspec.json.encode(sorted(kept.values(), key=lambda b: b.name.lower()))))
    tmp.replace(file)  # never a half-written store
    return file


def everything(path: str | os.PathLike[str] | None = None) -> dict[str, StatBlock]:
    """Every block by lower-case name; the GM's own shadow the SRD's of the same name."""
    return {b.name.lower(): b for b in (*srd(), *local(path))}


def find(name: str, path: str | os.PathLike[str] | None = None) -> StatBlock:
    """The block called `name`, in any case; unknown names suggest close ones."""
    blocks = everything(path)
    key = " ".join(name.lower().split())
    if key in blocks:
        return blocks[key]
    close = closest(key, blocks, stem=5)
    raise RuleError(
        "creature/unknown",
        f"no creature called '{name}' in the bestiary",
        allowed=", ".join(blocks[k].name for k in close)
        if close
        else "a name from `combat monsters` or GET /bestiary, or a full stat block",
    )


def search(query: str = "", path: str | os.PathLike[str] | None = None) -> list[StatBlock]:
    """Blocks whose name or creature type contains every word of `query`, by name."""
    words = query.lower().split()
    found = [b for b in everything(path).values() if all(w in f"{b.name} {b.type}".lower() for w in words)]
    return sorted(found, key=lambda b: b.name.lower())
