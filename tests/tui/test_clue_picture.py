"""The clue line as a picture (tui/clue_picture.py): one picture object for every session showing the same words at
the same width in the same style; at most three rows; player text shown as typed, never as markup."""

from __future__ import annotations

from rich.style import Style

from dixit_tui.tui.clue_picture import CLUE_ROWS, clue_picture
from dixit_tui.tui.table_words import Words

STYLE = Style(color="white", bgcolor="black")


def text(picture: tuple[object, ...]) -> list[str]:
    return ["".join(segment.text for segment in strip).rstrip() for strip in picture]  # type: ignore[attr-defined]


def test_the_same_words_give_the_same_picture_object() -> None:
    words = Words.of(("Clue: ", "bold"), ("“a [bold]storm[/]”", "bold italic"), " — told by ben")
    first = clue_picture(words, 60, STYLE)
    assert clue_picture(Words(words.parts), 60, STYLE) is first
    assert text(first) == ["Clue: “a [bold]storm[/]” — told by ben"]
    assert all(strip.cell_length == 60 for strip in first)
    assert clue_picture(words, 61, STYLE) is not first


def test_a_long_line_wraps_to_three_rows_at_most() -> None:
    words = Words.of(" ".join(["word"] * 60))
    picture = clue_picture(words, 30, STYLE)
    assert len(picture) == CLUE_ROWS == 3
    assert all(strip.cell_length == 30 for strip in picture)
    assert clue_picture(Words.of("No clue yet: anyone may give the first clue."), 80, STYLE) != ()
    assert clue_picture(words, 0, STYLE) == ()
