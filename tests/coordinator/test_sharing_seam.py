"""Redis is a layer under the coordinator, not threaded through it: the coordinator (service.py, player_session.py)
knows only the `Sharing` interface, and the matchmaker (matchmaker.py) only its `QueueSharing` one; neither imports the
Redis implementation (coordinator/shared), which reads and writes Redis through the store's public
interface only."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import dixit_tui.coordinator

COORDINATOR = Path(dixit_tui.coordinator.__file__).parent


def imports_of(path: Path) -> set[str]:
    """Every module `path` imports (at the top, in a function or under TYPE_CHECKING)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.add(node.module)
    return found


def shared_sources() -> list[Path]:
    package = COORDINATOR / "shared"
    return sorted(package.glob("*.py")) if package.is_dir() else [COORDINATOR / "shared.py"]


def test_the_coordinator_imports_the_sharing_interface_and_not_the_redis_tables() -> None:
    for name in ("service.py", "player_session.py", "matchmaker.py"):
        path = COORDINATOR / name
        if not path.exists():
            continue
        imported = imports_of(path)
        assert not {m for m in imported if m.startswith("dixit_tui.coordinator.shared") or m.startswith("redis")}, name
        text = path.read_text(encoding="utf-8")
        assert not re.findall(r"(shared|sharing) is (not )?None", text), f"{name} asks whether it is shared"


def test_the_redis_tables_use_only_the_stores_public_interface() -> None:
    for path in shared_sources():
        text = path.read_text(encoding="utf-8")
        private = re.findall(r"\b(?:store|redis)\._[a-z]\w*", text)
        assert not private, f"{path.name} reads the Redis store's private members: {sorted(set(private))}"
        assert "_watch_idle" not in text, f"{path.name} calls into the coordinator's private members"
