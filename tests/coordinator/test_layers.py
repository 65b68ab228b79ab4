"""The coordinator is below the bots: the built-in bots are its clients, handed to it as a bot factory (as the stand-in
is), so nothing in the coordinator imports `dixit_tui.bots`, not even on use."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import dixit_tui.coordinator

COORDINATOR = Path(dixit_tui.coordinator.__file__).parent

# A coordinator without a bot factory, used the way the server uses it: a host asks for a bot (refused), a game is
# played to the end and rematched (its bot seat stays empty); then no module of dixit_tui.bots has been loaded.
USE = """
import asyncio, json, random, sys
from dixit_tui.coordinator import Coordinator, Identity, TableError, TableOptions


async def main() -> list[str]:
    coord = Coordinator(rng=random.Random(1), allow_seeded_tables=True)
    host = await coord.connect(Identity("ana"), lambda update: None)
    view = await host.create(TableOptions(seed=3))
    try:
        await host.add_bots(1)
    except TableError as err:
        assert err.code == "no_bots", err
    else:
        raise AssertionError("a coordinator without a bot factory seated a bot")
    table = coord.table(view.code)
    table.add_seat("Nyx", None, bot=True)
    for name in ("ben", "cy"):
        other = await coord.connect(Identity(name), lambda update: None)
        await other.join(view.code)
    await coord.commit(table)
    await host.start()
    await host.remove(2)  # ben and cy leave for good: too few are left, the game is over
    await host.remove(3)
    assert table.status == "over", table.status
    new = await host.rematch()
    assert [(s.name, s.connected) for s in new.seats] == [("ana", True), ("Nyx", False)], new.seats
    return sorted(m for m in sys.modules if m == "dixit_tui.bots" or m.startswith("dixit_tui.bots."))


print(json.dumps(asyncio.run(main())))
"""


def bots_imports(path: Path) -> list[str]:
    """Every import of dixit_tui.bots in one source file, at the top or inside a function."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        if any(n == "dixit_tui.bots" or n.startswith("dixit_tui.bots.") for n in names):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_coordinator_module_imports_the_bots() -> None:
    sources = sorted(COORDINATOR.glob("*.py"))
    assert len(sources) >= 8
    assert [hit for path in sources for hit in bots_imports(path)] == []


def test_the_source_check_would_catch_an_import_on_use(tmp_path: Path) -> None:
    source = tmp_path / "lazy.py"
    source.write_text("def f():\n    from dixit_tui.bots.player import add_bots\n    return add_bots\n")
    assert bots_imports(source) == ["lazy.py:2"]


def test_a_coordinator_without_a_bot_factory_runs_a_table_without_loading_the_bots() -> None:
    out = subprocess.run([sys.executable, "-c", USE], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.splitlines()[-1]) == []
