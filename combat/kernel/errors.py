"""Domain errors with stable codes, so the CLI and the HTTP layer can map them without parsing text."""

from __future__ import annotations

__all__ = ["RuleError", "OutOfPhase"]


class RuleError(Exception):
    """A command broke a rule. Nothing was appended.

    `code` is stable (`area/what`, e.g. `economy/action-spent`), `message` says what was
    wrong and `allowed` says what would have been accepted.
    """

    def __init__(self, code: str, message: str, *, allowed: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.allowed = allowed

    def __str__(self) -> str:
        if self.allowed:
            return f"{self.message} (allowed: {self.allowed})"
        return self.message


class OutOfPhase(RuleError):
    def __init__(self, command: str, phase: str, allowed: list[str]):
        super().__init__(
            "phase/not-allowed",
            f"'{command}' is not allowed in the {phase} phase",
            allowed=", ".join(allowed) if allowed else "nothing: the encounter has ended",
        )
        self.phase = phase
        self.commands = allowed
