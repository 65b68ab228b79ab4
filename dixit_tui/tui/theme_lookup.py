"""`ThemeLookup`: an App whose `get_theme` does not copy the table of themes on every call.

Textual's `App.get_theme` builds `available_themes` (a copy of every registered theme) for each name it looks up, and
it is called for every line a widget renders (`App.ansi_theme` -> `current_theme` -> `get_theme`): a few percent of
the server's CPU per update. The themes are the same until one is registered or unregistered, so the lookups are
kept until then.
"""

from __future__ import annotations

from typing import TypeVar

from textual.app import App
from textual.theme import Theme

ReturnType = TypeVar("ReturnType")


class ThemeLookup(App[ReturnType]):
    _theme_lookups: dict[str, Theme | None] | None = None

    def get_theme(self, theme_name: str) -> Theme | None:
        lookups = self._theme_lookups
        if lookups is None:
            lookups = self._theme_lookups = {}
        try:
            return lookups[theme_name]
        except KeyError:
            theme = lookups[theme_name] = super().get_theme(theme_name)
            return theme

    def register_theme(self, theme: Theme) -> None:
        self._theme_lookups = None
        super().register_theme(theme)

    def unregister_theme(self, theme_name: str) -> None:
        self._theme_lookups = None
        super().unregister_theme(theme_name)
