"""What a crash test run counted and found, as one line (`summary`) or as the report it prints (`figures`)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field


@dataclass
class KillReport:
    seed: int
    kills: int = 0
    kills_between: int = 0
    kills_inflight: int = 0
    kills_recovery: int = 0
    actions_sent: int = 0
    acknowledged: int = 0  # actions whose effect the actor saw (before a kill or in normal play)
    inflight_acked: int = 0  # in flight at a kill, yet seen before the connection dropped: present after, as required
    inflight_committed: int = 0  # in flight at a kill, not seen, present after the restart
    inflight_lost: int = 0  # in flight at a kill, not seen, absent after the restart (allowed)
    losses: int = 0  # views after a restart missing something seen before the kill
    mismatches: int = 0  # views after a restart that differ otherwise (or disagree between clients)
    views_checked: int = 0
    by_code: int = 0  # returns to a seat with the reconnect code instead of the key
    games_started: int = 0
    games_finished: int = 0
    tables_created: int = 0
    orphan_tables: int = 0  # a `create` committed but killed before its creator saw it
    restart_ms: list[float] = field(default_factory=list)  # spawn -> `listening on`
    recovery_ms: list[float] = field(default_factory=list)  # spawn -> every client back in its seat, views equal
    records: int = 0
    snapshots: int = 0
    failures: list[str] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    data_dir: str = ""

    @property
    def ok(self) -> bool:
        return not self.failures and not self.server_errors and self.losses == 0 and self.mismatches == 0

    @property
    def inflight(self) -> int:
        return self.inflight_acked + self.inflight_committed + self.inflight_lost

    def summary(self) -> str:
        restart = statistics.fmean(self.restart_ms) if self.restart_ms else 0.0
        return (
            f"killtest seed={self.seed}: kills={self.kills} (between={self.kills_between}, "
            f"in-flight={self.kills_inflight}, during-recovery={self.kills_recovery}) "
            f"actions={self.actions_sent} acknowledged={self.acknowledged} "
            f"in-flight at kill: committed={self.inflight_acked + self.inflight_committed} "
            f"(seen before the drop={self.inflight_acked}) lost={self.inflight_lost} "
            f"losses={self.losses} mismatches={self.mismatches} views-checked={self.views_checked} "
            f"games={self.games_finished}/{self.games_started} restart-mean={restart:.0f}ms "
            f"elapsed={self.elapsed:.1f}s"
        )

    def figures(self) -> str:
        def ms(values: list[float]) -> str:
            if not values:
                return "-"
            ordered = sorted(values)
            p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
            mean, median = statistics.fmean(values), statistics.median(values)
            return f"mean {mean:.0f} ms, median {median:.0f} ms, p95 {p95:.0f} ms, max {ordered[-1]:.0f} ms"

        lines = [
            f"seed                     {self.seed}",
            f"kills                    {self.kills} (between actions {self.kills_between}, "
            f"in flight {self.kills_inflight}, during recovery {self.kills_recovery})",
            f"actions sent             {self.actions_sent}",
            f"acknowledged             {self.acknowledged}",
            f"in flight at a kill      {self.inflight}: committed {self.inflight_acked + self.inflight_committed} "
            f"(of which seen before the drop {self.inflight_acked}), lost {self.inflight_lost}",
            f"losses                   {self.losses}",
            f"view mismatches          {self.mismatches} ({self.views_checked} views compared after restarts; "
            f"{self.by_code} returns by reconnect code, the rest by key)",
            f"games                    {self.games_started} started, {self.games_finished} finished, "
            f"{self.tables_created} tables created, {self.orphan_tables} orphaned by a kill",
            f"store                    {self.records} records, {self.snapshots} snapshots",
            f"restart (to listening)   {ms(self.restart_ms)}",
            f"recovery (all reseated)  {ms(self.recovery_ms)}",
            f"elapsed                  {self.elapsed:.1f} s",
        ]
        if self.server_errors:
            lines.append(f"server errors            {len(self.server_errors)}: {self.server_errors[0]}")
        for failure in self.failures:
            lines.append("FAILURE: " + failure)
        lines.append("result                   " + ("ok" if self.ok else "FAILED"))
        return "\n".join(lines)
