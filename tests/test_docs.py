"""The docs name what the code has: README's map of the package, and protocol.md's `join` refusals."""

from __future__ import annotations

import re
from pathlib import Path

import dixit_tui

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(dixit_tui.__file__).resolve().parent


def _built_block() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"## How it is built\s+```\n(.*?)```", readme, re.S)
    assert match, "README has a 'How it is built' map"
    return match.group(1)


def test_the_readme_map_names_every_top_level_module_and_the_ssh_guards() -> None:
    block = _built_block()
    for path in sorted(PACKAGE.iterdir()):
        if path.name.startswith("_") and path.name != "__main__.py":
            continue
        if path.is_dir() and (path / "__init__.py").exists():
            assert f"{path.name}/" in block, path.name
        elif path.suffix == ".py":
            assert path.name in block, path.name
    for name in ("guard.py", "input.py"):
        assert name in block, name
    assert "lobby, table, dial, help, practice" not in block  # practice is a help text beside a real turn now


def test_protocol_join_row_points_to_reconnect_and_the_rematch() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `join` |"))
    assert "`reconnect_needed`" in row and "`reconnect`" in row and "rematch" in row, row


def test_operations_has_a_row_for_every_serve_option() -> None:
    """docs/operations.md's table of `serve` options names each option the parser has, and no other."""
    from dixit_tui.cli import parse

    _, parsers = parse(["serve"])
    options = set(re.findall(r"^  (--[a-z0-9-]+)", parsers["serve"].format_help(), re.M)) - {"--help"}
    assert "--port" in options and "--metrics-host" in options
    doc = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `(--[a-z0-9-]+)[ `]", doc, re.M))
    assert options - rows == set(), "serve options without a row in docs/operations.md"
    assert rows - options == set(), "rows in docs/operations.md for options serve does not have"


def test_the_start_line_the_docs_show_counts_the_internals_the_server_checks() -> None:
    """README and operations.md show what `serve` prints at start: the count of Textual internals it checks (it said
    117 for a while after the list had shrunk to 49)."""
    from dixit_tui.textual_host.internals import INTERNALS

    for doc in ("README.md", "docs/operations.md"):
        counts = re.findall(r"Textual [0-9.]+: (\d+) internals checked", (ROOT / doc).read_text(encoding="utf-8"))
        assert counts, doc
        assert {int(count) for count in counts} == {len(INTERNALS)}, (doc, counts)
