"""The deck loader: every error names file:line, decks mix, user decks load by path."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from dixit_tui.bots.player import seat_bots
from dixit_tui.bots.similarity import content_stems
from dixit_tui.coordinator import Coordinator, Identity, TableOptions
from dixit_tui.decks import (
    Deck,
    DeckError,
    builtin_deck_names,
    check_enough,
    load_builtin,
    load_deck,
    resolve_decks,
)
from dixit_tui.engine.cards import CARD_TEXT_MAX, Card
from dixit_tui.sanitize import clean_card_text, sanitize

HEADER = '[deck]\nname = "mine"\ntitle = "My deck"\n'


def cards_toml(n: int, prefix: str = "mine") -> str:
    return "".join(f'\n[[card]]\nid = "{prefix}-{i:03}"\ntext = "Scene number {i} of {prefix}."\n' for i in range(n))


def write(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(DeckError) as info:
        load_deck(path)
    message = str(info.value)
    assert message.startswith(f"{path}:")
    return message.removeprefix(f"{path}:")


# --- a good deck -----------------------------------------------------------------------------------


def test_load_user_deck_by_path(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + cards_toml(3))
    deck = load_deck(path)
    assert deck == Deck(
        name="mine",
        title="My deck",
        cards=(
            Card("mine-000", "Scene number 0 of mine.", "mine"),
            Card("mine-001", "Scene number 1 of mine.", "mine"),
            Card("mine-002", "Scene number 2 of mine.", "mine"),
        ),
        source=str(path),
    )
    assert load_deck(str(path)) == deck


def test_title_defaults_to_name(tmp_path: Path) -> None:
    deck = load_deck(write(tmp_path, '[deck]\nname = "mine"\n' + cards_toml(1)))
    assert deck.title == "mine"


def test_card_text_is_sanitised(tmp_path: Path) -> None:
    text = HEADER + '[[card]]\nid = "m-1"\ntext = "A \\u001b]0;pwned\\u0007fox\\u202e  in   the\\nrain"\n'
    (card,) = load_deck(write(tmp_path, text)).cards
    assert card.text == "A fox in the rain"


def test_text_of_exactly_the_limit_is_fine(tmp_path: Path) -> None:
    text = HEADER + f'[[card]]\nid = "m-1"\ntext = "{"x" * CARD_TEXT_MAX}"\n'
    (card,) = load_deck(write(tmp_path, text)).cards
    assert len(card.text) == CARD_TEXT_MAX


def test_text_is_measured_after_sanitising(tmp_path: Path) -> None:
    # Invisible characters and escape sequences do not count towards the limit.
    padded = "x" * CARD_TEXT_MAX + "\\u200b" * 50 + "\\u001b[2J"
    text = HEADER + f'[[card]]\nid = "m-1"\ntext = "{padded}"\n'
    (card,) = load_deck(write(tmp_path, text)).cards
    assert card.text == "x" * CARD_TEXT_MAX


# --- errors, each with its file:line ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            HEADER + '\n[[card]]\nid = "a"\ntext = "unterminated\n',
            "7: TOML syntax error: Illegal character '\\n'",
            id="toml-syntax",
        ),
        pytest.param("[deck]\nname = \n", "2: TOML syntax error: Invalid value", id="toml-syntax-2"),
        pytest.param(cards_toml(2), '1: missing [deck] table (with name = "...")', id="missing-deck"),
        pytest.param(
            '# my deck\n\n[deck]\ntitle = "T"\n' + cards_toml(1),
            '3: [deck]: missing name = "..."',
            id="missing-name",
        ),
        pytest.param(
            '[deck]\ntitle = "T"\nname = "My Deck"\n' + cards_toml(1),
            '3: [deck]: name "My Deck" must be 1-20 lowercase letters, digits or dashes',
            id="bad-name",
        ),
        pytest.param(
            '[deck]\nname = "' + "a" * 21 + '"\n' + cards_toml(1),
            '2: [deck]: name "' + "a" * 21 + '" must be 1-20 lowercase letters, digits or dashes',
            id="name-too-long",
        ),
        pytest.param(
            "[deck]\nname = 7\n" + cards_toml(1),
            "2: [deck]: name 7 must be 1-20 lowercase letters, digits or dashes",
            id="name-not-a-string",
        ),
        pytest.param(
            HEADER + 'author = "me"\n' + cards_toml(1),
            '4: [deck]: unknown key "author" (expected name, title)',
            id="unknown-deck-key",
        ),
        pytest.param(
            "version = 2\n" + HEADER + cards_toml(1),
            '1: unknown key "version" (a deck has [deck] and [[card]])',
            id="unknown-top-key",
        ),
        pytest.param(
            HEADER + cards_toml(1) + "\n[extra]\nx = 1\n",
            '9: unknown key "extra" (a deck has [deck] and [[card]])',
            id="unknown-table",
        ),
        pytest.param(HEADER, "1: this deck has no cards (add [[card]] tables)", id="no-cards"),
        pytest.param(
            "card = []\n" + HEADER,
            "1: this deck has no cards (add [[card]] tables)",
            id="empty-card-array",
        ),
        pytest.param(
            HEADER + '[card]\nid = "x"\n',
            "4: card must be a list of [[card]] tables",
            id="card-not-array",
        ),
        pytest.param(
            HEADER + cards_toml(2) + '\n[[card]]\nid = "x-1"\ntext = "Scene"\nartist = "me"\n',
            '16: card "x-1": unknown key "artist" (expected id, text)',
            id="unknown-card-key",
        ),
        pytest.param(
            HEADER + cards_toml(1) + '\n[[card]]\ntext = "no id"\n',
            '9: card #2: missing id = "..."',
            id="missing-id",
        ),
        pytest.param(
            HEADER + cards_toml(1) + '\n[[card]]\ntext = "bad id"\nid = "mine 7"\n',
            '11: card #2: id "mine 7" must be 1-40 letters, digits or dashes',
            id="bad-id",
        ),
        pytest.param(
            HEADER + '\n[[card]]\nid = 7\ntext = "x"\n',
            "6: card #1: id 7 must be 1-40 letters, digits or dashes",
            id="id-not-a-string",
        ),
        pytest.param(
            HEADER + '\n[[card]]\nid = "m-1"\n',
            '5: card "m-1": missing text = "..."',
            id="missing-text",
        ),
        pytest.param(
            HEADER + '\n[[card]]\nid = "m-1"\ntext = 3\n',
            '7: card "m-1": text must be a string',
            id="text-not-a-string",
        ),
        pytest.param(
            HEADER + cards_toml(3) + '\n[[card]]\nid = "m-9"\ntext = "\\u200b \\u3164 \\u001b[2J"\n',
            '19: card "m-9": text is empty',
            id="empty-text-after-sanitising",
        ),
        pytest.param(
            HEADER + cards_toml(4) + f'\n[[card]]\nid = "mine-007"\ntext = "{"y" * 151}"\n',
            f'23: card "mine-007": text is longer than {CARD_TEXT_MAX} characters (151)',
            id="text-too-long",
        ),
        pytest.param(
            HEADER + cards_toml(3) + '\n[[card]]\nid = "mine-001"\ntext = "Another scene."\n',
            '18: card id "mine-001" is already used on line 10',
            id="duplicate-id",
        ),
        pytest.param(
            HEADER + cards_toml(2) + '\n[[card]]\nid = "m-9"\ntext = "Scene  number 1 of\\tmine."\n',
            '15: card "m-9": same text as card "mine-001" on line 11',
            id="duplicate-text-after-sanitising",
        ),
    ],
)
def test_errors_name_file_and_line(tmp_path: Path, text: str, expected: str) -> None:
    assert error_of(tmp_path, text) == expected


def test_line_counts_card_headers_with_spaces_and_comments(tmp_path: Path) -> None:
    text = HEADER + '\n[[ card ]]  # first\nid = "a"\ntext = "A"\n\n  [[card]]\n  id = "b"\n  text = ""\n'
    assert error_of(tmp_path, text) == '11: card "b": text is empty'


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(DeckError, match=re.escape(f"{path}: no such deck file")):
        load_deck(path)


def test_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_bytes(HEADER.encode() + b'\n[[card]]\nid = "a"\ntext = "caf\xe9"\n')
    with pytest.raises(DeckError, match=re.escape(f"{path}:7: this file is not valid UTF-8 text")):
        load_deck(path)


def test_error_message_shows_hostile_values_safely(tmp_path: Path) -> None:
    message = error_of(tmp_path, '[deck]\nname = "\\u001b]0;x\\u0007[@click=app.quit]"\n' + cards_toml(1))
    assert "\x1b" not in message and "\x07" not in message
    assert message == '2: [deck]: name "[@click=app.quit]" must be 1-20 lowercase letters, digits or dashes'


# --- mixing decks ----------------------------------------------------------------------------------


def test_mixing_two_decks(tmp_path: Path) -> None:
    a = write(tmp_path, '[deck]\nname = "a"\n' + cards_toml(3, "a"), "a.toml")
    b = write(tmp_path, '[deck]\nname = "b"\n' + cards_toml(2, "b"), "b.toml")
    cards = resolve_decks([str(a), str(b)])
    assert [c.id for c in cards] == ["a-000", "a-001", "a-002", "b-000", "b-001"]
    assert [c.deck for c in cards] == ["a", "a", "a", "b", "b"]


def test_duplicate_ids_across_decks_name_both_files(tmp_path: Path) -> None:
    a = write(tmp_path, '[deck]\nname = "a"\n' + cards_toml(3, "x"), "a.toml")
    b = write(tmp_path, '[deck]\nname = "b"\n' + cards_toml(2, "x"), "b.toml")
    with pytest.raises(DeckError) as info:
        resolve_decks([str(a), str(b)])
    assert str(info.value) == f'{b}: card id "x-000" is already used in {a}'


def test_same_deck_twice(tmp_path: Path) -> None:
    a = write(tmp_path, '[deck]\nname = "a"\n' + cards_toml(3, "a"), "a.toml")
    with pytest.raises(DeckError, match=re.escape(f'{a}: deck "a" is listed twice')):
        resolve_decks([str(a), str(a)])


def test_two_decks_with_one_name(tmp_path: Path) -> None:
    a = write(tmp_path, '[deck]\nname = "a"\n' + cards_toml(3, "a"), "a.toml")
    b = write(tmp_path, '[deck]\nname = "a"\n' + cards_toml(3, "b"), "b.toml")
    with pytest.raises(DeckError, match=re.escape(f'{b}: deck name "a" is already used by {a}')):
        resolve_decks([str(a), str(b)])


def test_unknown_deck_name() -> None:
    with pytest.raises(DeckError, match=r'no deck called "nope": built-in decks are .*base'):
        resolve_decks(["nope"])
    with pytest.raises(DeckError, match=r'no built-in deck called "nope"'):
        load_builtin("nope")


def test_no_deck_given() -> None:
    with pytest.raises(DeckError, match="no deck given"):
        resolve_decks([])


def test_builtin_mixed_with_user_deck(tmp_path: Path) -> None:
    mine = write(tmp_path, HEADER + cards_toml(2))
    cards = resolve_decks(["base", str(mine)])
    assert len(cards) == 84 + 2
    assert cards[-1] == Card("mine-001", "Scene number 1 of mine.", "mine")


# --- check_enough ----------------------------------------------------------------------------------


def test_check_enough() -> None:
    cards = [Card(f"c-{i}", f"text {i}", "c") for i in range(20)]
    check_enough(cards, players=3, hand_size=6)
    check_enough(cards[:18], players=3, hand_size=6)
    with pytest.raises(DeckError) as info:
        check_enough(cards[:17], players=3, hand_size=6)
    assert str(info.value) == "this deck has 17 cards but 3 players x 6 cards need 18"


# --- the shipped base deck -------------------------------------------------------------------------


def test_builtin_names() -> None:
    assert "base" in builtin_deck_names()


def test_base_deck() -> None:
    deck = load_builtin("base")
    assert deck.name == "base"
    assert len(deck.cards) == 84
    assert len({c.id for c in deck.cards}) == 84
    assert len({c.text for c in deck.cards}) == 84
    assert all(1 <= len(c.text) <= CARD_TEXT_MAX for c in deck.cards)
    assert all(c.deck == "base" for c in deck.cards)
    assert resolve_decks(["base"]) == deck.cards


# --- the second built-in deck, atlas, and mixing it with base ---------------------------------------


def test_builtin_names_list_base_first_then_atlas() -> None:
    assert builtin_deck_names()[:1] == ["base"]
    assert "atlas" in builtin_deck_names()


def test_atlas_deck() -> None:
    deck = load_builtin("atlas")
    assert (deck.name, deck.title) == ("atlas", "Atlas deck")
    assert len(deck.cards) == 84
    assert [c.id for c in deck.cards] == [f"atlas-{i:03}" for i in range(1, 85)]
    assert len({c.text for c in deck.cards}) == 84
    assert all(c.deck == "atlas" for c in deck.cards)
    base = load_builtin("base").cards
    shortest, longest = min(len(c.text) for c in base), max(len(c.text) for c in base)
    for card in deck.cards:
        assert card.text == clean_card_text(sanitize(card.text, CARD_TEXT_MAX)), card.id  # nothing to clean
        assert shortest - 10 <= len(card.text) <= longest, card.id  # the length of base's cards
        assert card.text.isascii() and card.text[0].isupper() and card.text.endswith("."), card.id
    assert resolve_decks(["atlas"]) == deck.cards


def _stems(text: str) -> set[str]:
    return set(content_stems(text))


def test_no_two_built_in_cards_are_near_duplicates() -> None:
    """Across every shipped deck, no two cards share most of their words (a copied or reworded scene)."""
    cards = resolve_decks(builtin_deck_names())
    assert len(cards) == 84 * len(builtin_deck_names())
    stems = [(c.id, _stems(c.text)) for c in cards]
    for i, (a, sa) in enumerate(stems):
        for b, sb in stems[i + 1 :]:
            overlap = len(sa & sb) / len(sa | sb)
            assert overlap < 0.35, (a, b, sorted(sa & sb))


def test_base_and_atlas_mix_into_168_cards() -> None:
    cards = resolve_decks(["base", "atlas"])
    assert len(cards) == 168
    assert len({c.id for c in cards}) == 168
    assert {c.deck for c in cards} == {"base", "atlas"}
    check_enough(cards, 12, 7)  # more than enough for the biggest table


async def test_a_twelve_player_table_with_both_decks_deals_from_168_cards() -> None:
    coord = Coordinator(rng=random.Random(5), bots=seat_bots)
    host = await coord.connect(Identity("ana", "SHA256:ana"), lambda update: None)
    view = await host.create(TableOptions(profile="odyssey", decks=("base", "atlas"), seats=12))
    assert await host.add_bots(11) == 11
    await host.start()
    game = coord.tables[view.code].game
    assert game is not None
    state = game.state
    assert len(state.cards) == 168
    dealt = [card for hand in state.hands for card in hand]
    assert len(state.hands) == 12
    assert sorted(dealt + list(state.draw_pile)) == sorted(state.cards)
    assert {state.cards[c].deck for c in dealt} == {"base", "atlas"}  # both decks reach the hands
    assert view.options.decks == ("base", "atlas")
    assert coord.summaries()[0].decks == ("base", "atlas")
