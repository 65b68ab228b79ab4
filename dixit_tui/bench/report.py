"""The load benchmark's report: its result (dixit_tui/bench/load.py) as the lines `dixit-tui bench` prints."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dixit_tui.bench.spectator_cost import render_spectator_cost
from dixit_tui.bench.targets import render_targets


def cast_line(on: bool | None) -> str:
    """Whether the terminals could share one drawing (`serve --no-screen-cast`): what the per-terminal figures mean."""
    if on is None:
        return "screen casts: as the server was started (--host: not known here)"
    if on:
        return "screen casts on: idle spectators of one table and size share one drawing (one app draws for them)"
    return "screen casts off (--no-screen-cast): every terminal drawn for itself"


def render(result: dict[str, Any]) -> str:
    timeout = result["action_to_screen_ms"].get("timeout_ms")

    def ms(d: dict[str, Any], keys: Sequence[str] = ("p50", "p95")) -> str:
        shown = [f"{k} {d[k]} ms" if d.get(k) is not None else f"{k} > {timeout} ms (timed out)" for k in keys]
        timed_out = f", {d['timed_out']} timed out" if d.get("timed_out") else ""
        return ", ".join(shown) + f" (n={d['n']}{timed_out})"

    c = result["config"]
    a = result["action_to_screen_ms"]
    what = "the floor (a one-line app, each action changing it)" if c.get("floor") else "dixit-tui"
    think = f"think {c['think_s']:g} s (0.5x-1.5x)" if c.get("think_s") else "no think time"
    lines = [
        f"dixit-tui bench: {c['sessions']} sessions ({c['bots']} bots, {c['watchers']} terminals) at {c['tables']} "
        f"tables, {c['duration_s']:g} s of play, terminals {c['term_size']}",
        f"  server: {what}; terminals are {c.get('terminals_are', 'spectators')}; {think}",
        *([] if c.get("floor") else [f"  {cast_line(c.get('screen_cast'))}"]),
        "",
        f"connect -> first paint         {ms(result['first_paint_ms'])}",
        "  (SSH TCP connect start -> first output leaving visible text on the terminal's pyte screen)",
        f"connect -> table screen        {ms(result['table_paint_ms'])}",
        f"connect -> SSH authenticated   {ms(result['ssh_auth_ms'])}",
        f"action -> every other screen   {ms(a, ('p50', 'p95', 'p99', 'max'))}",
        "  (a bot sends a command at t0; for EACH terminal at that table: first output received after t0 that",
        "   changes its pyte screen; one action at a time per table, tables concurrent)",
        f"  {a['actions']} actions ({a['actions_per_s']}/s), {a['games_finished']} games finished, "
        f"{a['screens_missed']} screen(s) unchanged after {timeout} ms, refused: {a['refused'] or 'none'}",
    ]
    for kind, d in a["by_kind"].items():
        lines.append(f"    {kind:<8} {ms(d)}")
    lines.append(f"action -> acting bot's state   {ms(result['bot_ack_ms'], ('p50', 'p95', 'p99'))}")
    mem = result["server_memory"]
    if mem:
        lines += [
            f"server RSS per session         {mem['per_session_mb']} MB "
            f"(({mem['rss_connected_mb']} MB connected - {mem['rss_before_mb']} MB before) / {c['sessions']}); "
            f"per terminal {mem['per_watcher_mb']} MB, per bot {mem['per_bot_mb']} MB",
            f"server RSS                     cold {mem['rss_cold_mb']} MB, after warm-up {mem['rss_before_mb']} MB, "
            f"end {mem['rss_end_mb']} MB, peak {mem['peak_rss_mb']} MB",
        ]
    else:
        lines.append("server RSS                     not measured (external server without --pid)")
    cpu = result["server_cpu"]
    if cpu:
        lines.append(
            f"server CPU                     {cpu['percent_of_one_core']}% of one core "
            f"({cpu['cpu_s']} s over {cpu['wall_s']} s of play); idle with everyone connected "
            f"{cpu['idle_percent_of_one_core']}%"
        )
        lines.append(
            f"server main thread             on a CPU {cpu['main_thread_on_cpu_percent']}% of the time, runnable but "
            f"waiting for a CPU {cpu['main_thread_waiting_for_cpu_percent']}% (/proc/PID/schedstat; the rest: asleep)"
        )
        lines.append(
            f"server CPU per action          {cpu['ms_per_action']} ms; per terminal updated "
            f"{cpu['ms_per_screen_update']} ms (play-period CPU / terminal updates measured; the CPU includes "
            "bots, recaps and reconnections after a game)"
        )
        lines.append(
            f"terminal updates per CPU-second {cpu['terminal_updates_per_cpu_s']} "
            f"({cpu['terminal_updates']} terminal updates / {cpu['cpu_s']} s of server CPU in play)"
        )
    else:
        lines.append("server CPU                     not measured (external server without --pid)")
    h = result["handshake"]
    lines.append(
        f"handshake rate                 {h['per_s']} connections/s ({h['connections']} connections, "
        f"{h['concurrency']} at a time, {h['failed']} failed; each {ms(h['latency_ms'])})"
    )
    so = result["session_open"]
    lines.append(
        f"terminal sessions opened       {so['watchers_per_s']}/s (to the table screen, {c['concurrency']} at once)"
    )
    cl = result["client"]
    lag = ms(cl["loop_lag_ms"], ("p50", "p99", "max"))
    lines.append(f"bench client                   {cl['cpu_percent']}% of one core, loop lag {lag}")
    lines.append(
        f"startup backlog                {result['startup_backlog_s']} s after the last terminal reached its table "
        "until the server was idle (under 10% of a core for 1 s); play starts after it"
    )
    machine = result.get("machine")
    if machine:
        lines.append(
            f"whole machine                  {machine['busy_percent_of_one_core']}% of one core busy "
            f"(of {machine['cores'] * 100}%); other processes: {machine['other_processes_percent_of_one_core']}%"
        )
    if result["idle_screens_changing"]:
        lines.append(f"  note: {result['idle_screens_changing']} screen(s) changed while nobody acted")
    lines += render_joining(result.get("joining"))
    prof = result.get("profile")
    if prof:
        lines.append(f"server profile ({prof['samples']} samples), self time:")
        lines += [f"  {pct:5.1f}%  {name}" for name, pct in prof["self"][:12]]
        lines.append("  inclusive:")
        lines += [f"  {pct:5.1f}%  {name}" for name, pct in prof["inclusive"][:15]]
    lines.append("")
    lines += [f"WARNING: {w}" for w in result["warnings"]]
    lines += [f"FAILURE: {f}" for f in result["failures"] if not f.startswith("floor: ")]
    floor = result.get("floor")
    if floor:
        lines += ["", "--- the floor, same options ---", render(floor)]
        ratio = result.get("floor_ratio")
        if ratio:
            lines.append(
                f"server CPU per terminal update: {ratio['ms_per_screen_update']} ms, "
                f"floor {ratio['floor_ms_per_screen_update']} ms, ratio {ratio['ratio']}"
            )
        else:
            lines.append("server CPU per terminal update: no ratio (not measured in both runs)")
    spectators = render_spectator_cost(result.get("spectator_cost"))
    if spectators:
        lines += ["", *spectators]
    block = render_targets(result.get("targets"))
    if block:
        lines += ["", *block]
    return "\n".join(lines)


def render_joining(joining: dict[str, Any] | None) -> list[str]:
    if not joining:
        return []

    def pct(d: dict[str, Any]) -> str:
        if not d.get("n"):
            return "n=0"
        return f"p50 {d['p50']} ms, p95 {d['p95']} ms (n={d['n']})"

    def cpu(d: dict[str, Any]) -> str:
        if d.get("server_cpu_ms_per_session") is None:
            return "server CPU not measured"
        return (
            f"server CPU {d['server_cpu_ms_per_session']} ms each "
            f"(net of {d['idle_cpu_subtracted_ms_per_session']} ms idle)"
        )

    def failed(d: dict[str, Any]) -> str:
        return f", {d['failed']} FAILED" if d.get("failed") else ""

    def row(label: str, d: dict[str, Any], span: str, note: str = "") -> None:
        """A group's line, if it had sessions (from TCP connect: with the time until all of them showed)."""
        if not d.get("sessions"):
            return
        key = "connect_to_screen_ms" if "connect_to_screen_ms" in d else "session_to_screen_ms"
        shown = f", all in {d['all_shown_s']} s" if key == "connect_to_screen_ms" else ""
        lines.append(f"  {label}{span} {pct(d[key])}{shown}; {cpu(d)}{note}{failed(d)}")

    sj, sl, bj, bl = (joining[k] for k in ("sequential_join", "sequential_lobby", "burst_join", "burst_lobby"))
    bs = joining.get("burst_join_sessions") or {}
    n_bj, n_bl = str(bj.get("sessions")), str(bl.get("sessions"))
    lines = [f"joining ({joining['command']}; idle server {joining['idle_percent_of_one_core']}% of one core)"]
    row("join, one at a time          ", sj, "session start -> table screen")
    row("lobby, one at a time         ", sl, "session start -> lobby")
    row(f"{n_bj} joining at once{'':<{max(0, 13 - len(n_bj))}}", bj, "connect -> table screen", " incl. SSH handshake")
    row(f"{bs.get('sessions')} sessions at once, connected ", bs, "session start -> table screen", " (no handshake)")
    row(
        f"{n_bl} opening the lobby at once{'':<{max(0, 4 - len(n_bl))}}", bl, "connect -> lobby", " incl. SSH handshake"
    )
    return lines
