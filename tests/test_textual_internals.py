"""The private parts of Textual the project patches or overrides are still what they were checked against: an
upgrade that changes one fails here, naming the part and the file to re-check (see dixit_tui/textual_internals.py)."""

from __future__ import annotations

import textual
from packaging.version import Version

from dixit_tui.textual_internals import CHECKED_WITH, INTERNALS, current, fingerprint, source_of


def test_every_private_part_relied_on_is_unchanged() -> None:
    found = current()
    changed = []
    for item in INTERNALS:
        now = found[f"{item.module}:{item.name}"]
        if now != item.fingerprint:
            what = "is gone" if now is None else f"changed (fingerprint {now})"
            changed.append(f"{item.module}: {item.name} {what}; {item.where} relies on it ({item.use})")
    assert not changed, f"Textual {textual.__version__} is not {CHECKED_WITH}:\n" + "\n".join(changed)


def test_the_installed_textual_is_in_the_pinned_minor_range() -> None:
    checked, installed = Version(CHECKED_WITH), Version(textual.__version__)
    assert (installed.major, installed.minor) == (checked.major, checked.minor) and installed >= checked


def test_the_fingerprints_see_a_change() -> None:
    text = "class A:\n    def f(self):\n        return 1\n    x: int = 2\n"
    assert source_of(text, "A.f") == "def f(self):\n        return 1"
    assert source_of(text, "A.x") == "x: int = 2"
    assert source_of(text, "A.g") is None and source_of(text, "B.f") is None
    changed = text.replace("return 1", "return 2")
    assert fingerprint(source_of(changed, "A.f") or "") != fingerprint(source_of(text, "A.f") or "")
