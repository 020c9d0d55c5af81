"""The kernel: events, commands, state, decide/evolve, phase tables, dice, errors. It names no ruleset."""
