"""The enums the code compares against are the protocol's: each closed list of strings in the schema is one enum's
values, and a client's string that names no member is a clear error, never a crash."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import pytest

from dixit_tui.coordinator import TableOptions
from dixit_tui.coordinator.models import Label, TableStatus
from dixit_tui.engine import FirstStoryteller, Mode, Phase, Profile
from dixit_tui.protocol.commands import BadCommand, ChatTo, create_options
from dixit_tui.protocol.kinds import MessageType
from dixit_tui.protocol.schema import load_schema

DEFS: dict[str, Any] = load_schema()["$defs"]


@pytest.mark.parametrize(
    ("listed", "enum"),
    [
        (DEFS["mode"]["enum"], Mode),
        (DEFS["profile"]["enum"], Profile),
        (DEFS["create"]["properties"]["first"]["enum"], FirstStoryteller),
        (DEFS["tableSummary"]["properties"]["mode"]["enum"], Label),
        (DEFS["tableSummary"]["properties"]["status"]["enum"], TableStatus),
        (DEFS["chatCommand"]["properties"]["to"]["enum"], ChatTo),
        (DEFS["ServerMessage"]["properties"]["type"]["enum"], MessageType),
    ],
)
def test_a_list_of_the_schema_is_an_enum(listed: list[str], enum: type[StrEnum]) -> None:
    assert listed == [str(member) for member in enum]


def test_a_states_phase_is_a_phase_or_the_lobby() -> None:
    assert set(DEFS["phase"]["enum"]) == {*Phase, TableStatus.LOBBY}


def test_the_enums_are_written_as_their_values() -> None:
    options = create_options({"cmd": "create", "mode": "party", "first": "random"})
    assert (options.mode, options.first, options.label()) == ("party", "random", "party")
    assert f"{options.label()}|{TableStatus.OVER:<8}|{Phase.VOTE!s}" == "party|over    |vote"


@pytest.mark.parametrize(
    ("msg", "said"),
    [
        ({"first": "last"}, '"first" must be "first_clue" or "random".'),
        ({"first": 1}, '"first" must be a string.'),
        ({"mode": 1}, '"mode" must be a string.'),
    ],
)
def test_a_bad_choice_is_a_bad_command(msg: dict[str, Any], said: str) -> None:
    with pytest.raises(BadCommand) as refused:
        create_options({"cmd": "create", **msg})
    assert refused.value.message == said


def test_an_empty_choice_is_the_default() -> None:
    assert create_options({"cmd": "create", "mode": "", "first": ""}) == TableOptions()


@pytest.mark.parametrize("options", [TableOptions(mode="chess"), TableOptions(profile="classic")])
def test_an_unknown_mode_or_profile_is_a_value_error(options: TableOptions) -> None:
    with pytest.raises(ValueError, match="is not a valid"):
        options.max_seats()
