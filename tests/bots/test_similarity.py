"""The clue-to-card fit: normalising, stems, associations, and odd input."""

from __future__ import annotations

import pytest

from dixit_tui.bots.similarity import (
    ASSOCIATIONS,
    STOPWORDS,
    content_stems,
    fit,
    fits,
    groups_of,
    normalise,
    stem,
    words,
)
from dixit_tui.decks import builtin_deck_names, resolve_decks

WHALE = "A whale drifts over a sleeping village, trailing a string of paper lanterns from its tail."
DOOR = "A door stands alone on a beach, and the tide comes in on only one side of it."
HAT = "A mountain wears a woollen hat, and villagers climb it to knit the final stripe."


def test_normalise_casefolds_drops_punctuation_and_accents() -> None:
    assert normalise("  Ça, C'EST   l'Été!! ") == "ca c est l ete"
    assert words("Night-time... at the piano?") == ("night", "time", "at", "the", "piano")
    assert normalise("") == "" and words("!!! ... ---") == ()


def test_stopwords_and_short_words_are_dropped_and_the_rest_stemmed() -> None:
    assert content_stems("The stars and a starry sky") == ("star", "starri", "sky")
    assert "the" in STOPWORDS and content_stems("the of and a") == ()
    assert stem("sleeping") == stem("sleeps") == "sleep"


def test_same_stem_fits_fully() -> None:
    assert fit("tides", DOOR) == 1.0
    assert fit("Sleep", WHALE) == 1.0  # "sleeping"
    assert fit("lantern whale", WHALE) == 1.0


def test_associations_let_a_related_clue_fit() -> None:
    assert 0.5 <= fit("ocean", DOOR) < 1.0  # sea group: tide, beach
    assert fit("ocean", DOOR) > fit("ocean", HAT) == 0.0
    assert fit("night", "An owl reads under the moon") > 0.0  # night ~ moon
    assert fit("clock", "We are late again") > 0.0  # time ~ clock ~ late
    assert fit("home", "She opened the window") > 0.0  # home ~ window


def test_several_related_words_fit_better_than_one() -> None:
    both = "Children run on the beach while the tide turns"
    one = "Children run on the beach while the sun turns"
    assert fit("ocean", both) > fit("ocean", one) > 0.0


def test_a_stem_variant_fits_a_little() -> None:
    assert 0.0 < fit("sleepy", WHALE) < 0.5  # "sleepi" shares its start with "sleep"


def test_fit_is_the_mean_over_clue_words() -> None:
    assert fit("tide banana", DOOR) == pytest.approx(0.5)


@pytest.mark.parametrize(
    "clue, text",
    [
        ("", ""),
        ("", DOOR),
        (DOOR, ""),
        ("!!!", "???"),
        ("the a of", "and the"),
        ("日本語", "日本語のテキスト"),
        ("\x00\x1b[31m", "\u202e\u200b"),
        ("x" * 500, "y " * 500),
        ("1234 5678", "1234"),
        ("ŞŤĀŘŠ", "stars"),
    ],
)
def test_odd_text_never_crashes_and_stays_in_range(clue: str, text: str) -> None:
    value = fit(clue, text)
    assert 0.0 <= value <= 1.0


def test_the_association_table_is_a_reasonable_size_and_clean() -> None:
    assert 40 <= len(ASSOCIATIONS) <= 100  # two built-in decks' worth of ideas
    for group in ASSOCIATIONS:
        assert len(group) >= 4
        assert all(w == normalise(w) for w in group), group
        assert all(w not in STOPWORDS for w in group), group


def test_every_base_card_relates_to_some_group() -> None:
    for card in resolve_decks(["base"]):
        assert any(groups_of(s) for s in content_stems(card.text)), card.text


@pytest.mark.parametrize("deck", builtin_deck_names())
def test_every_built_in_deck_speaks_the_tables_language(deck: str) -> None:
    """Bots find related ideas on the cards of every shipped deck about as well as on base's: at least two words
    of each card belong to the association table, and three or more on average."""
    covered = [sum(1 for s in content_stems(c.text) if groups_of(s)) for c in resolve_decks([deck])]
    assert min(covered) >= 2, deck
    assert sum(covered) / len(covered) >= 3.0, deck


def test_a_clue_about_an_atlas_card_finds_it_among_base_cards() -> None:
    """A related (not copied) clue picks out an atlas card from a hand of base cards, as bots need to."""
    atlas = {c.id: c.text for c in resolve_decks(["atlas"])}
    base = [c.text for c in resolve_decks(["base"])[:5]]
    for card_id, clue in (("atlas-019", "concert"), ("atlas-046", "cinema"), ("atlas-083", "farm")):
        scores = fits(clue, [atlas[card_id], *base])
        assert scores[0] > max(scores[1:]), (card_id, clue, scores)
