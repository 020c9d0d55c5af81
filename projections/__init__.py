"""Read models: folds over an encounter's events for people and other tools."""
