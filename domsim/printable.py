"""A bot's text made safe to show (issue 47): whatever domsim prints or logs of a bot (its
stderr, the text of what it raised or reported, the lines it wrote) passes through `printable`,
so no escape sequence of a bot's clears a terminal, sets its title, writes its clipboard or
moves its cursor to forge a line of domsim's."""

from __future__ import annotations

import logging
import re

#: Characters that are always safe: printable ASCII, tab and newline.
_PLAIN = re.compile(r"[\t\n\x20-\x7e]*")


def printable(text: str, lines: bool = True) -> str:
    """`text` with every character Python does not call printable (control characters, C1
    codes, bidirectional overrides) written as its escape (`\\x1b`, `\\u202e`), but tab and,
    where `lines`, newline: a one-line message (`lines` False) keeps to its one line."""
    if _PLAIN.fullmatch(text) and (lines or "\n" not in text):
        return text
    kept = "\t\n" if lines else "\t"
    return "".join(char if char.isprintable() or char in kept
                   else char.encode("unicode_escape").decode("ascii") for char in text)


class PrintableFormatter(logging.Formatter):
    """A log line as `logging.Formatter` makes it, made `printable` (run.log and the terminal
    see a bot's text, a traceback of its exception included)."""

    def format(self, record: logging.LogRecord) -> str:
        return printable(super().format(record))
