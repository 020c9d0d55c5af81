"""Who the 5e demos (srd-2024, its variant, a5e) bring to the table: a fighter, a cleric and
a ranger as the srd-2024 demo's table plays them (a demo whose table plays one a little
differently, another AC or a Small ranger, says so where it uses them), and the GM's own
bugbear that leads the goblins of both srd-2024 demos."""

from __future__ import annotations

from typing import Any

from combat.kernel.events import AttackProfile, CombatantSpec

__all__ = ["ARIA", "TOMAS", "LYRA", "BUGBEAR", "party_member", "foe"]

_LONGSWORD = AttackProfile(name="Longsword", bonus=6, damage="1d8+4", damage_type="slashing")
_MACE = AttackProfile(name="Mace", bonus=5, damage="1d6+2", damage_type="bludgeoning")
_SHORTBOW = AttackProfile(
    name="Shortbow", bonus=7, damage="1d6+4", damage_type="piercing", kind="ranged", normal_range=80, long_range=320
)
_SHORTSWORD = AttackProfile(name="Shortsword", bonus=7, damage="1d6+4", damage_type="piercing")


def party_member(cid: str, name: str, player: str, **stats: Any) -> CombatantSpec:
    """A player's character of a demo's party; `stats` are CombatantSpec's (max_hp, ac, attacks...)."""
    return CombatantSpec(id=cid, name=name, kind="pc", side="party", player=player, **stats)


def foe(cid: str, name: str, side: str, **stats: Any) -> CombatantSpec:
    """A monster of the GM's own (no stat block from the bestiary) on `side`; `stats` as party_member's."""
    return CombatantSpec(id=cid, name=name, kind="monster", side=side, **stats)


ARIA = party_member(
    "aria", "Aria", "Sam", max_hp=44, ac=18, initiative_bonus=1, con_save=5, attacks=(_LONGSWORD,), attacks_per_action=2
)
TOMAS = party_member("tomas", "Brother Tomas", "Ana", max_hp=38, ac=18, con_save=5, attacks=(_MACE,))
LYRA = party_member("lyra", "Lyra", "Kim", max_hp=33, ac=15, initiative_bonus=4, con_save=1, attacks=(_SHORTBOW, _SHORTSWORD))
BUGBEAR = foe(
    "bugbear",
    "Bugbear",
    "goblins",
    max_hp=33,
    ac=14,
    initiative_bonus=2,
    con_save=2,
    attacks=(AttackProfile(name="Morningstar", bonus=4, damage="2d8+2", damage_type="piercing"),),
)
