"""Shared pytest setup: make the repository root importable, so tests can `import tests.e2e.harness`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)


@pytest.fixture(autouse=True)
def _confirm_without_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Confirmations answer at once in tests, as if read first (the typing-burst guard of ConfirmScreen would make
    every `y` pressed right after a dialog opens wait). The tests of the guard itself set ConfirmScreen.GUARD."""
    from dixit_tui.tui.widgets.confirm import ConfirmScreen

    monkeypatch.setattr(ConfirmScreen, "GUARD", 0.0, raising=False)  # (absent before the guard)
