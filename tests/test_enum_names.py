"""Phases, modes, profiles, table labels and statuses and a stand-in's reasons are StrEnums: outside the engine
nothing compares against their names written out as strings (`phase == "vote"`), only against the members
(`phase == Phase.VOTE`)."""

from __future__ import annotations

import ast
from pathlib import Path

from dixit_tui.coordinator.models import Label, StandInReason, TableStatus
from dixit_tui.engine import FirstStoryteller, Mode, Phase, Profile
from dixit_tui.engine.reveal import Outcome

PACKAGE = Path(__file__).resolve().parent.parent / "dixit_tui"

# Every name a closed set of the game or the table gives a string (written out, so the scan below still fails
# should an enum go away).
NAMES = frozenset(
    {"clue", "submit", "vote", "over"}  # Phase
    | {"standard", "party", "team"}  # Mode
    | {"refresh", "odyssey"}  # Profile and, with party and team, a table's Label
    | {"first_clue", "random"}  # FirstStoryteller
    | {"lobby", "playing"}  # TableStatus (and "over")
    | {"away", "time"}  # StandInReason
)


def _names_in(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_in(item) for item in node.elts)
    return False


def comparisons(path: Path) -> list[str]:
    """Each comparison (==, !=, in, is...) or `case` in the file against one of NAMES as a string literal."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Compare) and any(_names_in(side) for side in (node.left, *node.comparators)):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.MatchValue) and _names_in(node.value):
            found.append(f"{path.name}:{node.lineno}: case {ast.unparse(node.value)}")
    return found


def _outside_engine() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p.relative_to(PACKAGE).parts[0] != "engine"]


def test_the_names_are_the_enums_values() -> None:
    enums = {*Phase, *Mode, *Profile, *FirstStoryteller, *TableStatus, *Label, *StandInReason}
    assert {str(member) for member in enums} == NAMES
    assert {str(member) for member in Outcome} >= {"party"}


def test_nothing_outside_the_engine_compares_against_a_name_written_as_a_string() -> None:
    found = [f"{p.parent.relative_to(PACKAGE.parent)}/{line}" for p in _outside_engine() for line in comparisons(p)]
    assert not found, "compare against the enum member instead (Phase.VOTE, Mode.TEAM, TableStatus.OVER...):\n" + (
        "\n".join(found)
    )


def test_the_scan_sees_every_form(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        'a == "vote"\n"over" != b\nc in ("refresh", "odyssey")\nd is "team"\n'
        'match e:\n    case "lobby":\n        pass\n'
        'f == "voted"\ng == Phase.VOTE\nh in ("table", "all")\n'
    )
    assert [line.split(": ", 1)[0].rsplit(":", 1)[1] for line in comparisons(sample)] == ["1", "2", "3", "4", "6"]
