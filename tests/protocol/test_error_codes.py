"""The `code` of an error is one enum, `ErrorCode`: each member is a row of docs/protocol.md's table of errors and an
example of the schema's `error`, and no refusal in dixit_tui names its code as a bare string."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from dixit_tui.engine import ErrorCode
from dixit_tui.protocol.messages import error
from dixit_tui.protocol.schema import load_schema

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "dixit_tui"
# The refusals: the engine's base, the coordinator's and the protocol's (BadCommand is a TableError).
REFUSALS = frozenset({"RuleError", "TableError", "BadCommand"})


def _documented() -> list[str]:
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = doc.split("\n## Errors\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \|", section, re.M)


def test_every_code_is_documented_once_and_every_documented_code_is_a_member() -> None:
    rows = _documented()
    assert len(rows) == len(set(rows)), "a code with two rows in docs/protocol.md"
    assert set(rows) == {str(code) for code in ErrorCode}


def test_the_schema_lists_every_code_and_each_fits_its_pattern() -> None:
    code = load_schema()["$defs"]["error"]["properties"]["code"]
    assert code["examples"] == [str(member) for member in ErrorCode]
    assert all(re.fullmatch(code["pattern"], member) for member in ErrorCode)


def test_a_code_is_written_as_its_value() -> None:
    line = json.dumps(error(ErrorCode.BAD_VOTE, "You cannot vote for your own card.", 1))
    assert line == '{"type": "error", "code": "bad_vote", "message": "You cannot vote for your own card.", "ref": 1}'
    assert f"{ErrorCode.NO_TABLE}" == "no_table"


def _name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _bare(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def bare_codes(path: Path) -> list[str]:
    """Each refusal raised in the file with its code written as a string, and each refusal class whose `code` is one."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Call) and _name(node.func) in REFUSALS:
            given = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "code")]
            found += [(node.lineno, f"{_name(node.func)}(..., {code!r})") for code in map(_bare, given) if code]
        elif isinstance(node, ast.ClassDef) and any(
            _name(b) in REFUSALS or _name(b).endswith("Error") for b in node.bases
        ):
            for item in node.body:
                if isinstance(item, ast.Assign) and [_name(t) for t in item.targets] == ["code"] and _bare(item.value):
                    found.append((item.lineno, f"{node.name}.code = {_bare(item.value)!r}"))
    return [f"{path.name}:{line}: {what}" for line, what in sorted(found)]


def test_no_refusal_in_the_package_names_its_code_as_a_string() -> None:
    sources = sorted(PACKAGE.rglob("*.py"))
    found = [f"{p.parent.relative_to(ROOT)}/{hit}" for p in sources for hit in bare_codes(p)]
    assert not found, "name the code as an ErrorCode member:\n" + "\n".join(found)


def test_the_scan_would_catch_a_bare_code(tmp_path: Path) -> None:
    source = tmp_path / "bare.py"
    source.write_text(
        "class Odd(TableError):\n    code = 'odd'\n\n\n"
        "def f(seat):\n    raise TableError('No seat.', 'no_seat')\n\n\n"
        "def g():\n    raise errors.BadCommand('Bad.', code='bad_command')\n\n\n"
        "def h():\n    raise TableError('Fine.', ErrorCode.NO_SEAT)\n"
    )
    assert bare_codes(source) == [
        "bare.py:2: Odd.code = 'odd'",
        "bare.py:6: TableError(..., 'no_seat')",
        "bare.py:10: BadCommand(..., 'bad_command')",
    ]
