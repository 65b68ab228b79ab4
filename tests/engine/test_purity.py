"""The engine is pure: importing it loads no UI, network, event loop or database module."""

from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = ("textual", "asyncssh", "asyncio", "sqlite3", "rich")


def test_engine_imports_no_ui_network_loop_or_database() -> None:
    code = (
        "import sys, json\n"
        "import dixit_tui.engine, dixit_tui.engine.random_play\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert json.loads(out.stdout) == []


def test_the_check_would_catch_an_impure_import() -> None:
    code = f"import sys, json, asyncio\nprint(json.dumps([m for m in sys.modules if m in {FORBIDDEN!r}]))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert "asyncio" in json.loads(out.stdout)
