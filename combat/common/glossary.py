"""The SRD 5.2 names the 5e-family rulesets declare: the Rules Glossary's conditions
(ConditionDescription.json) and damage types (DamageTypeDescription.json)."""

from __future__ import annotations

__all__ = ["SRD_CONDITIONS", "SRD_DAMAGE_TYPES"]

SRD_CONDITIONS = frozenset(
    {
        "blinded",
        "charmed",
        "deafened",
        "exhaustion",
        "frightened",
        "grappled",
        "incapacitated",
        "invisible",
        "paralyzed",
        "petrified",
        "poisoned",
        "prone",
        "restrained",
        "stunned",
        "unconscious",
    }
)
SRD_DAMAGE_TYPES = frozenset(
    {
        "acid",
        "bludgeoning",
        "cold",
        "fire",
        "force",
        "lightning",
        "necrotic",
        "piercing",
        "poison",
        "psychic",
        "radiant",
        "slashing",
        "thunder",
    }
)
