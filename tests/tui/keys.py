"""Typing into apps in Pilot tests: key events as a terminal sends them, and the check that an app is still alive."""

from __future__ import annotations

import asyncio
import unicodedata

from textual import events
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key

from dixit_tui.tui.app import DixitApp


def alive(app: DixitApp) -> None:
    assert app.is_running, "the app stopped"
    assert app.return_code is None, app.return_code
    assert app._exception is None, app._exception


def key_event(key: str) -> events.Key:
    """The Key event Pilot would send for `key` (as in App._press_keys)."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


def hand_over(app: DixitApp, key: str) -> None:
    """One key, handed to the app's driver as the terminal's bytes would be (not waiting for it to be handled)."""
    driver = app._driver
    assert driver is not None
    event = key_event(key)
    event.set_sender(app)
    driver.send_message(event)


async def type_keys(app: DixitApp, keys: list[str]) -> None:
    """Keys as a terminal delivers them: through the driver, one after another, without waiting for each to be
    handled (Pilot.press waits for idle after every key: 80 ms a key)."""
    for key in keys:
        hand_over(app, key)
        await asyncio.sleep(0)


def keys_at_once(app: DixitApp, keys: list[str]) -> None:
    """Keys as one SSH packet brings them: all handed to the app's driver with no step between them."""
    for key in keys:
        hand_over(app, key)
