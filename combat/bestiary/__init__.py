"""The bestiary: stat blocks by name (the SRD 5.2's, shipped with the package, and the GM's own).

model (the stat block), open5e (reading Open5e's records), validate (a GM's block, field by
field), library (lookup, suggestions, the local store). The rules that play a block are in
combat/fivee/monsters.py and combat/fivee/legendary.py.
"""
