"""What the server needs of Textual's insides (and of asyncio's and asyncssh's), in one package: many Textual apps,
one per SSH session, hosted in one process.

Each module says which private parts it touches and why; `internals.py` (Textual) and `runtime_internals.py`
(asyncio, asyncssh) list every private part the project relies on, with the version checked and a fingerprint of
its source, and `check.py` compares them with the installed versions (`dixit-tui serve` at start, and
tests/test_textual_internals.py). No other product module imports a private Textual module or replaces a method of a
Textual class (tests/test_textual_host_boundary.py), but the modules listed below.

To stay (isolation of many apps in one process, and input):
- `hosted.py`: what the patches ask of a hosted app's driver (`ssh/driver.py`'s SSHDriver is one), and the interval
  at which a watching session's app takes updates (`tui/update_pacing.py`).
- `patches.py`: installs the process-wide patches below, once.
- `stdout.py`: a session's app leaves the process's sys.stdout/sys.stderr alone.
- `strip_output.py`: each session's lines in its own terminal's colour codes (Rich caches them per style).
- `strip_filter.py`: the ANSI-to-truecolor filter's lines made once for every session.
- `work_share.py`: the event loop's time counted per session (asyncio's Handle._run).
- `session_app.py`: a session's app takes its colour system from its terminal, not the server's environment.
- `parser.py`: Textual's terminal parser without its cache that pinned every session's app.
- `input_filter.py`: typed input cut into whole escape sequences Textual's parser reads safely.
- `key_order.py`: keys that arrive together act in the order typed.

To be removed by the redesign (a table drawn from data, issue 23), still in `dixit_tui/tui/` and still relying on
Textual's insides (their parts are in `internals.py`): compositor.py, styled_lines.py, shared_styles.py,
shared_css.py, subtree_layout.py, screen_patches.py, dispatch.py, panes.py, line_cache.py,
frame_patches.py.
"""
