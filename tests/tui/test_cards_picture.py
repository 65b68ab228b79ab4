"""The hand's and the board's picture (tui/cards_picture.py): the layout rules, and one picture for equal inputs
whose unchanged lines are the very strips of the picture before."""

from __future__ import annotations

from textual.content import Content
from textual.style import Style

from dixit_tui.tui.cards_picture import CardItem, CardStyles, cards_picture, layout, note_lines, scrolled
from dixit_tui.tui.picture import PictureCache
from tests.tui.pictures import picture_text

STYLES = CardStyles(Style(), Style(bold=True, reverse=True), Style(dim=True), Style(italic=True))
LONG = "A lighthouse keeper paints the sea every morning, and every evening the sea paints him back in grey."
CARDS = tuple(CardItem(f"c{n}", n, f"{LONG} ({n})") for n in range(1, 7))


def test_every_card_in_full_when_all_fit() -> None:
    cache = PictureCache()
    text = picture_text(cards_picture(cache, CARDS, 0, 0, None, 60, 30, STYLES))
    assert text.count("(") == 6 and "…" not in text
    assert text.splitlines()[0].startswith("▶ 1  A lighthouse")


def test_one_line_each_and_the_card_under_the_cursor_whole_when_they_do_not_fit() -> None:
    cache = PictureCache()
    lines = picture_text(cards_picture(cache, CARDS, 2, 0, Content("Enter gives a card."), 60, 10, STYLES)).split("\n")
    assert len(lines) == 10 and lines[-1] == " Enter gives a card."  # the note: the last row
    assert lines[0].startswith("  1  A lighthouse") and lines[0].endswith("…")
    assert lines[2].startswith("▶ 3  A lighthouse") and lines[3].strip().endswith("(3)")  # whole
    area = layout(CARDS, 2, 60, 9)
    assert area.heights == (1, 1, 2, 1, 1, 1) and area.total == 7


def test_in_a_small_room_the_card_under_the_cursor_leaves_two_rows_to_other_cards() -> None:
    """At 60x20 the hand has four rows: a long card under the cursor took them all (seen playing). It is cut with "…"
    so that two other cards show, one line each; with one row, one card; with room enough, it is whole."""
    tall = (*CARDS[:2], CardItem("c3", 3, " ".join([LONG] * 2)), *CARDS[3:])
    assert layout(tall, 2, 60, 40).heights == (2, 2, 4, 2, 2, 2)  # (all fit: every card whole)
    assert layout(tall, 2, 60, 4).heights == (1, 1, 2, 1, 1, 1)
    assert layout(tall, 2, 60, 1).heights == (1, 1, 1, 1, 1, 1)
    assert layout(tall, 2, 60, 6).heights == (1, 1, 4, 1, 1, 1)  # whole, and two rows for the others
    lines = picture_text(cards_picture(PictureCache(), tall, 2, 1, None, 60, 4, STYLES)).split("\n")
    assert [line[:4] for line in lines] == ["  2 ", "▶ 3 ", "    ", "  4 "], lines
    assert lines[2].rstrip().endswith("…") and lines[3].rstrip().endswith("…")


def test_a_note_longer_than_its_rows_ends_with_a_mark() -> None:
    """A note of four lines at 60x20 lost its fourth ("final.") without a mark (seen playing)."""
    note = Content("Enter marks or unmarks a card (marked: none); at 2 marked you confirm, then they are final.")
    lines = [line.plain for line in note_lines(note, 31)]
    assert len(lines) == 3 and lines[-1].endswith("…"), lines
    assert [line.plain for line in note_lines(note, 200)] == [note.plain]


def test_the_list_scrolls_to_show_the_card_under_the_cursor() -> None:
    area = layout(CARDS, 5, 60, 3)
    assert scrolled(0, area, 5, 3) == area.total - 3  # (its last row at the bottom)
    assert scrolled(area.total - 3, layout(CARDS, 0, 60, 3), 0, 3) == 0


def test_equal_inputs_give_the_same_picture_and_a_moved_cursor_changes_two_cards_rows() -> None:
    cache = PictureCache()
    first = cards_picture(cache, CARDS, 0, 0, None, 60, 30, STYLES)
    assert cards_picture(cache, CARDS, 0, 0, None, 60, 30, STYLES) is first  # (another screen: looked up)
    moved = cards_picture(cache, CARDS, 1, 0, None, 60, 30, STYLES)
    changed = [y for y, (a, b) in enumerate(zip(first, moved, strict=True)) if a is not b]
    assert changed == [0, 1, 2, 3], changed  # the two cards' rows; every other line is the same strip
    assert cache.counts.drawn == 2 and cache.counts.shared == 1


def test_card_text_is_plain_text() -> None:
    cache = PictureCache()
    card = CardItem("c1", 1, "[bold red]not markup[/]", ("✓ chosen",))
    text = picture_text(cards_picture(cache, (card,), 0, 0, None, 60, 3, STYLES))
    assert "▶ 1  [✓ chosen] [bold red]not markup[/]" in text
