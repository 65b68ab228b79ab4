"""Textual's insides are touched in one package, `dixit_tui/textual_host/`: no other product module imports a private
Textual module or name, or replaces a method (`type: ignore[method-assign]`). (Until issue 23 moved them into the
package, the table screen's speed patches in `dixit_tui/tui/` were listed here as exceptions.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "dixit_tui"
HOST = "dixit_tui/textual_host/"

NOT_TEXTUAL = {
    "dixit_tui/ssh/ignore_packets.py": ("SSHServerConnection.send_packet =", "asyncssh's (runtime_internals.py)"),
    "dixit_tui/ssh/receive_window.py": ("SSHServerChannel._deliver_data =", "asyncssh's (runtime_internals.py)"),
    "dixit_tui/ssh/driver.py": ("connection._send =", "asyncssh's, on one connection (runtime_internals.py)"),
    "dixit_tui/engine/frozen.py": ("cls.__init__ =", "the project's own frozen classes"),
}
"""Method replacements outside the package that are not of a Textual class: file -> (the assignment, whose)."""

METHOD_ASSIGN = re.compile(r"#\s*type:\s*ignore\[[^\]]*\bmethod-assign\b")


def product_files() -> dict[str, Path]:
    return {path.relative_to(ROOT).as_posix(): path for path in sorted(PACKAGE.rglob("*.py"))}


def private_textual_imports(tree: ast.Module) -> list[str]:
    """`import textual._x`, `from textual._x import y`, `from textual.x import _y`, `from textual import _x`."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
            names: list[str] = []
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            modules = [node.module]
            names = [alias.name for alias in node.names]
        else:
            continue
        for module in modules:
            parts = module.split(".")
            if parts[0] != "textual":
                continue
            if any(part.startswith("_") for part in parts[1:]) or any(name.startswith("_") for name in names):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_no_private_textual_import_outside_the_host_package() -> None:
    found = {}
    for name, path in product_files().items():
        if name.startswith(HOST):
            continue
        imports = private_textual_imports(ast.parse(path.read_text(encoding="utf-8")))
        if imports:
            found[name] = imports
    assert not found, f"private Textual imports belong in {HOST}: {found}"


def test_no_method_replaced_outside_the_host_package() -> None:
    found = {}
    for name, path in product_files().items():
        if name.startswith(HOST):
            continue
        allowed = NOT_TEXTUAL.get(name, ("\0", ""))[0]
        lines = [
            f"line {n}: {line.strip()}"
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if METHOD_ASSIGN.search(line) and not line.strip().startswith(allowed)
        ]
        if lines:
            found[name] = lines
    assert not found, f"a Textual method is replaced only in {HOST}: {found}"


def test_the_known_exceptions_are_still_there() -> None:
    """An exception that no longer replaces a method leaves the list."""
    files = product_files()
    for name, (assignment, _) in NOT_TEXTUAL.items():
        lines = files[name].read_text(encoding="utf-8").splitlines()
        assert any(line.strip().startswith(assignment) and METHOD_ASSIGN.search(line) for line in lines), name


def test_the_check_sees_each_kind_of_private_import() -> None:
    tree = ast.parse(
        "import textual._callback as c\nfrom textual._compositor import Compositor\n"
        "from textual.widget import Widget, _RenderCache\nfrom textual import _time, events\n"
        "from textual.widgets._toast import ToastRack\nfrom textual.widgets import Static\nimport textual.app\n"
    )
    assert [found.split(":")[0] for found in private_textual_imports(tree)] == [
        "line 1",
        "line 2",
        "line 3",
        "line 4",
        "line 5",
    ]
