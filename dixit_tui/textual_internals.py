"""Every private part of Textual this project patches, overrides or reads, in one place, with the Textual version it
was checked against. `tests/test_textual_internals.py` fingerprints each one in the installed Textual's source and
fails, naming the part and the file that relies on it, when an upgrade changes it: re-check that code, then update
the fingerprint here (`python -m dixit_tui.textual_internals` prints the current ones). pyproject.toml pins Textual
to the minor version checked.

Pure data (no Textual import), so the list can be read without Textual.
"""

from __future__ import annotations

from dataclasses import dataclass

CHECKED_WITH = "8.2.8"  # the Textual version every fingerprint below was taken from


@dataclass(frozen=True)
class Internal:
    module: str  # the Textual module's file, e.g. "textual/screen.py"
    name: str  # Class.member or a module-level name
    use: str  # what we do with it: patched, overridden, subclassed, read
    where: str  # the project file that relies on it
    fingerprint: str  # sha256 (first 16 hex digits) of its source at CHECKED_WITH


INTERNALS: tuple[Internal, ...] = (
    Internal(
        "textual/screen.py",
        "Screen._on_timer_update",
        "patched: a watching session draws at most one frame per interval",
        "dixit_tui/ssh/driver.py",
        "b429ac0230009b4f",
    ),
    Internal(
        "textual/screen.py",
        "Screen._compositor_refresh",
        "patched: the same frame pacing",
        "dixit_tui/ssh/driver.py",
        "30c01d22baee5fa4",
    ),
    Internal(
        "textual/screen.py",
        "Screen._on_screen_resume",
        "patched: a new screen keeps the styles it mounted with on its first resume",
        "dixit_tui/tui/screen_patches.py",
        "e00b4ec53a62a57c",
    ),
    Internal(
        "textual/screen.py",
        "Screen.focused",
        "overridden: moving the focus does not repaint the whole table screen",
        "dixit_tui/tui/table_screen.py",
        "113be365bd5fcd46",
    ),
    Internal(
        "textual/css/stylesheet.py",
        "Stylesheet._parse_rules",
        "patched: CSS parsed once per process",
        "dixit_tui/tui/shared_css.py",
        "01a7957fb176d1ba",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor._get_renders",
        "overridden: an update composes only the rows that changed",
        "dixit_tui/tui/compositor.py",
        "c5f86e10abeff84b",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor.render_partial_update",
        "overridden: the same",
        "dixit_tui/tui/compositor.py",
        "b61a8d73910172a0",
    ),
    Internal(
        "textual/widget.py",
        "Widget._size_updated",
        "overridden: panes laid out once per change",
        "dixit_tui/tui/compositor.py",
        "2819b3f84f2abd0d",
    ),
    Internal(
        "textual/_xterm_parser.py",
        "XTermParser._parse_extended_key",
        "overridden (its lru_cache pinned parsers and apps): one cache keyed on the sequence",
        "dixit_tui/ssh/driver.py",
        "7b39f7d9703a4356",
    ),
    Internal(
        "textual/_xterm_parser.py",
        "XTermParser.__init__",
        "subclassed and read (last_x, mouse_pixels, terminal_size, _awaiting)",
        "dixit_tui/ssh/driver.py",
        "eb8d975102a567ef",
    ),
    Internal(
        "textual/_ansi_sequences.py",
        "ANSI_SEQUENCES_KEYS",
        "read: which escape sequences are keys",
        "dixit_tui/ssh/input.py",
        "cf365064027e076e",
    ),
    Internal(
        "textual/app.py",
        "App.__init__",
        "read and set per session: _filters, console (colour system), driver_class, _disable_tooltips, _notifications",
        "dixit_tui/ssh/session_runner.py, dixit_tui/tui/app.py, dixit_tui/tui/screen_patches.py",
        "c7c9165bbb6390aa",
    ),
    Internal(
        "textual/app.py",
        "App.get_theme",
        "overridden: a theme looked up once, not by copying the theme table per rendered line",
        "dixit_tui/tui/theme_lookup.py",
        "d8de68dbbe9d37c6",
    ),
    Internal(
        "textual/widget.py",
        "Widget._render_content",
        "overridden: text boxes and the seats panel rebuild only the lines whose text changed",
        "dixit_tui/tui/line_cache.py",
        "da5ab4f2d7c6a9be",
    ),
    Internal(
        "textual/widget.py",
        "Widget.__init__",
        "read: _pending_children (a pane's widgets mounted at once; the too-small notice composed with each screen)",
        "dixit_tui/tui/panes.py, dixit_tui/tui/app.py",
        "3b39426f67200d32",
    ),
    Internal(
        "textual/widgets/_content_switcher.py",
        "ContentSwitcher.__init__",
        "read: _initial (the pane shown first is built, the others when first shown)",
        "dixit_tui/tui/panes.py",
        "2766e6d454361bcd",
    ),
    Internal(
        "textual/app.py",
        "App._begin_batch",
        "called: no frame drawn while a late pane mounts",
        "dixit_tui/tui/panes.py",
        "ae7360a466d09239",
    ),
    Internal(
        "textual/app.py",
        "App._end_batch",
        "called: the same",
        "dixit_tui/tui/panes.py",
        "c7c873de0b85db2e",
    ),
    Internal(
        "textual/widgets/_option_list.py",
        "OptionList.watch_highlighted",
        "overridden: moving the highlight redraws two cards, not the list",
        "dixit_tui/tui/widgets/cards.py",
        "563d611ec6f41bce",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor._render_chops",
        "read: composed front to back, the first chop drawn at a place wins (widgets hidden behind are not drawn)",
        "dixit_tui/tui/compositor.py",
        "12a7979c94d3dbb9",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor.render_full_update",
        "overridden: the rows a full update sends are remembered (a row drawn the same again is not sent)",
        "dixit_tui/tui/compositor.py",
        "a1994e4646023125",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor.render_update",
        "overridden: a full update asked for outright (a screenshot) is not remembered as sent",
        "dixit_tui/tui/compositor.py",
        "0ad323b7518105ce",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor.reflow",
        "overridden: the rows remembered are forgotten at a new size",
        "dixit_tui/tui/compositor.py",
        "0ab52ea196636572",
    ),
    Internal(
        "textual/_compositor.py",
        "LayoutUpdate.__init__",
        "read: strips (the rows of a full update)",
        "dixit_tui/tui/compositor.py",
        "d82109e4a94910c0",
    ),
    Internal(
        "textual/app.py",
        "App._display",
        "read: an update made while the app batches is dropped (not remembered as sent)",
        "dixit_tui/tui/compositor.py",
        "a28efe0d48ef1300",
    ),
    Internal(
        "textual/widget.py",
        "Widget.virtual_size",
        "overridden: a card list's new virtual size lays nothing out",
        "dixit_tui/tui/widgets/cards.py",
        "257eb7a4d13171cb",
    ),
    Internal(
        "textual/widget.py",
        "Widget._refresh_scrollbars",
        "overridden: a fitted card list shows no scroll bar (read: _scrollbar_changes, _vertical_scrollbar)",
        "dixit_tui/tui/widgets/cards.py",
        "130065a3d94c57f2",
    ),
    Internal(
        "textual/widgets/_option_list.py",
        "OptionList._on_resize",
        "prevented when a card list is shown again at its size; done early when drawn at a new size",
        "dixit_tui/tui/widgets/cards.py",
        "ce9b6251761f5674",
    ),
    Internal(
        "textual/widgets/_option_list.py",
        "OptionList._clear_caches",
        "repeated without the redraw: _option_render_cache, _line_cache",
        "dixit_tui/tui/widgets/cards.py",
        "41906e2fce16f04b",
    ),
    Internal(
        "textual/widgets/_option_list.py",
        "OptionList._update_lines",
        "read: sets the virtual size and the scroll bars while drawing",
        "dixit_tui/tui/widgets/cards.py",
        "38f5deb50147d934",
    ),
    Internal(
        "textual/strip.py",
        "Strip.apply_filter",
        "patched: a line the ANSI-to-truecolor filter leaves unchanged is not copied (read: _filter_cache, _segments)",
        "dixit_tui/ssh/driver.py",
        "43a7e060303cc755",
    ),
    Internal(
        "textual/filter.py",
        "ANSIToTruecolor.truecolor_style",
        "read: which styles it changes (ANSI colours, dim text with a colour); the patched apply_filter skips others",
        "dixit_tui/ssh/driver.py",
        "80c9d23940219834",
    ),
    Internal(
        "textual/filter.py",
        "ANSIToTruecolor.apply",
        "read: a copy of each segment with its style converted and no control code",
        "dixit_tui/ssh/driver.py",
        "7ed2d5b2b7e949c1",
    ),
    Internal(
        "textual/strip.py",
        "Strip.render_style",
        "patched: the ANSI codes of a style per colour system (the shared style._ansi leaked between sessions)",
        "dixit_tui/ssh/driver.py",
        "1c9d39eec67991a5",
    ),
    Internal(
        "textual/app.py",
        "App._on_resize",
        "prevented for a Resize to the app's own size (read: _size, _resize_event)",
        "dixit_tui/tui/app.py",
        "4272d7e592be08cf",
    ),
    Internal(
        "textual/app.py",
        "App._get_screen",
        "overridden for a new screen: its AwaitMount asks for no second layout (called: _register)",
        "dixit_tui/tui/app.py",
        "3661ae3cd02783d1",
    ),
    Internal(
        "textual/widget.py",
        "AwaitMount.__await__",
        "repeated without the layout, when the screen's first resume laid it out",
        "dixit_tui/tui/app.py",
        "05816ca4ba646c86",
    ),
    Internal(
        "textual/screen.py",
        "Screen._screen_resized",
        "patched: a Resize to the size a screen is laid out at lays nothing out (read: _compositor.size)",
        "dixit_tui/tui/screen_patches.py",
        "5225534965f9847d",
    ),
    Internal(
        "textual/screen.py",
        "Screen._on_layout",
        "patched: a layout asked for before a new screen's first layout is answered by it",
        "dixit_tui/tui/screen_patches.py",
        "bc3e2f97c400c6e1",
    ),
    Internal(
        "textual/widget.py",
        "Widget._check_refresh",
        "read: _layout_required and _repaint_required, cleared for widgets a new screen's first layout placed",
        "dixit_tui/tui/screen_patches.py",
        "a3731b142875c20c",
    ),
    Internal(
        "textual/message.py",
        "Message.__init__",
        "read: time (when a Layout was asked for)",
        "dixit_tui/tui/screen_patches.py",
        "1687d1a95458c167",
    ),
    Internal(
        "textual/css/stylesheet.py",
        "Stylesheet.parse",
        "patched: a stylesheet with the sources and variables of one parsed before takes its rules list (read: source, "
        "_rules, _require_parse, _rules_map)",
        "dixit_tui/tui/shared_css.py",
        "a28a3042b4f9cb09",
    ),
    Internal(
        "textual/css/stylesheet.py",
        "Stylesheet.apply",
        "patched: its answer kept per rules and path (read: the flags it sets, _has_hover_style, _has_focus_within, "
        "_has_order_style, _has_odd_or_even; it calls replace_rules and _process_component_classes)",
        "dixit_tui/tui/shared_styles.py",
        "fe49c5cda8e14b12",
    ),
    Internal(
        "textual/css/stylesheet.py",
        "Stylesheet.replace_rules",
        "patched: the rules apply hands it are kept; done as a copy of the result for a new node",
        "dixit_tui/tui/shared_styles.py",
        "9430861a7ae3bc32",
    ),
    Internal(
        "textual/css/stylesheet.py",
        "Stylesheet.rules_map",
        "patched: one map per rules, shared by every app",
        "dixit_tui/tui/shared_styles.py",
        "59ffbbe9e17ead23",
    ),
    Internal(
        "textual/css/stylesheet.py",
        "Stylesheet._variable_tokens",
        "patched: one per set of CSS variables (read: _Stylesheet__variable_tokens)",
        "dixit_tui/tui/shared_styles.py",
        "a94dc71cd382e51b",
    ),
    Internal(
        "textual/css/styles.py",
        "Styles.refresh",
        "read: does nothing for an unmounted node (a new node's setters have no refresh to repeat)",
        "dixit_tui/tui/shared_styles.py",
        "073e7b56536ac4d1",
    ),
    Internal(
        "textual/css/styles.py",
        "Styles.set_rule",
        "repeated for a new node: _rules set, _updates counted",
        "dixit_tui/tui/shared_styles.py",
        "ed2e640f914292f3",
    ),
    Internal(
        "textual/css/_style_properties.py",
        "StringEnumProperty.__set__",
        "repeated for a new node: display updates _nodes, pointer the screen's pointer shape",
        "dixit_tui/tui/shared_styles.py",
        "cec7e20b85520172",
    ),
    Internal(
        "textual/css/_style_properties.py",
        "OverflowProperty._before_refresh",
        "repeated for a new node: _refresh_scrollbars",
        "dixit_tui/tui/shared_styles.py",
        "63eef57dc611729d",
    ),
    Internal(
        "textual/css/_style_properties.py",
        "LayoutProperty.__set__",
        "repeated for a new node: a layout object of its own (get_layout)",
        "dixit_tui/tui/shared_styles.py",
        "f1a597acf2ad161e",
    ),
    Internal(
        "textual/css/_style_properties.py",
        "ScrollbarColorProperty.__set__",
        "read: refreshes only scroll bars shown (none before a node mounts)",
        "dixit_tui/tui/shared_styles.py",
        "7b0161952efaa10c",
    ),
    Internal(
        "textual/css/model.py",
        "RuleSet._post_parse",
        "read: selector_names and pseudo_classes (every pseudo-class any of its selectors asks about)",
        "dixit_tui/tui/shared_styles.py",
        "ac9d28ea211661f6",
    ),
    Internal(
        "textual/css/match.py",
        "_check_selectors",
        "read: a match depends on each path node's type, id, classes and the pseudo-classes asked about",
        "dixit_tui/tui/shared_styles.py",
        "eb6e130d0c244e96",
    ),
    Internal(
        "textual/dom.py",
        "DOMNode._selector_names",
        "read: which rules may apply to a node",
        "dixit_tui/tui/shared_styles.py",
        "13f9bedcdc01f16e",
    ),
    Internal(
        "textual/message_pump.py",
        "MessagePump._get_dispatch_methods",
        "overridden: the handlers per (class, handler name, message class) kept, the per-message checks repeated",
        "dixit_tui/tui/dispatch.py",
        "da069c0e9734f280",
    ),
    Internal(
        "textual/message_pump.py",
        "_MessagePumpMeta.__new__",
        "read: _decorated_handlers, filled when a class is made (its __setattr__/__delattr__ patched: a handler "
        "set later forgets the lookups)",
        "dixit_tui/tui/dispatch.py",
        "f527aac8c23a8e5e",
    ),
    Internal(
        "textual/message_pump.py",
        "MessagePump._on_message",
        "read: consumes the lookups lazily (a handler's prevent_default stops the walk)",
        "dixit_tui/tui/dispatch.py",
        "5bf00996a4e75b03",
    ),
    Internal(
        "textual/screen.py",
        "Screen._on_update",
        "patched: a repaint asked for before the screen's last whole frame began is dropped (that frame drew it)",
        "dixit_tui/tui/frame_patches.py",
        "ea306183f2ed9080",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor.render_update",
        "patched: a whole frame a screen's own refresh draws is timed (not a screenshot, not one dropped in a batch)",
        "dixit_tui/tui/frame_patches.py",
        "0ad323b7518105ce",
    ),
    Internal(
        "textual/_callback.py",
        "_count_parameters",
        "patched: a callback's parameters counted once per function body or callable class",
        "dixit_tui/tui/callback_counts.py",
        "277031262506ab68",
    ),
    Internal(
        "textual/_callback.py",
        "count_parameters",
        "read: calls the module's _count_parameters, keeps the count on the function object",
        "dixit_tui/tui/callback_counts.py",
        "a0c185bb395bb90e",
    ),
    Internal(
        "textual/app.py",
        "App.get_css_variables",
        "overridden: worked out once per process for each theme (depends on the theme only)",
        "dixit_tui/tui/app.py",
        "5e7a60630934e186",
    ),
    Internal(
        "textual/app.py",
        "App.update_styles",
        "overridden: a widget not in the DOM yet is not styled (it is when it mounts)",
        "dixit_tui/tui/app.py",
        "dd2c8ed8079956be",
    ),
    Internal(
        "textual/widget.py",
        "Widget.refresh",
        "patched: a repaint notes the widget on its screen and resumes the update timer (no Prompt, no Update); "
        "read: a widget's lines are marked stale at once, its Update to the screen is posted later (when idle)",
        "dixit_tui/tui/dispatch.py, dixit_tui/tui/frame_patches.py",
        "9224b76d276f4834",
    ),
    Internal(
        "textual/screen.py",
        "Screen._on_update",
        "replaced for noted repaints: the update tick adds them to _dirty_widgets as this handler does (the "
        "Updates still posted go through the patch above)",
        "dixit_tui/tui/dispatch.py",
        "ea306183f2ed9080",
    ),
    Internal(
        "textual/screen.py",
        "Screen._on_idle",
        "read: resumes the update timer when a layout asked for arrives (a drawing put off for it waits for that)",
        "dixit_tui/tui/dispatch.py",
        "90bcadb26d1333d3",
    ),
    Internal(
        "textual/screen.py",
        "Screen._on_idle",
        "patched: also resumes the update timer for the regions its compositor still has to draw (a frame not rendered"
        " in a batch), which the tick then draws",
        "dixit_tui/tui/dispatch.py",
        "90bcadb26d1333d3",
    ),
    Internal(
        "textual/screen.py",
        "Screen._update_timer",
        "read: the timer (its private attribute, to know it exists) paused and resumed by the repaints and the pacing",
        "dixit_tui/tui/dispatch.py, dixit_tui/ssh/driver.py",
        "c333ed31bff9e1c1",
    ),
    Internal(
        "textual/_styles_cache.py",
        "StylesCache.render_widget",
        "patched: a widget's styled lines taken from a process-wide cache (the same arguments handed to render_line)",
        "dixit_tui/tui/styled_lines.py",
        "f75ee33a87886cb1",
    ),
    Internal(
        "textual/_styles_cache.py",
        "StylesCache.render",
        "repeated with the cache asked first: _cache, _dirty_lines, _width, clear; the filters and crop after it",
        "dixit_tui/tui/styled_lines.py",
        "41a402e58b23ce64",
    ),
    Internal(
        "textual/_styles_cache.py",
        "StylesCache.render_line",
        "called, and read: what a styled line depends on (its arguments, the styles it reads; the content line only "
        "for the rows between the gutters; a tint blended with the active app's ANSI theme)",
        "dixit_tui/tui/styled_lines.py",
        "1a5a0244a4028e98",
    ),
    Internal(
        "textual/widget.py",
        "AwaitMount.__await__",
        "read: each level of a pane mounted asks its parent for a layout (taken at once: Panes._take_layouts)",
        "dixit_tui/tui/panes.py",
        "05816ca4ba646c86",
    ),
    Internal(
        "textual/widget.py",
        "Widget._check_refresh",
        "repeated: a layout asked for handed to the screen (read: _layout_required, _clear_arrangement_cache, "
        "_layout_updates)",
        "dixit_tui/tui/panes.py",
        "a3731b142875c20c",
    ),
    Internal(
        "textual/screen.py",
        "Screen._on_layout",
        "repeated: the same (read: _layout_widgets, _layout_required)",
        "dixit_tui/tui/panes.py",
        "bc3e2f97c400c6e1",
    ),
    Internal(
        "textual/strip.py",
        "Strip.__init__",
        "patched: the seven caches are made when first used (Strip.__getattr__ added)",
        "dixit_tui/tui/strip_caches.py",
        "466b535b5e38cc72",
    ),
    Internal(
        "textual/strip.py",
        "Strip.__slots__",
        "read: the cache slots and their sizes, as Strip.__init__ makes them",
        "dixit_tui/tui/strip_caches.py",
        "48cb671596a1bdea",
    ),
    Internal(
        "textual/reactive.py",
        "Reactive._initialize_object",
        "patched: a plain default stored from a plan per class",
        "dixit_tui/tui/reactive_init.py",
        "67d84d01b8b8a689",
    ),
    Internal(
        "textual/reactive.py",
        "Reactive._initialize_reactive",
        "read: what it does for a plain default (no init, no toggle class, no factory)",
        "dixit_tui/tui/reactive_init.py",
        "a0cbc1eab6942f8c",
    ),
    Internal(
        "textual/widget.py",
        "Widget._PSEUDO_CLASSES",
        "read: :disabled and :enabled are is_disabled, worked out down a place's path",
        "dixit_tui/tui/shared_styles.py",
        "c126b79d467e03fd",
    ),
    Internal(
        "textual/widget.py",
        "Widget.is_disabled",
        "read: the node or a widget above it, up to the first node that is not a widget",
        "dixit_tui/tui/shared_styles.py",
        "25a5cbfee75b88b4",
    ),
    Internal(
        "textual/dom.py",
        "DOMNode.screen",
        "patched: the same walk up the parents, reading each parent's weak reference directly",
        "dixit_tui/tui/screen_patches.py",
        "34ce7ac464f67c74",
    ),
    Internal(
        "textual/message_pump.py",
        "MessagePump._parent",
        "read: the parent is a weak reference in _MessagePump__parent (or None)",
        "dixit_tui/tui/screen_patches.py",
        "e52667bcc30c36fa",
    ),
    Internal(
        "textual/_compositor.py",
        "ChopsUpdate.render_segments",
        "repeated per row (a row's output looked up process-wide): the same move, crop and render of each chop",
        "dixit_tui/tui/compositor.py",
        "9457b4621f67e725",
    ),
    Internal(
        "textual/widget.py",
        "Widget.region",
        "patched: while the compositor draws a widget, its region is the compositor's (not found again in the map)",
        "dixit_tui/tui/styled_lines.py",
        "7207c6e06d882221",
    ),
    Internal(
        "textual/strip.py",
        "Strip.divide",
        "read: cached on the strip (a shared strip divided at the same cuts gives the same chops to every session)",
        "dixit_tui/tui/compositor.py",
        "708bd67448d837d1",
    ),
    Internal(
        "textual/filter.py",
        "ANSIToTruecolor.__init__",
        "read: _terminal_theme (a strip filtered once per theme and background for every session)",
        "dixit_tui/ssh/driver.py",
        "4eb17c26934e2275",
    ),
    Internal(
        "textual/widget.py",
        "Widget.post_message",
        "patched: a layout's Resize, Show or Hide that its widget would not act on is not posted",
        "dixit_tui/tui/quiet_messages.py",
        "c4e0d5a8d8c22a77",
    ),
    Internal(
        "textual/message.py",
        "Message._bubble_to",
        "patched: a focus move or a highlight bubbles straight to the first ancestor with a handler",
        "dixit_tui/tui/quiet_messages.py",
        "cd6924eed830e177",
    ),
    Internal(
        "textual/message_pump.py",
        "MessagePump._process_messages_loop",
        "read: a message costs its receiver a dispatch and an Idle (what quiet_messages saves)",
        "dixit_tui/tui/quiet_messages.py",
        "625a9aadb1ee8666",
    ),
    Internal(
        "textual/widget.py",
        "Widget._on_show",
        "read: acts only for scroll bars (a Show is moot otherwise)",
        "dixit_tui/tui/quiet_messages.py",
        "286416ca2e711190",
    ),
    Internal(
        "textual/widget.py",
        "Widget._on_hide",
        "read: acts only for scroll bars and the focused widget",
        "dixit_tui/tui/quiet_messages.py",
        "494dc951a409c743",
    ),
    Internal(
        "textual/widget.py",
        "Widget._on_idle",
        "read: an Idle only checks the refresh flags",
        "dixit_tui/tui/quiet_messages.py",
        "edf5e3bcc61794be",
    ),
    Internal(
        "textual/screen.py",
        "Screen._refresh_layout",
        "read: the Resize, Show and Hide a layout posts",
        "dixit_tui/tui/quiet_messages.py",
        "d5155dd0cae68add",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor.reflow",
        "patched: the full map a reflow makes is kept as current (_full_map_invalidated)",
        "dixit_tui/tui/quiet_messages.py",
        "0ab52ea196636572",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor.full_map",
        "read: the same",
        "dixit_tui/tui/quiet_messages.py",
        "78eecc4a9cbaeecb",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor._arrange_root",
        "copied: its add_widget, started at a container placed as the screen's last layout placed it",
        "dixit_tui/tui/subtree_layout.py",
        "371c8d3116b594dc",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor.reflow",
        "repeated for a part laid out: the hidden, shown and resized widgets, the regions to draw",
        "dixit_tui/tui/compositor.py",
        "0ab52ea196636572",
    ),
    Internal(
        "textual/_compositor.py",
        "Compositor.reflow_visible",
        "overridden: a scroll leaves the full map out of date (the next layout is of the whole screen)",
        "dixit_tui/tui/compositor.py",
        "3cefeffcb01594d3",
    ),
    Internal(
        "textual/screen.py",
        "Screen._refresh_layout",
        "patched: a layout for the layouts asked for (no size given, no scroll) may be of a part of the screen",
        "dixit_tui/tui/screen_patches.py",
        "d5155dd0cae68add",
    ),
    Internal(
        "textual/screen.py",
        "Screen._on_layout",
        "read: _layout_widgets, the containers a layout was asked of",
        "dixit_tui/tui/compositor.py",
        "bc3e2f97c400c6e1",
    ),
    Internal(
        "textual/widget.py",
        "Widget._check_refresh",
        "read: a layout asked for clears the arrangements kept by the widget's ancestors, up to the first one not "
        "sized by its content",
        "dixit_tui/tui/compositor.py",
        "a3731b142875c20c",
    ),
    Internal(
        "textual/widget.py",
        "Widget.arrange",
        "read: a container's arrangement kept (_arrangement_cache), reused by a whole layout",
        "dixit_tui/tui/compositor.py",
        "4d2b90a58cdba210",
    ),
    Internal(
        "textual/messages.py",
        "Layout.can_replace",
        "read: Layout messages waiting in a row are merged into one (the screen learns of one widget)",
        "dixit_tui/tui/compositor.py",
        "0697f0d3c09d2336",
    ),
    Internal(
        "textual/_node_list.py",
        "NodeList.updated",
        "undone in part: a pane shown or hidden counts as a change of its own children and of every ancestor's; "
        "the switcher puts back the counts (_updates) of all but itself",
        "dixit_tui/tui/panes.py",
        "15c582326563e333",
    ),
    Internal(
        "textual/css/_style_properties.py",
        "StringEnumProperty.__set__",
        "read: setting display calls NodeList.updated on the widget's own children",
        "dixit_tui/tui/panes.py",
        "cec7e20b85520172",
    ),
    Internal(
        "textual/widgets/_content_switcher.py",
        "ContentSwitcher.watch_current",
        "read: it only sets the display of the old and the new pane",
        "dixit_tui/tui/panes.py",
        "ff4ffd4ada5b1a9b",
    ),
)


def source_of(text: str, name: str) -> str | None:
    """The source of `name` (Class.member or a module-level name) in a module's text, or None if it is not there."""
    import ast

    tree = ast.parse(text)
    path = name.split(".")
    scope: list[ast.stmt] = tree.body
    node: ast.stmt | None = None
    for i, part in enumerate(path):
        node = None
        for stmt in scope:
            names: list[str] = []
            if isinstance(stmt, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                names = [stmt.name]
            elif isinstance(stmt, ast.Assign):
                names = [t.id for t in stmt.targets if isinstance(t, ast.Name)]
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                names = [stmt.target.id]
            if part in names:
                node = stmt  # the last definition wins, as at run time
        if node is None:
            return None
        if i < len(path) - 1:
            if not isinstance(node, ast.ClassDef):
                return None
            scope = node.body
    assert node is not None
    return ast.get_source_segment(text, node)


def fingerprint(source: str) -> str:
    import hashlib

    return hashlib.sha256(source.encode()).hexdigest()[:16]


def current() -> dict[str, str | None]:
    """Each internal's fingerprint in the installed Textual (None: it is gone)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("textual")
    assert spec is not None and spec.origin is not None
    root = Path(spec.origin).parent.parent
    out: dict[str, str | None] = {}
    for item in INTERNALS:
        source = source_of((root / item.module).read_text(), item.name)
        out[f"{item.module}:{item.name}"] = None if source is None else fingerprint(source)
    return out


if __name__ == "__main__":
    for key, value in current().items():
        print(f"{value}  {key}")
