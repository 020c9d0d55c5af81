"""Who the 5e demos (srd-2024, its variant, a5e) bring to the table: a fighter, a cleric and
a ranger as the srd-2024 demo's table plays them (a demo whose table plays one a little
differently, another AC or a Small ranger, says so where it uses them), and the GM's own
bugbear that leads the goblins of both srd-2024 demos."""

from __future__ import annotations

from combat.kernel.events import AttackProfile, CombatantSpec

__all__ = ["ARIA", "TOMAS", "LYRA", "BUGBEAR"]

_LONGSWORD = AttackProfile(name="Longsword", bonus=6, damage="1d8+4", damage_type="slashing")
_MACE = AttackProfile(name="Mace", bonus=5, damage="1d6+2", damage_type="bludgeoning")
_SHORTBOW = AttackProfile(
    name="Shortbow", bonus=7, damage="1d6+4", damage_type="piercing", kind="ranged", normal_range=80, long_range=320
)
_SHORTSWORD = AttackProfile(name="Shortsword", bonus=7, damage="1d6+4", damage_type="piercing")


def _pc(
    cid: str,
    name: str,
    player: str,
    *,
    max_hp: int,
    ac: int,
    initiative_bonus: int,
    con_save: int,
    attacks: tuple[AttackProfile, ...],
    attacks_per_action: int = 1,
) -> CombatantSpec:
    return CombatantSpec(
        id=cid,
        name=name,
        kind="pc",
        side="party",
        player=player,
        max_hp=max_hp,
        ac=ac,
        initiative_bonus=initiative_bonus,
        con_save=con_save,
        attacks=attacks,
        attacks_per_action=attacks_per_action,
    )


ARIA = _pc("aria", "Aria", "Sam", max_hp=44, ac=18, initiative_bonus=1, con_save=5, attacks=(_LONGSWORD,), attacks_per_action=2)
TOMAS = _pc("tomas", "Brother Tomas", "Ana", max_hp=38, ac=18, initiative_bonus=0, con_save=5, attacks=(_MACE,))
LYRA = _pc("lyra", "Lyra", "Kim", max_hp=33, ac=15, initiative_bonus=4, con_save=1, attacks=(_SHORTBOW, _SHORTSWORD))
BUGBEAR = CombatantSpec(
    id="bugbear",
    name="Bugbear",
    kind="monster",
    side="goblins",
    max_hp=33,
    ac=14,
    initiative_bonus=2,
    con_save=2,
    attacks=(AttackProfile(name="Morningstar", bonus=4, damage="2d8+2", damage_type="piercing"),),
)
