"""The `dixit-tui` command line: help for every command, usage errors as plain messages with status 2 (nothing
created, no traceback, no log line), `serve`'s settings from a config file and DIXIT_TUI_* variables under its flags,
and a Redis that does not answer refused before anything is made."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from dixit_tui.cli import main, parse
from dixit_tui.serve import data_folders, parse_limits, parse_table_limits

REPO = Path(__file__).resolve().parents[1]


def dixit(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`dixit-tui ARGS` as a process, in `cwd` (so that whatever it creates is seen there)."""
    return subprocess.run(
        [sys.executable, "-m", "dixit_tui", *args],
        cwd=cwd,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("argv", [["help", "serve"], ["-h", "serve"], ["serve", "--help"]])
def test_each_way_of_asking_shows_the_commands_own_help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: dixit-tui serve") and "--data-dir" in out and "--config" in out, out


def test_help_alone_lists_the_commands_and_an_unknown_one_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["help"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in ("serve", "simulate", "replay", "bot", "bench", "killtest")), out
    with pytest.raises(SystemExit) as exit_:
        main(["help", "sevre"])
    assert exit_.value.code == 2
    assert "unknown command 'sevre'" in capsys.readouterr().err


def test_simulate_options_say_what_they_do(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for words in ("players at each table", "how many games", "who tells the first story", "rule profile"):
        assert words in out, out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--limit", "nonsense=1"], "unknown limit 'nonsense=1'"),
        (["--limit", "login_timeout=soon"], "bad value for login_timeout"),
        (["--deck", "/missing.toml"], "/missing.toml: no such deck file"),
        (["--workers", "2"], "--workers needs --redis"),
        (["--log-level", "LOUD"], "invalid choice: 'LOUD'"),
    ],
)
def test_usage_errors_are_plain_messages_with_status_2(args: list[str], says: str, tmp_path: Path) -> None:
    done = dixit("serve", "--host", "127.0.0.1", "--port", "0", *args, cwd=tmp_path)
    assert done.returncode == 2, done
    assert says in done.stderr and "usage: dixit-tui serve" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and " ERROR " not in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == [], "nothing is created for a command that cannot run"


def test_serve_on_a_redis_that_does_not_answer_fails_before_making_keys_or_workers(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a loopback port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    done = dixit("serve", "--port", "0", "--redis", f"redis://127.0.0.1:{port}/0", "--workers", "2", cwd=tmp_path)
    assert done.returncode == 1, done
    assert f"cannot reach Redis at redis://127.0.0.1:{port}/0" in done.stderr, done.stderr
    assert "worker" not in done.stdout and "Traceback" not in done.stderr, done
    assert list(tmp_path.iterdir()) == [], "no keys/ folder"


def serve_args(argv: list[str]) -> object:
    return parse(["serve", *argv])[0]


def test_flags_win_over_the_environment_which_wins_over_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "etc" / "dixit.toml"
    config.parent.mkdir()
    config.write_text(
        'host = "127.0.0.2"\nport = 1111\ndata-dir = "state"\nclose_idle_after = 30\nallow-seeded-tables = true\n'
        'log-level = "warning"\n[limits]\nlogin_timeout = 11\nmax_tables = 7\n'
    )
    for name in [n for n in __import__("os").environ if n.startswith("DIXIT_TUI_")]:
        monkeypatch.delenv(name)
    args = parse(["serve", "--config", str(config)])[0]
    assert (args.host, args.port, args.close_idle_after, args.allow_seeded_tables, args.log_level) == (
        "127.0.0.2",
        1111,
        30.0,
        True,
        "WARNING",
    )
    assert data_folders(args) == (config.parent / "state", config.parent / "state" / "keys"), "relative to the file"
    assert parse_limits(args.limit).login_timeout == 11 and parse_table_limits(args.limit).max_tables == 7

    monkeypatch.setenv("DIXIT_TUI_CONFIG", str(config))  # the file named by the environment instead of a flag
    monkeypatch.setenv("DIXIT_TUI_PORT", "2222")
    monkeypatch.setenv("DIXIT_TUI_DATA", str(tmp_path / "srv"))
    monkeypatch.setenv("DIXIT_TUI_LIMIT_LOGIN_TIMEOUT", "12")
    monkeypatch.setenv("DIXIT_TUI_ALLOW_SEEDED_TABLES", "no")
    args = parse(["serve"])[0]
    assert (args.host, args.port, args.allow_seeded_tables) == ("127.0.0.2", 2222, False)
    assert data_folders(args) == (tmp_path / "srv", tmp_path / "srv" / "keys")
    assert parse_limits(args.limit).login_timeout == 12 and parse_table_limits(args.limit).max_tables == 7

    flags = ["--port", "3333", "--data-dir", "here", "--keys-dir", "k", "--limit", "login_timeout=13"]
    args = parse(["serve", *flags])[0]
    assert (args.host, args.port, args.allow_seeded_tables) == ("127.0.0.2", 3333, False)
    assert data_folders(args) == (Path("here"), Path("k"))
    assert parse_limits(args.limit).login_timeout == 13 and parse_table_limits(args.limit).max_tables == 7


def test_screen_casts_are_on_unless_the_flag_the_environment_or_the_config_file_turns_them_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [n for n in __import__("os").environ if n.startswith("DIXIT_TUI_")]:
        monkeypatch.delenv(name)
    config = tmp_path / "dixit.toml"
    config.write_text("no-screen-cast = true\n")

    def off(*argv: str) -> bool:
        return bool(parse(["serve", *argv])[0].no_screen_cast)

    assert (off(), off("--no-screen-cast"), off("--config", str(config))) == (False, True, True)
    monkeypatch.setenv("DIXIT_TUI_NO_SCREEN_CAST", "1")
    assert off()


def test_without_any_setting_the_folders_are_the_checkouts_keys_and_data(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in __import__("os").environ if n.startswith("DIXIT_TUI_")]:
        monkeypatch.delenv(name)
    assert data_folders(parse(["serve"])[0]) == (Path("data"), Path("keys"))


@pytest.mark.parametrize(
    ("text", "env", "says"),
    [
        ("prot = 2222\n", {}, "unknown setting 'prot'"),
        ("port = 'many'\n", {}, "port: invalid value 'many'"),
        ("log-level = 'LOUD'\n", {}, "log-level: invalid choice 'LOUD'"),
        ("port = [\n", {}, "is not valid TOML"),
        ("", {"DIXIT_TUI_WORKERS": "two"}, "DIXIT_TUI_WORKERS: invalid value 'two'"),
        ("", {"DIXIT_TUI_ALLOW_SEEDED_TABLES": "maybe"}, "DIXIT_TUI_ALLOW_SEEDED_TABLES takes 1 or 0"),
    ],
)
def test_a_bad_config_file_or_variable_is_a_usage_error(
    text: str, env: dict[str, str], says: str, tmp_path: Path
) -> None:
    (tmp_path / "dixit.toml").write_text(text)
    done = dixit("serve", "--config", "dixit.toml", cwd=tmp_path, env=env)
    assert done.returncode == 2, done
    assert says in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dixit.toml"]


def complete(line: str) -> list[str]:
    """What bash offers after `line` once `eval "$(register-python-argcomplete dixit-tui)"` ran (as README says)."""
    script = (
        'eval "$(register-python-argcomplete dixit-tui)"\n'
        'COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<< "$1"\n'
        '[[ "$1" == *" " ]] && COMP_WORDS+=("")\n'
        "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
        '_python_argcomplete dixit-tui "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"\n'
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    bin_dir = str(Path(sys.executable).parent)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": "/nonexistent"}
    done = subprocess.run(["bash", "-c", script, "bash", line], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return [word.strip() for word in done.stdout.splitlines() if word.strip()]


def test_bash_completes_the_commands_and_a_commands_options() -> None:
    assert {"serve", "bot", "replay", "help", "--version"} <= set(complete("dixit-tui "))
    assert complete("dixit-tui se") == ["serve"]
    assert complete("dixit-tui serve --metrics-h") == ["--metrics-host"]
    assert {"--table", "--count", "--strategy"} <= set(complete("dixit-tui bot --"))
