"""`python -m combat.cli`: the `combat` command (a child process started with the same
interpreter, as `combat serve --stats-follower process` does)."""

from combat.cli import main

main()
