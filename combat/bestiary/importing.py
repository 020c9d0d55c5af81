"""Reading a GM's file of stat blocks: Open5e records (as the SRD files are), or stat blocks in
the bestiary's own format (one, or a list). All or nothing: any problem refuses the file."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from combat.bestiary.model import StatBlock
from combat.bestiary.open5e import record_problems, stat_blocks
from combat.bestiary.validate import read_blocks
from combat.kernel.errors import RuleError

__all__ = ["blocks_from_json"]


def _is_record(item: Any) -> bool:
    return isinstance(item, Mapping) and "model" in item and "fields" in item


def blocks_from_json(data: Any) -> list[StatBlock]:
    items = data if isinstance(data, list) else [data]
    if not items:
        raise RuleError(
            "stat-block/none", "the file holds no stat blocks", allowed="a JSON list of Open5e records or of stat blocks"
        )
    if any(_is_record(item) for item in items):
        found = record_problems(items)
        if found:
            raise RuleError(
                "stat-block/invalid",
                "nothing imported: " + "; ".join(found),
                allowed="Open5e creature records (model, pk, fields)",
            )
        items = [msgspec.to_builtins(block) for block in stat_blocks(items)]
        if not items:
            raise RuleError(
                "stat-block/none",
                "the records hold no creature (api_v2.creature)",
                allowed="Open5e creature records with their actions",
            )
    return read_blocks(items)
