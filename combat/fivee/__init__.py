"""The 5e rules that srd-2024, srd-2024-variant and a5e share: set-up, initiative, turns, actions, attacks, hit points, conditions, concentration, saves, and the checks run after a changed past."""
