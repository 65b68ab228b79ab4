"""Text wrapped with a hanging indent, as a list's items: each continuation row lines up under its line's text (after
its leading blanks and its number, "  3. "), not at the left edge. Used by the transcript and the questions that list
cards ("Give these cards?"). Player text stays plain `Content`: nothing here parses markup.
"""

from __future__ import annotations

import re

from textual.content import Content

_LEAD = re.compile(r" *(?:\d+\. )?")


def hanging(text: Content, width: int) -> list[Content]:
    """`text` wrapped at `width` cells, line by line, each wrapped line hanging under its text. A lead wider than half
    the width does not hang (the text would get too narrow a column)."""
    width = max(1, width)
    rows: list[Content] = []
    for line in text.split("\n"):
        lead = _LEAD.match(line.plain)
        indent = lead.end() if lead is not None and lead.end() <= width // 2 else 0
        head, body = line[:indent], line[indent:]
        wrapped = body.wrap(width - indent) or [Content("")]
        pad = Content(" " * indent)
        rows.append(head + wrapped[0])
        rows.extend(pad + row for row in wrapped[1:])
    return rows


def hanging_text(text: str, width: int) -> str:
    """`hanging` for plain text."""
    return "\n".join(row.plain for row in hanging(Content(text), width))
