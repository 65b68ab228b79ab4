"""Agents (`ssh NAME@HOST json bot`) play like people: a table of agents, or of one agent and built-in bots, plays;
the bots `create` asks for sit down together."""

from __future__ import annotations

from tests.protocol.clients import Game, quick_bots


async def test_an_agent_that_creates_a_table_with_bots_sees_them_seated_at_once_and_plays_to_the_end() -> None:
    async with Game(bots=quick_bots) as g:
        agent = await g.connect("agent", bot=True)
        await g.send(agent, {"cmd": "create", "mode": "standard", "target": 10, "seed": 5, "bots": 3})
        seated = [len(m["players"]) for m in agent.of_type("state") if m["table"] is not None]
        assert seated and set(seated) == {1, 4}, seated  # never some of the bots: "start when it may" starts all
        assert agent.state["start_problem"] is None
        players = agent.state["players"]
        assert [(p["bot"], p["builtin"]) for p in players] == [(True, False)] + [(True, True)] * 3
        await g.send(agent, {"cmd": "start"})
        await g.play(patience=20.0)  # the bots stay and play: the agent is someone to play with
        assert agent.state["phase"] == "over"
        g.check()


async def test_a_table_of_agents_runs_like_a_table_of_people() -> None:
    async with Game() as g:
        agents = [await g.connect(name, bot=True) for name in ("a1", "a2", "a3")]
        code = await g.create(agents[0], agents[1:], mode="standard", target=10, seed=3)
        await g.send(agents[0], {"cmd": "start"})
        table = g.coord.tables[code]
        assert table.humans_connected() and table.idle_timer is None  # not a table nobody plays at: no closing
        await g.play()
        assert all(a.state["phase"] == "over" for a in agents)
        g.check()
