"""The import graph of dixit_tui, read from the source (every import: at the top, inside a function, under
TYPE_CHECKING): the SSH transport does not reach up into the tui, and no two parts of the product import each other,
however far round; nor do any two of its modules (files), inside a part or across parts.

The parts: each package of dixit_tui (bench, bots, coordinator, decks, engine, protocol, ssh, store, textual_host,
tui, ...) and each top-level module (cli.py, sanitize.py, line_mode.py, ...) on its own, since the top level holds
both the small shared pieces (sanitize, counts) and the commands that use everything (cli, replay, league, and
serve.py, the composition root, which builds the coordinator, the app factory, the bots and the command handler: it
imports every part, and no part but the command line and the benchmark imports it).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import dixit_tui

ROOT = Path(dixit_tui.__file__).parent


def module_name(path: Path) -> str:
    """dixit_tui/ssh/server.py -> "ssh.server"; dixit_tui/engine/__init__.py -> "engine"."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def is_module(name: str) -> bool:
    """Whether "dixit_tui.x.y" is a module of the package (x/y.py or x/y/__init__.py)."""
    path = ROOT.joinpath(*name.split(".")[1:])
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imported(path: Path) -> Iterator[tuple[str, int]]:
    """Each dixit_tui module `path` imports (without the "dixit_tui." prefix), with the line. `from dixit_tui.x import
    y` imports dixit_tui.x.y if that is a module (`from dixit_tui.coordinator import detached`), else dixit_tui.x;
    the packages around a module, which Python runs first, are not counted (each package's __init__ would be in a
    loop with the modules it gathers)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            names = [
                f"{node.module}.{a.name}" if is_module(f"{node.module}.{a.name}") else node.module for a in node.names
            ]
        else:
            continue
        for name in names:
            if name.startswith("dixit_tui."):
                yield name.removeprefix("dixit_tui."), node.lineno


def part_of(module: str) -> str:
    return module.split(".")[0]


def part_edges() -> dict[str, dict[str, list[str]]]:
    """part -> the parts it imports -> where ("ssh/server.py:37")."""
    edges: dict[str, dict[str, list[str]]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        source = part_of(module_name(path))
        for name, line in imported(path):
            target = part_of(name)
            if target != source:
                where = f"{path.relative_to(ROOT)}:{line}"
                edges.setdefault(source, {}).setdefault(target, []).append(where)
    return edges


def module_edges() -> dict[str, dict[str, list[str]]]:
    """module -> the modules it imports -> where ("coordinator/table.py:37")."""
    edges: dict[str, dict[str, list[str]]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        source = module_name(path)
        for target, line in imported(path):
            where = edges.setdefault(source, {}).setdefault(target, []) if target != source else []
            if f"{path.relative_to(ROOT)}:{line}" not in where:
                where.append(f"{path.relative_to(ROOT)}:{line}")
    return edges


def cycles(edges: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """The strongly connected components of more than one part or module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(part: str) -> None:
        index[part] = low[part] = len(index)
        stack.append(part)
        for other in edges.get(part, {}):
            if other not in index:
                visit(other)
                low[part] = min(low[part], low[other])
            elif other in stack:
                low[part] = min(low[part], index[other])
        if low[part] == index[part]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == part:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for part in sorted(set(edges) | {t for targets in edges.values() for t in targets}):
        if part not in index:
            visit(part)
    return found


def test_the_ssh_transport_imports_no_tui_module() -> None:
    """The composition root (dixit_tui/serve.py, outside the SSH layer) hands the server the app factory and the work
    every app of the process shares (tui/shared_work.py). Before, ssh/session.py imported five tui cache modules and
    ssh/terminal.py the tui's Capabilities."""
    upward = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in sorted((ROOT / "ssh").rglob("*.py"))
        for name, line in imported(path)
        if name == "tui" or name.startswith("tui.")
    ]
    assert upward == [], upward


def test_the_protocol_imports_no_transport_and_no_way_of_playing() -> None:
    """The JSON-lines contract sits below what serves it: it imports no SSH module, no screen, no line mode and no bot
    (bots and the SSH layer import it). Before, protocol/plain.py (the commands of a session without a terminal, now
    plain_commands.py) imported the line mode and ssh/terminal.py, which put the protocol above the bots that use it."""
    above = {"ssh", "tui", "line_mode", "bots", "textual_host", "plain_commands", "serve"}
    upward = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in sorted((ROOT / "protocol").rglob("*.py"))
        for name, line in imported(path)
        if part_of(name) in above
    ]
    assert upward == [], upward


def test_no_two_parts_of_the_product_import_each_other() -> None:
    edges = part_edges()
    found = cycles(edges)
    described = [
        [f"{a} -> {b}: {', '.join(edges[a][b])}" for a in component for b in component if b in edges.get(a, {})]
        for component in found
    ]
    assert found == [], described


def test_no_two_modules_of_the_product_import_each_other() -> None:
    """However far round, and counting the imports under TYPE_CHECKING and in function bodies: a module that needs
    something of a module above it says what in a small Protocol, or is handed it. Before: bots/strategy.py <->
    shrewd.py, coordinator/results.py <-> table.py, shared/queue.py and replica.py <-> shared/tables.py,
    textual_host/patches.py <-> work_share.py, and matchmaker, player_session, queue_sharing, service and sharing."""
    edges = module_edges()
    found = cycles(edges)
    described = [
        [f"{a} -> {b}: {', '.join(edges[a][b])}" for a in component for b in component if b in edges.get(a, {})]
        for component in found
    ]
    assert found == [], described


def test_the_check_counts_imports_in_function_bodies_and_finds_a_cycle(tmp_path: Path) -> None:
    source = tmp_path / "serve.py"
    source.write_text(
        "import asyncio\n\ndef f():\n    from dixit_tui.tui.app import DixitApp\n    import dixit_tui.bots\n"
    )
    assert list(imported(source)) == [("tui.app", 4), ("bots", 5)]
    source.write_text("from dixit_tui.coordinator import detached, Coordinator\nfrom dixit_tui import sanitize\n")
    assert list(imported(source)) == [("coordinator.detached", 1), ("coordinator", 1), ("sanitize", 2)]
    edges = {"bots": {"ssh_client": ["bots/cli.py:1"]}, "ssh_client": {"protocol": ["x"]}, "protocol": {"bots": ["y"]}}
    assert cycles(edges) == [["bots", "protocol", "ssh_client"]]
    assert cycles({"a": {"b": ["a.py:1"]}, "b": {}}) == []
