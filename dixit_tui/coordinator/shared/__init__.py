"""Tables shared by several server processes (workers) through Redis: `serve --redis URL --workers N`.

Every worker keeps a replica of every open table, folded from the table's records in Redis (one stream per table,
see `store.redis_store`). A change is decided by the engine against the replica's latest state and appended with
compare-and-append on the table's sequence number, so only one of two workers deciding from the same state wins:

- Taking a table's lock first catches its replica up (`replica.SyncedLock`): in one round trip it reads the records
  appended since the replica's last one and who is connected to its seats, folds them, and shows the change to this
  worker's own sessions at the table. A command is therefore decided against the latest state; the append then fails
  only if another worker appended in between (the coordinator rolls back and retries or refuses, nothing partial).
- Every worker listens to the change notices (`CODE SEQ` after each append, `CODE 0` when presence changed) and
  catches up the tables they name; a periodic tick catches up whatever a lost notice left behind.
- Presence is shared: a hash per table, a field per seat (its reconnect code) saying which worker holds it, until
  when (each worker renews its own fields; a dead worker's expire). A seat held on another worker sits at this
  worker's replica as a `RemoteSeat`, so "is offline", grace timers and "bots hold when no person is connected"
  see every worker's players. A player who takes their seat on another worker pushes out their old session here.
  The same hash counts each worker's spectators (field `~WORKER`), so the lobby and the table show them all.
- One owner per table for its clocks: a lease in Redis that expires unless renewed. Every worker computes the
  deadlines it shows, but only the owner plays stand-ins and closes idle tables; when it dies another worker takes
  the lease within a few seconds.

The coordinator sees all of it as its `sharing.Sharing` (`SharedTables`); the embedded default (SQLite, one process)
has `sharing.LocalSharing` and never uses this package. Its modules, one part each:

- `tables`: `SharedTables`, the replicas kept in step (catching up, rolling back, a rematch or a close made at
  another worker), the change notices and the tick;
- `replica`: a table's `SyncedLock` and the compare-and-append `SharedStore`;
- `presence`: who is connected where (`RemoteSeat`); `leases`: who runs a table's clocks, and bots brought back;
- `live`: what is never recorded (team chat, writing marks, reveals seen); `tries`: tries counted across workers;
- `queue`: `SharedQueue`, the one queue of every worker (the matchmaker's `QueueSharing`, made by `SharedTables`).

The coordinator is made with them, never rewired after: `shared = SharedTables(redis_store, worker=...)`, then
`Coordinator(store=shared.saving, sharing=shared, ...)` (which attaches itself), then `await shared.start()`.
"""

from dixit_tui.coordinator.shared.presence import RemoteSeat
from dixit_tui.coordinator.shared.queue import SharedQueue
from dixit_tui.coordinator.shared.replica import SharedStore, SyncedLock
from dixit_tui.coordinator.shared.tables import SharedTables

__all__ = ["RemoteSeat", "SharedQueue", "SharedStore", "SharedTables", "SyncedLock"]
