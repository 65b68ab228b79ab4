"""Decks of cards: the built-in ones shipped as TOML files in this package, and users' deck files."""

from dixit_tui.decks.loader import (
    Deck,
    DeckError,
    builtin_deck_names,
    check_enough,
    load_builtin,
    load_deck,
    parse_deck,
    resolve_decks,
)

__all__ = [
    "Deck",
    "DeckError",
    "builtin_deck_names",
    "check_enough",
    "load_builtin",
    "load_deck",
    "parse_deck",
    "resolve_decks",
]
