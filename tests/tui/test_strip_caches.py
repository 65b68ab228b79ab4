"""A Strip's small caches are made when first used (`strip_caches`): a join makes far fewer of them than strips times
seven, and a strip's crop, style and filter still answer a second call from its cache. Counters, not times."""

from __future__ import annotations

from typing import Any

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.cache import FIFOCache
from textual.strip import Strip

from dixit_tui.coordinator import Identity
from dixit_tui.tui import strip_caches
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.line_cache import forget_shared
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import coordinator, options, settle

SIZE = (100, 30)


async def test_a_join_makes_a_strips_caches_only_when_used(monkeypatch: pytest.MonkeyPatch) -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    strip_caches.make_strip_caches_lazily()
    forget_shared()  # (lines and rows drawn by earlier tests' apps would not be made again here)
    strips = caches = 0
    strip_init, cache_init = Strip.__init__, FIFOCache.__init__

    def counting_strip(self: Strip, *args: Any, **kwargs: Any) -> None:
        nonlocal strips
        strips += 1
        strip_init(self, *args, **kwargs)

    def counting_cache(self: FIFOCache[Any, Any], *args: Any, **kwargs: Any) -> None:
        nonlocal caches
        caches += 1
        cache_init(self, *args, **kwargs)

    monkeypatch.setattr(Strip, "__init__", counting_strip)
    monkeypatch.setattr(FIFOCache, "__init__", counting_cache)
    app = DixitApp(coord, Identity("ana", "key-ana"), command=f"join {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
    assert strips >= 50
    # (before: seven per strip, 7 x strips; now fewer than one per strip, or one or two per strip when other
    # process-wide caches, such as the colour filter's, already hold the strips that are used again)
    assert caches < 2 * strips, f"{strips} strips made {caches} small caches"


def test_a_strip_still_answers_from_its_caches() -> None:
    strip_caches.make_strip_caches_lazily()
    strip = Strip([Segment("hello "), Segment("world", Style(bold=True))])
    assert strip.crop(1, 8) is strip.crop(1, 8)
    assert strip.crop(1, 8).text == "ello wo"
    red = Style(color="red")
    assert strip.apply_style(red) is strip.apply_style(red)
    assert strip.divide([3, 11]) is strip.divide([3, 11])
    assert [part.text for part in strip.divide([3, 11])] == ["hel", "lo world"]
    assert strip.adjust_cell_length(14) is strip.adjust_cell_length(14)
    assert strip.adjust_cell_length(14).cell_length == 14
    assert len(strip._crop_cache) == 1 and len(strip._style_cache) == 1
    assert strip.text == "hello world" and strip.cell_length == 11
    with pytest.raises(AttributeError):
        strip.no_such_thing  # type: ignore[attr-defined]  # noqa: B018
