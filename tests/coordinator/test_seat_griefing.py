"""Seat griefing: puppets fill a host's table, and a removed one rejoins at once, so the host's friend finds the table
full (issue 24, item 7). A player the host removes is kept out of the table's seats (by key; keyless, by address;
they may still watch), and the host can lock the table to people who have its code, or to those invited."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dixit_tui.coordinator import Coordinator, Identity, TableError, TableLock, TableOptions
from dixit_tui.store import SqliteStore
from tests.coordinator.clients import Client

PUPPETS = "10.6.6.6"


async def arrive(coord: Coordinator, name: str, key: str | None, address: str) -> Client:
    client = Client()
    client.session = await coord.connect(Identity(name, key, address), client)
    return client


async def refusal(client: Client, code: str, how: str = "join") -> str:
    try:
        if how == "join":
            await client.session.join(code)
        else:
            await client.session.watch(code)
    except TableError as err:
        return err.code
    return "ok"


async def test_a_removed_player_is_kept_out_by_key_and_without_one_by_address() -> None:
    coord = Coordinator(rng=random.Random(2))
    host = await arrive(coord, "ana", "SHA256:ana", "192.0.2.1")
    code = (await host.session.create(TableOptions(seats=8))).code
    puppets = [await arrive(coord, f"p{i}", f"SHA256:p{i}", PUPPETS) for i in range(7)]
    for puppet in puppets:
        await puppet.session.join(code)
    await host.session.remove(1)  # p0
    assert await refusal(puppets[0], code) == "removed"  # rejoining at once
    assert await refusal(puppets[0], code, "watch") == "ok"  # watching is still open to them
    await puppets[0].session.leave()
    again = await arrive(coord, "p0", "SHA256:p0", "198.51.100.9")  # the same key from elsewhere
    assert await refusal(again, code) == "removed"
    friend = await arrive(coord, "ben", None, "203.0.113.5")
    assert await refusal(friend, code) == "ok"  # the seat went to the friend
    # a keyless player is kept out by the address they were connected from
    await host.session.remove(7)  # ben, for the test's sake
    other = await arrive(coord, "someone", None, "203.0.113.5")
    assert await refusal(other, code) == "removed"
    keyed = await arrive(coord, "cy", "SHA256:cy", "203.0.113.5")  # a key of its own is not that player
    assert await refusal(keyed, code) == "ok"
    # during the game, too: removed for good, and that key kept out of the rematch's seats
    await host.session.start()
    await host.session.remove(1)
    gone = coord.tables[code].seats[1]
    assert gone.removed and gone.key is not None and coord.tables[code].keeps_out(gone.key, None)


async def test_the_host_locks_the_table_to_its_code_or_to_those_invited() -> None:
    coord = Coordinator(rng=random.Random(2))
    host = await arrive(coord, "ana", "SHA256:ana", "192.0.2.1")
    code = (await host.session.create(TableOptions(seats=8))).code
    lurker = await arrive(coord, "lurk", None, PUPPETS)
    assert [t.code for t in await lurker.session.tables()] == [code]
    await host.session.lock(TableLock.CODE)
    assert await lurker.session.tables() == ()  # no longer listed
    assert host.view is not None and host.view.lock is TableLock.CODE
    assert await refusal(await arrive(coord, "ben", None, "203.0.113.5"), code) == "ok"  # the code still works
    assert await lurker.session.tables() == ()
    await host.session.lock(TableLock.INVITED)
    await host.session.invite("Cy")
    assert host.view is not None and host.view.invited == ("Cy",)
    assert await refusal(await arrive(coord, "p1", "SHA256:p1", PUPPETS), code) == "locked"
    assert await refusal(await arrive(coord, "cy", "SHA256:cy", "203.0.113.6"), code) == "ok"
    ben = next(seat.session for seat in coord.tables[code].seats if seat.name == "ben")
    assert ben is not None
    for command in (ben.lock(TableLock.OPEN), ben.invite("dan")):
        with pytest.raises(TableError) as refused:
            await command
        assert refused.value.code == "not_host"
    await host.session.lock(TableLock.OPEN)
    assert [t.code for t in await lurker.session.tables()] == [code]


async def test_bans_and_locks_survive_a_restart(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path)
    try:
        coord = Coordinator(rng=random.Random(2), store=store)
        host = await arrive(coord, "ana", "SHA256:ana", "192.0.2.1")
        code = (await host.session.create(TableOptions(seats=8))).code
        puppet = await arrive(coord, "p0", "SHA256:p0", PUPPETS)
        await puppet.session.join(code)
        await host.session.remove(1)
        await host.session.lock(TableLock.INVITED)
        await host.session.invite("ben")
    finally:
        await store.close()
    store = await SqliteStore.open(tmp_path)
    try:
        again = Coordinator(rng=random.Random(3), store=store)
        assert await again.restore() == 1
        table = again.tables[code]
        assert table.keeps_out("SHA256:p0", None) and table.lock_to is TableLock.INVITED
        assert list(table.invited.values()) == ["ben"]
        table.stop_clocks()
    finally:
        await store.close()


async def test_a_keyless_player_sharing_an_address_with_one_removed_is_asked_for_their_code_not_kept_out() -> None:
    """Found playing over SSH: host carol removed erin (keyless, 127.0.0.1), then carol's own window closed; `join
    AHEK` from the same address told carol "The host of table AHEK removed you from it: you cannot come back." The
    address keeps out new seats only: a player coming back to their own seat is asked for its reconnect code."""
    coord = Coordinator(rng=random.Random(2))
    host = await arrive(coord, "ana", "SHA256:ana", "192.0.2.1")
    code = (await host.session.create(TableOptions(seats=8))).code
    house = "203.0.113.5"
    dan = await arrive(coord, "dan", None, house)
    eve = await arrive(coord, "eve", None, house)
    bo = await arrive(coord, "bo", "SHA256:bo", "198.51.100.9")
    for player in (dan, eve, bo):
        await player.session.join(code)
    await host.session.start()
    await host.session.remove(2)  # eve, removed for good: her address is kept out of new seats
    dan_code = coord.tables[code].seats[1].code
    await dan.session.close()  # dan's window closed
    back = await arrive(coord, "dan", None, house)
    assert await refusal(back, code) == "reconnect_needed"
    view = await back.session.reclaim(dan_code)
    assert view.you == 1
    newcomer = await arrive(coord, "zed", None, house)
    assert await refusal(newcomer, code) == "removed"  # a new seat from that address is still refused
    with pytest.raises(TableError) as refused:
        await newcomer.session.join(code)
    assert refused.value.message == (  # zed was never removed: the reason is said as it is, with a way in
        f"The host of table {code} removed a player without an SSH key from your address, so it takes no one else "
        "from there without a key: connect with an SSH key to join."
    )
    assert await refusal(await arrive(coord, "eve", None, house), code) == "removed"
