"""What a person is told when the name they connected with is not the name they get (shortened, cleaned, none).

Said once, as the first screen opens: nobody plays under a name they did not expect without a word.
"""

from __future__ import annotations

from dixit_tui.sanitize import NAME_MAX, sanitize

_SHOWN = 4 * NAME_MAX  # how much of a wanted name is cleaned to compare (never shown raw)


def name_note(wanted: str, name: str) -> str | None:
    """The notice for a session that wanted `wanted` and got `name`, or None when they are the same."""
    if wanted == name:
        return None
    whole = sanitize(wanted, _SHOWN)
    if not whole:
        return (
            f"Your SSH user name has no letter a terminal can show: you are “{name}” here. "
            "To pick a name: ssh NAME@host."
        )
    if len(whole) > NAME_MAX and whole.startswith(name):
        return f"Names have at most {NAME_MAX} characters: yours is shortened to “{name}”."
    return f"Your name is shown as “{name}”: characters a terminal cannot show were left out or changed."
