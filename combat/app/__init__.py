"""The application layer: the encounters service (commands in, events stored), the store, history, the JSONL interchange and the catalog of every ruleset's types."""
