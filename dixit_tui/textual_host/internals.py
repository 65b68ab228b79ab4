"""Every private part of Textual this project patches, overrides, adds to or reads, in one place, with the Textual
version it was checked against. `dixit_tui.textual_host.check` fingerprints each one in the installed Textual's source:
`dixit-tui serve` does at start (a WARNING per part that differs) and `tests/test_textual_internals.py` fails, naming
the part and the file that relies on it, when an upgrade changes one: re-check that code, then update the fingerprints
here (`python -m dixit_tui.textual_host.check` prints the current ones), and in `releases.py`, which has each part
in every release pyproject.toml's pin admits (8.0 to 8.2; `compat.py` adapts where they differ).

Touches no Textual internal itself: pure data (no Textual import), so the list can be read without Textual. The
private parts of asyncio and asyncssh the server relies on are listed the same way in `runtime_internals.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

CHECKED_WITH = "8.2.8"  # the Textual version every fingerprint below was taken from


@dataclass(frozen=True)
class Internal:
    module: str  # the module's file under its package's folder, e.g. "textual/screen.py"
    name: str  # Class.member, a module-level name (a definition, an assignment or an import)
    use: str  # what we do with it: patched, overridden, subclassed, added, read
    where: str  # the project file that relies on it
    fingerprint: str | None  # sha256 (first 16 hex digits) of its source at the version checked; None: not there


INTERNALS: tuple[Internal, ...] = (
    Internal(
        "textual/screen.py",
        "Screen._on_screen_resume",
        "patched: a new screen keeps the styles it mounted with on its first resume",
        "dixit_tui/textual_host/screen_patches.py",
        "e00b4ec53a62a57c",
    ),
    Internal(
        "textual/screen.py",
        "Screen.focused",
        "overridden: moving the focus does not repaint the whole table screen",
        "dixit_tui/textual_host/quiet_focus.py",
        "113be365bd5fcd46",
    ),
    Internal(
        "textual/css/stylesheet.py",
        "Stylesheet._parse_rules",
        "patched: CSS parsed once per process",
        "dixit_tui/textual_host/shared_css.py",
        "01a7957fb176d1ba",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor.render_partial_update",
        "overridden: Textual's, then the spans of rows the terminal shows already left out",
        "dixit_tui/textual_host/row_compositor.py",
        "b61a8d73910172a0",
    ),
    Internal(
        "textual/widget.py",
        "Widget._size_updated",
        "overridden: panes laid out once per change",
        "dixit_tui/textual_host/row_compositor.py",
        "2819b3f84f2abd0d",
    ),
    Internal(
        "textual/_xterm_parser.py",
        "XTermParser._parse_extended_key",
        "overridden (its lru_cache pinned parsers and apps): one cache keyed on the sequence",
        "dixit_tui/textual_host/parser.py",
        "7b39f7d9703a4356",
    ),
    Internal(
        "textual/_xterm_parser.py",
        "XTermParser.__init__",
        "subclassed and read (last_x, mouse_pixels, terminal_size, _awaiting)",
        "dixit_tui/textual_host/parser.py",
        "eb8d975102a567ef",
    ),
    Internal(
        "textual/_ansi_sequences.py",
        "ANSI_SEQUENCES_KEYS",
        "read: which escape sequences are keys",
        "dixit_tui/textual_host/input_filter.py",
        "cf365064027e076e",
    ),
    Internal(
        "textual/app.py",
        "App.__init__",
        "read and set per session: _filters, console (colour system), driver_class, _disable_tooltips, _notifications",
        "dixit_tui/textual_host/session_app.py, dixit_tui/tui/app.py, dixit_tui/textual_host/screen_patches.py",
        "c7c9165bbb6390aa",
    ),
    Internal(
        "textual/widget.py",
        "Widget.__init__",
        "read: _pending_children (the too-small notice composed with each screen)",
        "dixit_tui/tui/app.py",
        "3b39426f67200d32",
    ),
    Internal(
        "textual/_compositor.py",
        "ChopsUpdate.__init__",
        "read and made: a partial update's chops, spans and chop ends (the spans of rows shown already left out; "
        "each row sent as one chop, shared by the screens that send it)",
        "dixit_tui/textual_host/row_compositor.py",
        "15a3cd9221702a5a",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor.render_full_update",
        "overridden: the rows a full update sends are remembered (a row drawn the same again is not sent)",
        "dixit_tui/textual_host/row_compositor.py",
        "a1994e4646023125",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor.render_update",
        "overridden: a full update asked for outright (a screenshot) is not remembered as sent",
        "dixit_tui/textual_host/row_compositor.py",
        "0ad323b7518105ce",
    ),
    Internal(
        "textual/_compositor.py",
        "LayoutUpdate.__init__",
        "read: strips (the rows of a full update)",
        "dixit_tui/textual_host/row_compositor.py",
        "d82109e4a94910c0",
    ),
    Internal(
        "textual/app.py",
        "App._display",
        "read: an update made while the app batches is dropped (not remembered as sent)",
        "dixit_tui/textual_host/row_compositor.py",
        "a28efe0d48ef1300",
    ),
    Internal(
        "textual/strip.py",
        "Strip.render_style",
        "patched: the ANSI codes of a style per colour system (the shared style._ansi leaked between sessions)",
        "dixit_tui/textual_host/strip_output.py",
        "1c9d39eec67991a5",
    ),
    Internal(
        "textual/app.py",
        "App._get_screen",
        "overridden for a new screen: its AwaitMount asks for no second layout (called: _register)",
        "dixit_tui/textual_host/screen_mount.py",
        "3661ae3cd02783d1",
    ),
    Internal(
        "textual/widget.py",
        "AwaitMount.__await__",
        "repeated without the layout, when the screen's first resume laid it out",
        "dixit_tui/textual_host/screen_mount.py",
        "05816ca4ba646c86",
    ),
    Internal(
        "textual/widget.py",
        "Widget._check_refresh",
        "read: _layout_required and _repaint_required, cleared for widgets a new screen's first layout placed",
        "dixit_tui/textual_host/screen_patches.py",
        "a3731b142875c20c",
    ),
    Internal(
        "textual/css/stylesheet.py",
        "Stylesheet.parse",
        "patched: a stylesheet with the sources and variables of one parsed before takes its rules list (read: source, "
        "_rules, _require_parse, _rules_map)",
        "dixit_tui/textual_host/shared_css.py",
        "a28a3042b4f9cb09",
    ),
    Internal(
        "textual/css/stylesheet.py",
        "Stylesheet.apply",
        "patched: its answer kept per rules and path (read: the flags it sets, _has_hover_style, _has_focus_within, "
        "_has_order_style, _has_odd_or_even; it calls replace_rules and _process_component_classes)",
        "dixit_tui/textual_host/shared_styles.py",
        "fe49c5cda8e14b12",
    ),
    Internal(
        "textual/css/stylesheet.py",
        "Stylesheet.replace_rules",
        "patched: the rules apply hands it are kept; done as a copy of the result for a new node",
        "dixit_tui/textual_host/shared_styles.py",
        "9430861a7ae3bc32",
    ),
    Internal(
        "textual/css/model.py",
        "RuleSet._post_parse",
        "read: selector_names and pseudo_classes (every pseudo-class any of its selectors asks about)",
        "dixit_tui/textual_host/shared_styles.py",
        "ac9d28ea211661f6",
    ),
    Internal(
        "textual/css/match.py",
        "_check_selectors",
        "read: a match depends on each path node's type, id, classes and the pseudo-classes asked about",
        "dixit_tui/textual_host/shared_styles.py",
        "eb6e130d0c244e96",
    ),
    Internal(
        "textual/dom.py",
        "DOMNode._selector_names",
        "read: which rules may apply to a node",
        "dixit_tui/textual_host/shared_styles.py",
        "13f9bedcdc01f16e",
    ),
    Internal(
        "textual/_styles_cache.py",
        "StylesCache.render_widget",
        "patched: a widget's styled lines taken from a process-wide cache (the same arguments handed to render_line)",
        "dixit_tui/textual_host/styled_lines.py",
        "f75ee33a87886cb1",
    ),
    Internal(
        "textual/_styles_cache.py",
        "StylesCache.render",
        "repeated with the cache asked first: _cache, _dirty_lines, _width, clear; the filters and crop after it",
        "dixit_tui/textual_host/styled_lines.py",
        "41a402e58b23ce64",
    ),
    Internal(
        "textual/_styles_cache.py",
        "StylesCache.render_line",
        "called, and read: what a styled line depends on (its arguments, the styles it reads; the content line only "
        "for the rows between the gutters; a tint blended with the active app's ANSI theme)",
        "dixit_tui/textual_host/styled_lines.py",
        "1a5a0244a4028e98",
    ),
    Internal(
        "textual/widget.py",
        "Widget._PSEUDO_CLASSES",
        "read: :disabled and :enabled are is_disabled, worked out down a place's path",
        "dixit_tui/textual_host/shared_styles.py",
        "c126b79d467e03fd",
    ),
    Internal(
        "textual/widget.py",
        "Widget.is_disabled",
        "read: the node or a widget above it, up to the first node that is not a widget",
        "dixit_tui/textual_host/shared_styles.py",
        "25a5cbfee75b88b4",
    ),
    Internal(
        "textual/strip.py",
        "Strip.render",
        "patched: a line sent with its style codes only where the style changes, kept per colour system",
        "dixit_tui/textual_host/strip_output.py",
        "bf9d28edf4f44cb1",
    ),
    Internal(
        "textual/app.py",
        "redirect_stdout",
        "replaced in the module's namespace (and redirect_stderr): an app of an SSH session does not take the "
        "process's sys.stdout and sys.stderr",
        "dixit_tui/textual_host/stdout.py",
        "9d35fe7af0a2257f",
    ),
    Internal(
        "textual/app.py",
        "App._process_messages",
        "read: the app's run is wrapped in redirect_stdout/redirect_stderr, looked up in the module at each run",
        "dixit_tui/textual_host/stdout.py",
        "d9a5f220527c9109",
    ),
    Internal(
        "textual/message_pump.py",
        "MessagePump._parent",
        "read: a key's next stop on its way up (the gate follows it)",
        "dixit_tui/textual_host/key_order.py",
        "e52667bcc30c36fa",
    ),
    Internal(
        "textual/message.py",
        "Message.__init__",
        "read: _sender and _stop_propagation (where a key stops bubbling)",
        "dixit_tui/textual_host/key_order.py",
        "1687d1a95458c167",
    ),
    Internal(
        "textual/message_pump.py",
        "MessagePump._on_message",
        "read: a message bubbles to the parent unless stopped, and stops at its sender's parent",
        "dixit_tui/textual_host/key_order.py",
        "5bf00996a4e75b03",
    ),
    Internal(
        "textual/_context.py",
        "active_app",
        "read: the app a callback's context belongs to (whose session's work it is)",
        "dixit_tui/textual_host/work_share.py",
        "02a7961030224682",
    ),
)


MODULES: dict[str, str] = {
    "textual/screen.py": "b5ace323f3b7607d",
    "textual/css/stylesheet.py": "3f70ebc0d7aca401",
    "textual/_compositor.py": "820ca6940bec3a42",
    "textual/widget.py": "962dbb32409191bc",
    "textual/_xterm_parser.py": "7e279d11dee84514",
    "textual/_ansi_sequences.py": "0b4037a3f36997ca",
    "textual/app.py": "a1c04e978716b9e3",
    "textual/strip.py": "b58d946c8b0cbabc",
    "textual/message.py": "50816fcfe0098159",
    "textual/css/model.py": "a2076b0ea531bce0",
    "textual/css/match.py": "34247ea90eaaa406",
    "textual/dom.py": "c82d88213c827197",
    "textual/message_pump.py": "b580554a43fdfd14",
    "textual/_styles_cache.py": "7a197dfa0517d22f",
    "textual/_context.py": "523b25f71607193b",
}
"""Each module's whole file at CHECKED_WITH (a file unchanged has every part unchanged: checked at once)."""
