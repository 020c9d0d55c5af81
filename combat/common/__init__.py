"""The rules every ruleset with hit points and conditions shares: set-up, turns, damage and
healing, conditions and their durations, concentration, saving throws, and the names a rules
text declares. The 5e family (combat/fivee) and declared-d10 and segments-1e build on them;
this package imports nothing of combat but the kernel."""
