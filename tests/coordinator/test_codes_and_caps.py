"""Reconnect codes cannot be guessed or beat a key; tables and bots are capped (issue 10, items 2 and 5)."""

from __future__ import annotations

import random
import re

import pytest

from dixit_tui.bots.player import seat_bots
from dixit_tui.coordinator import Coordinator, NoticeUpdate, PlayerSession, TableError, TableOptions
from dixit_tui.coordinator.codes import new_reconnect_code, normalize_code
from dixit_tui.coordinator.limits import FREE_TRIES, TableLimits, network_of
from dixit_tui.coordinator.table import Table
from dixit_tui.store import SqliteStore
from tests.coordinator.clients import Client, connect

FAST = TableLimits(reconnect_delay=0.001)


def coordinator(**limits: object) -> Coordinator:
    return Coordinator(rng=random.Random(1), allow_seeded_tables=True, limits=TableLimits(**{**vars(FAST), **limits}))


async def started(coord: Coordinator, *names: str, keys: dict[str, str] | None = None) -> list[Client]:
    """A started refresh game; players in `keys` connect with that key, the others without one."""
    keys = keys or {}
    host = await connect(coord, names[0], keys.get(names[0]))
    view = await host.session.create(TableOptions())
    clients = [host]
    for name in names[1:]:
        client = await connect(coord, name, keys.get(name))
        await client.session.join(view.code)
        clients.append(client)
    await host.session.start()
    return clients


def test_codes_are_four_groups_from_the_secure_source_not_the_tables_seed() -> None:
    codes = {new_reconnect_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(re.fullmatch(r"[A-Z2-9]{3}(-[A-Z2-9]{3}){3}", c) and not set(c) & set("01OIL") for c in codes)
    # two tables with the same seed give different codes: a known seed does not reveal them
    one: Table[PlayerSession] = Table("AAAA", TableOptions(seed=5), random.Random(5), lambda decks: ())
    two: Table[PlayerSession] = Table("BBBB", TableOptions(seed=5), random.Random(5), lambda decks: ())
    one.add_seat("ana", None)
    two.add_seat("ana", None)
    assert one.seats[0].code != two.seats[0].code


async def test_a_key_bound_seat_is_not_taken_by_its_code_and_its_owner_is_untouched() -> None:
    coord = coordinator()
    ana, ben, _cy = await started(coord, "ana", "ben", "cy", keys={"ana": "SHA256:ana"})
    assert ana.view is not None and ana.view.reconnect_code is None  # her key brings her back: no code shown
    assert ben.view is not None and ben.view.reconnect_code is not None
    table = coord.tables[ana.view.code]
    mallory = await connect(coord, "mallory")
    hand = ana.view.game.hand if ana.view.game else ()
    with pytest.raises(TableError) as refused:
        await mallory.session.reclaim(table.seats[0].code)  # ana's code, however it was learnt
    assert refused.value.code == "key_required"
    assert mallory.session.table is None and mallory.view is None
    assert table.seats[0].session is ana.session and ana.session.table is table
    assert not any(isinstance(u, NoticeUpdate) for u in ana.updates)
    assert ana.view.game is not None and ana.view.game.hand == hand
    # another key does not get it either; ana's own key does (from a second terminal)
    eve = await connect(coord, "eve", "SHA256:eve")
    with pytest.raises(TableError, match="SSH key"):
        await eve.session.reclaim(table.seats[0].code)
    laptop = await connect(coord, "ana", "SHA256:ana")
    assert (await laptop.session.join(table.code)).you == 0
    # a keyless seat still comes back with its code, typed any way
    code = ben.view.reconnect_code
    await ben.session.close()
    back = await connect(coord, "ben")
    typed = normalize_code(code).lower()
    assert (await back.session.reclaim(f" {typed[:5]} {typed[5:]} ")).you == 1


async def test_joining_under_a_key_bound_name_says_to_use_the_key() -> None:
    coord = coordinator()
    ana, _ben, _cy = await started(coord, "ana", "ben", "cy", keys={"ana": "SHA256:ana"})
    assert ana.view is not None
    await ana.session.close()
    imposter = await connect(coord, "ana")
    with pytest.raises(TableError) as refused:
        await imposter.session.join(ana.view.code)
    assert refused.value.code == "key_required"


async def test_wrong_codes_are_delayed_then_refused_per_connection() -> None:
    coord = coordinator(reconnect_tries_per_connection=6)
    await started(coord, "ana", "ben", "cy")
    guard = coord.reconnect_guard
    mallory = await connect(coord, "mallory")
    mallory.session.identity = mallory.session.identity.__class__("mallory", None, "203.0.113.5")
    delays = []
    codes = []
    for _ in range(8):
        with pytest.raises(TableError) as refused:
            await mallory.session.reclaim(new_reconnect_code())
        codes.append(refused.value.code)
        delays.append(guard.delay(mallory.session))
    assert codes == ["bad_code"] * 6 + ["too_many_tries"] * 2
    # no delay for the first few (typos happen), then doubling
    assert delays[:FREE_TRIES] == [0.0] * FREE_TRIES
    assert delays[FREE_TRIES:6] == [0.001, 0.002, 0.004]
    # even the right code is refused now on this connection: it has to connect again
    ben_code = next(s.code for s in next(iter(coord.tables.values())).seats if s.name == "ben")
    with pytest.raises(TableError, match="Too many"):
        await mallory.session.reclaim(ben_code)


async def test_wrong_codes_are_capped_per_address_network_and_in_all() -> None:
    coord = coordinator(reconnect_tries_per_ip=4, reconnect_tries_total=100)
    await started(coord, "ana", "ben", "cy")

    async def tries(address: str, n: int) -> list[str]:
        client = await connect(coord, "m")
        client.session.identity = client.session.identity.__class__("m", None, address)
        out: list[str] = []
        for _ in range(n):
            try:
                await client.session.reclaim("ZZZ-ZZZ-ZZZ-ZZZ")
            except TableError as err:
                out.append(err.code)
        await client.session.close()
        return out

    # a fresh connection from the same address does not start the count again
    assert await tries("198.51.100.7", 3) == ["bad_code"] * 3
    assert await tries("198.51.100.7", 2) == ["bad_code", "too_many_tries"]
    # the same /24: 4 per address, 16 for the network
    assert await tries("198.51.100.8", 4) == ["bad_code"] * 4
    assert await tries("198.51.100.9", 4) == ["bad_code"] * 4
    assert await tries("198.51.100.10", 5) == ["bad_code"] * 4 + ["too_many_tries"]
    assert await tries("198.51.100.11", 1) == ["too_many_tries"]  # 16 from this /24 already
    assert await tries("192.0.2.1", 1) == ["bad_code"]  # another network is not held back
    assert network_of("2001:db8::1") == "2001:db8::/64" and network_of("guest") is None


async def test_a_right_code_does_not_count_against_anyone() -> None:
    coord = coordinator(reconnect_tries_per_connection=2)
    clients = await started(coord, "ana", "ben", "cy")
    code = clients[1].view.reconnect_code if clients[1].view else None
    assert code is not None
    again = await connect(coord, "ben")
    for _ in range(3):
        assert (await again.session.reclaim(code)).you == 1
    assert coord.reconnect_guard.per_connection.get(again.session, 0) == 0


async def test_old_short_codes_still_load_and_work(tmp_path: object) -> None:
    from pathlib import Path

    store = await SqliteStore.open(Path(str(tmp_path)) / "data")
    try:
        coord = Coordinator(rng=random.Random(1), store=store)
        host = await connect(coord, "ana")
        view = await host.session.create(TableOptions())
        for name in ("ben", "cy"):
            await (await connect(coord, name)).session.join(view.code)
        await host.session.start()
        # a table saved before the change: its seat records hold the old 6-character codes
        await store.append(view.code, [])
        table = coord.tables[view.code]
        old = "ABC-DEF"
        table.seats[1].code = old
        await store.snapshot(view.code, table.snapshot())
        again = Coordinator(rng=random.Random(2), store=store)
        assert await again.restore() == 1
        back = await connect(again, "ben")
        assert (await back.session.reclaim("abcdef")).you == 1
        assert back.view is not None and back.view.reconnect_code == old
    finally:
        await store.close()


async def test_tables_are_capped_per_player_per_address_and_in_all() -> None:
    coord = coordinator(max_tables_per_player=2, max_tables_per_ip=2, max_tables=6)

    async def create(name: str, key: str | None, address: str) -> str:
        client = await connect(coord, name, key)
        client.session.identity = client.session.identity.__class__(name, key, address)
        try:
            await client.session.create(TableOptions())
        except TableError as err:
            return f"{err.code}: {err.message}"
        return "ok"

    mine = "too_many_tables: You already have 2 open tables, your most: play or leave one of them first."
    # per player: by key (whatever the name and address), or by name without one
    assert [await create(f"k{i}", "SHA256:k", f"10.0.{i}.1") for i in range(3)] == ["ok", "ok", mine]
    assert [await create("nokey", None, f"10.1.{i}.1") for i in range(3)] == ["ok", "ok", mine]
    # per address: other names from one address
    here = "too_many_tables: 2 open tables were already created from your address, its most: join one of them, "
    assert [await create(f"n{i}", None, "10.9.9.9") for i in range(3)] == ["ok", "ok", here + "or try again later."]
    # in all
    assert len(coord.tables) == 6
    assert await create("last", None, "10.7.7.7") == (
        "too_many_tables: This server has 6 open tables, its most: join one, or try again later."
    )
    assert len(coord.tables) == 6


async def test_bots_per_table_are_capped() -> None:
    coord = Coordinator(rng=random.Random(1), limits=TableLimits(max_bots_per_table=3), bots=seat_bots)
    host = await connect(coord, "ana")
    await host.session.create(TableOptions(mode="standard", profile="odyssey"))
    with pytest.raises(TableError) as refused:
        await host.session.add_bots(4)
    assert refused.value.code == "too_many_bots" and "at most 3 bots" in refused.value.message
    assert await host.session.add_bots(2) == 2
    with pytest.raises(TableError, match="1 more bot"):
        await host.session.add_bots(2)
    assert await host.session.add_bots(1) == 1
    with pytest.raises(TableError, match="all it may have"):
        await host.session.add_bots(1)
    for seat in coord.tables[next(iter(coord.tables))].seats:
        if seat.session is not None and seat.bot:
            await seat.session.close()


def test_the_new_limits_are_serve_limits_beside_the_ssh_ones() -> None:
    from dixit_tui.serve import parse_limits, parse_table_limits

    items = ["max_tables=5", "login_timeout=20", "max-bots-per-table=2", "reconnect_delay=0.25"]
    tables = parse_table_limits(items)
    assert (tables.max_tables, tables.max_bots_per_table, tables.reconnect_delay) == (5, 2, 0.25)
    assert parse_limits(items).login_timeout == 20
    with pytest.raises(ValueError, match="max_tables_per_ip"):  # the list of names has both kinds
        parse_limits(["max_table=5"])
    with pytest.raises(ValueError, match="must be positive"):
        parse_table_limits(["max_tables=0"])
