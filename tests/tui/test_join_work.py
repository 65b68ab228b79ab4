"""What a session's `join CODE` costs in work, counted, not timed: the Python calls from the app's creation to its
table on screen once another session has joined before it, its drawings and its stylings."""

from __future__ import annotations

from typing import Any

import pytest
import textual
from packaging.version import Version
from textual._compositor import Compositor

from dixit_tui.coordinator import Identity
from dixit_tui.textual_host.process_caches import forget_shared
from dixit_tui.textual_host.row_compositor import RowCompositor
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from dixit_tui.tui.widgets.too_small import TooSmall
from tests.tui.fixtures import coordinator, options, screen_text, settle
from tests.work_counters import PythonCalls

SIZE = (100, 30)
CALLS = 75_500
"""Python calls for a join once another session has joined, headless, the test pilot's own calls included: 98,100
before styles, stylesheets and handler lookups were shared across sessions, 79,100 after; 75,700 before widgets were
styled only once in the DOM and the first frame stayed the only drawing, 68,500 after; 65,300 once callbacks'
parameters and the theme's CSS variables were worked out once per process; 62,200 before a place's :disabled was
worked out down its path, reactive defaults were stored from a plan per class and strips made their caches only when
used, 59,400 after; 58,500 once a node found its screen without a property call per parent; 56,000 before the
"terminal too small" notice was mounted only on a screen shown too small, 55,200 after; 55,500 before three patches
of Textual that saved under 1% of a join's calls each were removed (reactive defaults from a plan, strips' lazy
caches, the theme lookup: issue 23, measured by tests/tui/patch_cost.py), 57,000 after; 61,000 once callbacks'
parameters were counted again per callback (3.5%), every Show, Hide and Resize was posted and a bubbling message went
through every container (2.8%), and a node found its screen through Textual's property again (1.3%); 63,700 once a
message's handlers were looked up by Textual's walk of the classes again (4.4%); 66,100 once widgets' repaints went
Textual's way again and Textual rendered the frames it then dropped (dispatch.py, frame_patches.py: 3.8%); 74,500
once four app overrides (7%: update_styles, get_css_variables, the default screen's repaint, the same-size Resize)
and the rows looked up process-wide by the table's compositor went (issue 23, tests/tui/patch_cost.py; the
compositor now draws the rows of Textual's repaint after a new screen's first frame, and sends none of them).

Textual before 8.2.2 (the pin admits 8.0 on) takes a screen's breakpoint classes off and puts them back at each
Resize (Screen._set_breakpoints), each a restyle of the whole screen: there a join makes about 166,000 calls
(8.0.0: 162,200; 8.1.1 and 8.2.1: 166,300), some 4,500 more once dispatch.py and frame_patches.py went too (issue
23), and 153,300 on 8.0.0 once the side column was one picture, `CALLS_BEFORE_8_2_2` at most."""
CALLS_BEFORE_8_2_2 = 172_000


async def joined(coord: Any, code: str, name: str) -> DixitApp:
    app = DixitApp(coord, Identity(name, f"key-{name}"), command=f"join {code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert f"Dixit · table {code}" in screen_text(app)
    return app


async def test_a_second_join_stays_within_its_python_calls() -> None:
    forget_shared()  # (the same lines drawn by another test's app: the first join here draws them)
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    await joined(coord, view.code, "ana")
    with PythonCalls() as counted:
        await joined(coord, view.code, "ben")
    calls = counted.calls
    most = CALLS if Version(textual.__version__) >= Version("8.2.2") else CALLS_BEFORE_8_2_2
    assert calls <= most, f"a join made {calls} Python calls (at most {most})"


async def test_a_join_draws_its_table_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table screen's first frame is the only one sent until something changes: the repaints its widgets asked for
    while it mounted (and the chat feed's first Resize, at the size it was drawn at) were sent again after it, most
    of the screen a second time (Textual still repaints the whole screen after its first frame: its compositor finds
    every row shown already, and sends nothing). No screen gets a "terminal too small" notice while the terminal is
    large enough (see `test_a_screen_gets_the_too_small_notice_only_once_the_terminal_is`)."""
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    await joined(coord, view.code, "ana")
    frames = 0
    full, partial = Compositor.render_full_update, RowCompositor.render_partial_update

    def counting_full(compositor: Compositor, simplify: bool = False) -> Any:
        nonlocal frames
        frames += 1
        return full(compositor, simplify)

    def counting_partial(compositor: RowCompositor) -> Any:
        nonlocal frames
        update = partial(compositor)
        frames += update is not None
        return update

    monkeypatch.setattr(Compositor, "render_full_update", counting_full)
    monkeypatch.setattr(RowCompositor, "render_partial_update", counting_partial)
    app = DixitApp(coord, Identity("ben", "key-ben"), command=f"join {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, rounds=6)
        assert isinstance(app.screen, TableScreen)
        # (before: 2, the second repainting most of the table's rows)
        assert frames == 1, f"the new table screen was sent {frames} times"
        assert not app.screen_stack[0].query_children(TooSmall)
        assert f"Dixit · table {view.code}" in screen_text(app)


async def test_a_screen_gets_the_too_small_notice_only_once_the_terminal_is() -> None:
    """The "terminal too small" notice is a widget of its own on a screen (hidden by CSS at a size that fits): it was
    composed into every new screen (the table's, the lobby's, each dialog's), mounted and styled at every join for a
    notice almost nobody sees. It is mounted on the screen shown when the terminal becomes too small (or on a screen
    opened while it is), and stays there."""
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    app = DixitApp(coord, Identity("ana", "key-ana"), command=f"join {view.code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        # (before: a notice on the table screen, composed with it)
        assert [screen for screen in app.screen_stack if screen.query_children(TooSmall)] == []
        await pilot.resize_terminal(50, 15)
        await settle(pilot)
        assert app.screen.query_children(TooSmall)
        assert "Terminal too small" in screen_text(app)
        await pilot.resize_terminal(*SIZE)
        await settle(pilot)
        assert "Terminal too small" not in screen_text(app)
        assert f"Dixit · table {view.code}" in screen_text(app)
        await pilot.resize_terminal(50, 15)
        await pilot.press("f1")  # (not played: the notice shows)
        await settle(pilot)
        assert isinstance(app.screen, TableScreen) and len(app.screen.query_children(TooSmall)) == 1
    ana = DixitApp(coord, Identity("ben", "key-ben"))
    async with ana.run_test(size=(50, 15)) as pilot:  # a lobby opened too small has it from the start
        await settle(pilot)
        assert "Terminal too small" in screen_text(ana)
