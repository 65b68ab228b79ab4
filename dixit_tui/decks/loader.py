"""Load decks of cards from TOML files, checking them with friendly ``file:line`` error messages.

A deck file looks like this::

    [deck]
    name = "base"          # lowercase letters, digits and dashes; 1-20 characters
    title = "Base deck"    # optional; defaults to the name

    [[card]]
    id = "base-001"        # letters, digits and dashes; unique across every deck played together
    text = "A lighthouse keeper ..."

Card text is untrusted: it goes through :func:`dixit_tui.sanitize.clean_card_text`, and a text that is
still too long after sanitising is an error rather than being cut short.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from dixit_tui.engine.cards import CARD_TEXT_MAX, Card
from dixit_tui.sanitize import clean_card_text, sanitize

DECK_NAME_RE = re.compile(r"[a-z0-9-]{1,20}")
CARD_ID_RE = re.compile(r"[A-Za-z0-9-]{1,40}")
TITLE_MAX = 40
FILE_MAX_BYTES = 1_000_000
DECK_KEYS = frozenset({"name", "title"})
CARD_KEYS = frozenset({"id", "text"})
_PACKAGE = "dixit_tui.decks"
DEFAULT_DECK = "base"  # listed first; the deck a table uses unless told otherwise
_NFKC_GROWTH = 18  # NFKC can turn one character into at most 18 (U+FDFA)
_TOML_POSITION = re.compile(r"\s*\(at (?:line (\d+), column \d+|end of document)\)$")


class DeckError(ValueError):
    """A deck that cannot be used; the message says where and why, e.g. ``decks/mine.toml:42: ...``."""


@dataclass(frozen=True, slots=True)
class Deck:
    name: str
    title: str
    cards: tuple[Card, ...]
    source: str  # where it was loaded from, as used in error messages


class _Lines:
    """Finds the lines of tables and keys in the raw TOML text (tomllib gives no positions)."""

    _HEADER = re.compile(r"\s*\[")
    _CARD = re.compile(r"\s*\[\[\s*card\s*\]\]\s*(?:#.*)?$")
    _DECK = re.compile(r"\s*\[\s*deck\s*\]\s*(?:#.*)?$")

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.headers = [i for i, line in enumerate(self.lines) if self._HEADER.match(line)]
        self.cards = [i for i, line in enumerate(self.lines) if self._CARD.match(line)]
        self.deck = next((i for i, line in enumerate(self.lines) if self._DECK.match(line)), None)

    def _key_in(self, start: int | None, key: str) -> int:
        """The 1-based line of ``key = ...`` in the table whose header is at index ``start``."""
        first = 0 if start is None else start + 1
        end = next((h for h in self.headers if h >= first), len(self.lines))
        pattern = re.compile(rf"\s*(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')\s*=")
        for i in range(first, end):
            if pattern.match(self.lines[i]):
                return i + 1
        return 1 if start is None else start + 1

    def deck_line(self, key: str | None = None) -> int:
        if self.deck is None:
            return 1
        return self.deck + 1 if key is None else self._key_in(self.deck, key)

    def card_line(self, index: int, key: str | None = None) -> int:
        if index >= len(self.cards):  # cards not written as [[card]] headers: point at "card ="
            return self._key_in(None, "card")
        return self.cards[index] + 1 if key is None else self._key_in(self.cards[index], key)

    def top_line(self, key: str) -> int:
        for i, line in enumerate(self.lines):
            if re.match(rf"\s*\[*\s*{re.escape(key)}\s*[\].=]", line):
                return i + 1
        return 1


def _error(source: str, line: int, message: str) -> DeckError:
    return DeckError(f"{source}:{line}: {message}")


def _read(path: Path, source: str) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise DeckError(f"{source}: no such deck file") from None
    except OSError as exc:
        raise DeckError(f"{source}: cannot read the deck file ({exc.strerror})") from None
    return _decode(data, source)


def _decode(data: bytes, source: str) -> str:
    if len(data) > FILE_MAX_BYTES:
        raise DeckError(f"{source}: the deck file is too big ({len(data)} bytes, at most {FILE_MAX_BYTES})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise _error(source, line, "this file is not valid UTF-8 text") from None


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = _TOML_POSITION.search(message)
        line = max(1, len(text.splitlines()))
        if match:
            message = message[: match.start()]
            if match.group(1):
                line = int(match.group(1))
        raise _error(source, line, f"TOML syntax error: {message}") from None


def parse_deck(text: str, source: str) -> Deck:
    """Check and build a deck from the text of a deck file; ``source`` names it in error messages."""
    data = _parse_toml(text, source)
    where = _Lines(text)

    for key in data:
        if key not in ("deck", "card"):
            raise _error(source, where.top_line(key), f'unknown key "{key}" (a deck has [deck] and [[card]])')

    name, title = _deck_header(data.get("deck"), where, source)

    cards_data = data.get("card")
    if cards_data is None:
        raise _error(source, where.deck_line(), "this deck has no cards (add [[card]] tables)")
    if not isinstance(cards_data, list) or not all(isinstance(c, dict) for c in cards_data):
        raise _error(source, where.top_line("card"), "card must be a list of [[card]] tables")
    if not cards_data:
        raise _error(source, where.top_line("card"), "this deck has no cards (add [[card]] tables)")

    cards: list[Card] = []
    id_lines: dict[str, int] = {}
    text_owners: dict[str, tuple[str, int]] = {}
    for index, table in enumerate(cards_data):
        card = _card(table, index, name, where, source)
        id_line, text_line = where.card_line(index, "id"), where.card_line(index, "text")
        if card.id in id_lines:
            raise _error(source, id_line, f'card id "{card.id}" is already used on line {id_lines[card.id]}')
        if card.text in text_owners:
            other, other_line = text_owners[card.text]
            raise _error(source, text_line, f'card "{card.id}": same text as card "{other}" on line {other_line}')
        id_lines[card.id] = id_line
        text_owners[card.text] = (card.id, text_line)
        cards.append(card)
    return Deck(name=name, title=title, cards=tuple(cards), source=source)


def _deck_header(table: object, where: _Lines, source: str) -> tuple[str, str]:
    if not isinstance(table, dict):
        raise _error(source, where.deck_line(), 'missing [deck] table (with name = "...")')
    for key in table:
        if key not in DECK_KEYS:
            raise _error(source, where.deck_line(key), f'[deck]: unknown key "{key}" (expected name, title)')
    name = table.get("name")
    if name is None:
        raise _error(source, where.deck_line(), '[deck]: missing name = "..."')
    if not isinstance(name, str) or not DECK_NAME_RE.fullmatch(name):
        raise _error(
            source,
            where.deck_line("name"),
            f"[deck]: name {_show(name)} must be 1-20 lowercase letters, digits or dashes",
        )
    raw_title = table.get("title", name)
    if not isinstance(raw_title, str):
        raise _error(source, where.deck_line("title"), "[deck]: title must be a string")
    return name, sanitize(raw_title, TITLE_MAX) or name


def _card(table: dict[str, Any], index: int, deck: str, where: _Lines, source: str) -> Card:
    label = f"card #{index + 1}"
    card_id = table.get("id")
    if card_id is None:
        raise _error(source, where.card_line(index), f'{label}: missing id = "..."')
    if not isinstance(card_id, str) or not CARD_ID_RE.fullmatch(card_id):
        raise _error(
            source,
            where.card_line(index, "id"),
            f"{label}: id {_show(card_id)} must be 1-40 letters, digits or dashes",
        )
    label = f'card "{card_id}"'
    for key in table:
        if key not in CARD_KEYS:
            raise _error(source, where.card_line(index, key), f'{label}: unknown key "{key}" (expected id, text)')
    raw = table.get("text")
    if raw is None:
        raise _error(source, where.card_line(index), f'{label}: missing text = "..."')
    if not isinstance(raw, str):
        raise _error(source, where.card_line(index, "text"), f"{label}: text must be a string")
    full = sanitize(raw, _NFKC_GROWTH * len(raw) + 1)  # sanitised but not cut short
    if not full:
        raise _error(source, where.card_line(index, "text"), f"{label}: text is empty")
    if len(full) > CARD_TEXT_MAX:
        raise _error(
            source,
            where.card_line(index, "text"),
            f"{label}: text is longer than {CARD_TEXT_MAX} characters ({len(full)})",
        )
    return Card(id=card_id, text=clean_card_text(full), deck=deck)


def _show(value: object) -> str:
    """A value from a deck file, shown safely and briefly inside an error message."""
    if isinstance(value, str):
        return f'"{sanitize(value, 40)}"'
    return sanitize(repr(value), 40)


def load_deck(path: str | os.PathLike[str]) -> Deck:
    """Load and check one deck file."""
    source = os.fspath(path)
    return parse_deck(_read(Path(path), source), source)


def builtin_deck_names() -> list[str]:
    """The decks shipped with dixit-tui (the ``*.toml`` files in this package): "base" first, then the rest sorted."""
    return sorted(
        (
            entry.name.removesuffix(".toml")
            for entry in resources.files(_PACKAGE).iterdir()
            if entry.is_file() and entry.name.endswith(".toml")
        ),
        key=lambda name: (name != DEFAULT_DECK, name),
    )


def load_builtin(name: str) -> Deck:
    """Load a deck shipped with dixit-tui, by name (e.g. "base")."""
    if name not in builtin_deck_names():
        raise DeckError(f'no built-in deck called "{sanitize(name, 40)}" (there are: {_listing()})')
    entry = resources.files(_PACKAGE).joinpath(f"{name}.toml")
    source = str(entry)
    return parse_deck(_decode(entry.read_bytes(), source), source)


def _listing() -> str:
    return ", ".join(builtin_deck_names()) or "none"


def _is_path(name_or_path: str) -> bool:
    return name_or_path.endswith(".toml") or os.sep in name_or_path or "/" in name_or_path


def resolve_decks(names_or_paths: Sequence[str]) -> tuple[Card, ...]:
    """All the cards of the given decks, mixed: each entry is a built-in deck name or a .toml path."""
    if not names_or_paths:
        raise DeckError("no deck given")
    decks: list[Deck] = []
    for entry in names_or_paths:
        if _is_path(entry):
            decks.append(load_deck(entry))
        elif entry in builtin_deck_names():
            decks.append(load_builtin(entry))
        else:
            raise DeckError(
                f'no deck called "{sanitize(entry, 40)}": built-in decks are {_listing()}, '
                "and a deck file must end in .toml"
            )
    return _merge(decks)


def _merge(decks: Iterable[Deck]) -> tuple[Card, ...]:
    names: dict[str, Deck] = {}
    owners: dict[str, Deck] = {}
    cards: list[Card] = []
    for deck in decks:
        if deck.name in names:
            first = names[deck.name]
            if first.source == deck.source:
                raise DeckError(f'{deck.source}: deck "{deck.name}" is listed twice')
            raise DeckError(f'{deck.source}: deck name "{deck.name}" is already used by {first.source}')
        names[deck.name] = deck
        for card in deck.cards:
            if card.id in owners:
                raise DeckError(f'{deck.source}: card id "{card.id}" is already used in {owners[card.id].source}')
            owners[card.id] = deck
            cards.append(card)
    return tuple(cards)


def check_enough(cards: Sequence[Card], players: int, hand_size: int) -> None:
    """Raise DeckError if there are not enough cards to deal every player a full hand."""
    need = players * hand_size
    if len(cards) < need:
        raise DeckError(f"this deck has {len(cards)} cards but {players} players x {hand_size} cards need {need}")
