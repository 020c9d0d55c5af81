"""Campaigns: a party of characters that outlast an encounter, and the fights they play in.

records.py holds what is stored, party.py the use cases (save, read, rest, join, release),
rests.py the SRD's rests, carry_over.py the follower that carries each fight's outcome to
its characters.
"""
