"""The rules every ruleset with hit points and conditions shares: set-up, turns, damage and
healing, conditions and their durations, concentration, saving throws, and the names a rules
text declares, with their events (events.py), commands (commands.py) and error codes
(error_codes.py). The 5e family (combat/fivee) and declared-d10 and segments-1e build on them;
this package imports nothing of combat but the kernel. Where a shared rule reaches a moment
each ruleset settles its own way it asks a port (zero_hp.py, hitpoints.py's DamageReduction,
creature_types.py, durations.py's LastingEffects; docs/architecture.md)."""
