"""Spells: the SRD 5.2's 339, shipped with the package, as data a command can cast.

model (the spell and its parts), srd (reading Open5e's records; what is read from where and
how a spell is judged full, partial or narrative), library (lookup by name, search, counts).
No rule is applied here.
"""
