"""Free text made safe to show on one line of a terminal or a page.

Descriptions, reasons and names come from players and GMs. A newline in one could print a
forged log line ("  42  GM ruling: ..."), an ANSI escape could repaint the terminal, a
right-to-left override could reverse what a line seems to say. `visible` shows every such
character as an escape (`\\n`, `\\x1b`, `\\u202e`) and leaves all other text alone.
"""

from __future__ import annotations

import unicodedata

__all__ = ["visible"]

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(ch: str) -> str:
    code = ord(ch)
    if ch in _NAMED:
        return _NAMED[ch]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str) -> str:
    """`text` with control, format and line-separator characters shown as escapes; spaces of
    every script (a no-break space in French) stay as they are."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or unicodedata.category(ch) == "Zs" else _escape(ch) for ch in text)
