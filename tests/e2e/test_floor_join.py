"""Any Textual app served over SSH shares what is the same for every session (`tui/shared_work.py`, which `serve` and
the test servers hand the SSH server as each app's setup): the benchmark's floor (a one-line app, not the game's)
opened a second time parses no CSS and matches no selector. Real asyncssh server and client on 127.0.0.1; counters,
not times."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import textual.css.stylesheet as stylesheet_module
from textual.css.stylesheet import Stylesheet

from dixit_tui.bench.floor import Broadcaster, build
from tests.e2e.harness import PtyClient, running_server

pytest.importorskip("pyte")


@pytest.mark.e2e
@pytest.mark.timeout(60)
@pytest.mark.same_on_two_workers
async def test_a_second_floor_session_parses_no_css_and_matches_no_selector(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = {"parsed": 0, "checked": 0}
    parse = stylesheet_module.parse
    check = Stylesheet._check_rule.__func__  # type: ignore[attr-defined]

    def counting_parse(*args: Any, **kwargs: Any) -> Any:
        counts["parsed"] += 1
        return parse(*args, **kwargs)

    def counting_check(cls: type[Stylesheet], rule_set: Any, nodes: Any) -> Any:
        counts["checked"] += 1
        return check(cls, rule_set, nodes)

    monkeypatch.setattr(stylesheet_module, "parse", counting_parse)
    monkeypatch.setattr(Stylesheet, "_check_rule", classmethod(counting_check))
    factory, handler = build(Broadcaster())
    async with running_server(tmp_path, factory, command_handler=handler) as server:
        first = await PtyClient.connect(server.port, "ana", command="watch F1")
        await first.wait_until(lambda: "table F1 · update 0" in first.screen_text(), 20.0, "the floor's line")
        counts.update(parsed=0, checked=0)
        second = await PtyClient.connect(server.port, "ben", command="watch F1")
        await second.wait_until(lambda: "table F1 · update 0" in second.screen_text(), 20.0, "the floor's line")
        # (before: every session parsed its CSS sources and matched selectors to style each of its widgets)
        assert counts["parsed"] == 0, f"the second session parsed {counts['parsed']} CSS sources"
        assert counts["checked"] == 0, f"the second session checked {counts['checked']} rule sets against widgets"
        await first.close()
        await second.close()
