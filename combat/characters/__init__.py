"""Player characters: the sheet format (sheet.py), sheets built from the SRD 5.2 class
tables (build.py), imported from Foundry VTT (foundry.py), and the rests (rests.py)."""
