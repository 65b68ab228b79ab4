"""Team chat: in team mode a line for your teammate only, open while the table's chat is paused."""

from __future__ import annotations

import random

import pytest

from dixit_tui.coordinator import ChatUpdate, Coordinator, TableError
from dixit_tui.coordinator.models import ChatLine
from dixit_tui.coordinator.table import CHAT_TAIL, ChatLimiter
from dixit_tui.protocol.commands import BadCommand, dispatch
from dixit_tui.protocol.messages import encode_update
from tests.coordinator.clients import Client, connect, game_of, table_of


@pytest.fixture
def coord() -> Coordinator:
    return Coordinator(rng=random.Random(1), allow_seeded_tables=True)


def team_lines(client: Client) -> list[str]:
    return [u.line.text for u in client.updates if isinstance(u, ChatUpdate) and u.line.team is not None]


async def paused_team_table(coord: Coordinator) -> tuple[list[Client], Client]:
    """Six players in team mode (teams: seats 0+3, 1+4, 2+5) and a spectator, in the submit phase."""
    clients = await table_of(coord, 6, mode="team", seed=5)
    code = clients[0].view.code  # type: ignore[union-attr]
    spectator = await connect(coord, "sam")
    await spectator.session.watch(code)
    await clients[0].session.start()
    await clients[0].session.clue("two of us", game_of(clients[0]).hand[0].card)
    assert clients[1].view.chat_paused  # type: ignore[union-attr]
    return clients, spectator


async def test_a_team_line_reaches_only_the_sender_and_the_teammate_while_chat_is_paused(coord: Coordinator) -> None:
    clients, spectator = await paused_team_table(coord)
    secret = "the lighthouse one, \x1b[2Jtrust me"
    await clients[1].session.chat(secret, team=True)
    clean = "the lighthouse one, trust me"  # sanitised once, like chat
    assert team_lines(clients[1]) == [clean] and team_lines(clients[4]) == [clean]
    line = next(u.line for u in clients[4].updates if isinstance(u, ChatUpdate))
    assert (line.seat, line.name, line.team) == (1, "p1", 1)
    for other in (clients[0], clients[2], clients[3], clients[5], spectator):
        assert "lighthouse" not in other.seen()
    # a fresh view keeps it for the team only (a returning teammate sees it), never in the public log
    table = coord.tables[clients[0].view.code]  # type: ignore[union-attr]
    views = [table.view_for(c.session) for c in (*clients, spectator)]
    assert [any(line.text == clean for line in v.chat) for v in views] == [
        False,
        True,
        False,
        False,
        True,
        False,
        False,
    ]
    assert not any("lighthouse" in entry for v in views for entry in v.log)
    # the table's chat is still paused
    with pytest.raises(TableError, match="paused"):
        await clients[1].session.chat("it's the lighthouse")


async def test_a_team_line_is_never_stored(coord: Coordinator) -> None:
    clients, _ = await paused_team_table(coord)
    await clients[2].session.chat("keep this between us", team=True)
    table = coord.tables[clients[0].view.code]  # type: ignore[union-attr]
    assert "keep this between us" not in str(table.take_pending())
    assert "keep this between us" not in str(table.snapshot())
    assert any(line.text == "keep this between us" for line in table.view_for(clients[5].session).chat)  # in memory


async def test_team_chat_is_refused_outside_a_running_team_game(coord: Coordinator) -> None:
    standard = await table_of(coord, 3, seed=2)
    with pytest.raises(TableError, match="only for team games") as err:
        await standard[0].session.chat("psst", team=True)
    assert err.value.code == "not_team"
    other = Coordinator(rng=random.Random(2), allow_seeded_tables=True)
    team = await table_of(other, 6, mode="team", seed=5)
    with pytest.raises(TableError, match="when the game starts") as err:
        await team[1].session.chat("psst", team=True)
    assert err.value.code == "no_team"
    spectator = await connect(other, "sam")
    await spectator.session.watch(team[0].view.code)  # type: ignore[union-attr]
    await team[0].session.start()
    with pytest.raises(TableError) as err:
        await spectator.session.chat("psst", team=True)
    assert err.value.code == "no_team"
    with pytest.raises(TableError, match="Type something"):
        await team[1].session.chat("\x1b[2J", team=True)
    assert not any(team_lines(c) for c in (*team, spectator))


async def test_team_chat_shares_the_chat_rate_limit(coord: Coordinator) -> None:
    clients = await table_of(coord, 6, mode="team", seed=5)
    await clients[0].session.start()
    for i in range(3):
        await clients[0].session.chat(f"table {i}")
    await clients[0].session.chat("team 1", team=True)
    await clients[0].session.chat("team 2", team=True)
    with pytest.raises(TableError, match="Slow down"):
        await clients[0].session.chat("team 3", team=True)
    with pytest.raises(TableError, match="Slow down"):
        await clients[0].session.chat("table 4")
    assert team_lines(clients[3]) == ["team 1", "team 2"]


async def test_the_json_chat_command_and_message_carry_the_team(coord: Coordinator) -> None:
    clients, _ = await paused_team_table(coord)
    await dispatch(clients[2].session, {"cmd": "chat", "text": "mine?", "to": "team"})
    assert team_lines(clients[5]) == ["mine?"]
    update = next(u for u in clients[5].updates if isinstance(u, ChatUpdate))
    assert encode_update(update, ()) == {"type": "chat", "seat": 2, "name": "p2", "text": "mine?", "team": True}
    with pytest.raises(BadCommand, match='"to"'):
        await dispatch(clients[2].session, {"cmd": "chat", "text": "x", "to": "everyone"})
    with pytest.raises(TableError, match="paused"):
        await dispatch(clients[2].session, {"cmd": "chat", "text": "mine?", "to": "table"})


async def test_team_lines_do_not_push_the_table_lines_out_of_a_returning_players_view(coord: Coordinator) -> None:
    clients, _ = await paused_team_table(coord)
    table = coord.tables[clients[0].view.code]  # type: ignore[union-attr]
    table.limiter = ChatLimiter(burst=1000)
    table.add_table_line(ChatLine(0, "p0", "before"))
    for n in range(CHAT_TAIL):
        table.add_table_line(ChatLine(0, "p0", f"table {n}"))
        if n % 6 == 0:
            table.say_to_team(clients[1].session, 1, "p1", f"team {n}")
    team_view = [line.text for line in table.view_for(clients[4].session).chat]
    table_view = [line.text for line in table.view_for(clients[0].session).chat]
    assert table_view == [f"table {n}" for n in range(CHAT_TAIL)]  # the whole tail, no team line
    assert [t for t in team_view if t.startswith("table")] == table_view  # the team sees all of them too
    assert team_view[:3] == ["table 0", "team 0", "table 1"]  # in the order they were said
    assert team_view.index("team 54") == team_view.index("table 54") + 1
    assert len(team_view) == CHAT_TAIL + 10
