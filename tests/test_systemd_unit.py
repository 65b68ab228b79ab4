"""The shipped systemd unit (contrib/systemd/dixit-tui.service) passes `systemd-analyze verify`, and
`systemd-analyze security` rates it "OK" (2.0 or lower); its command is a real `dixit-tui serve` command line with
the settings the docs give. .ci/run installs systemd when systemd-analyze is missing; without it these tests skip."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dixit_tui.cli import parse
from dixit_tui.serve import data_folders

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "contrib" / "systemd" / "dixit-tui.service"
ANALYZE = shutil.which("systemd-analyze")
INSTALLED = "/opt/dixit-tui/bin/dixit-tui"

needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is missing (Debian: apt install systemd)")


def settings() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(("#", "[")):
            name, _, value = line.partition("=")
            found.setdefault(name, []).append(value)
    return found


def here(tmp_path: Path) -> Path:
    """The unit with its ExecStart on this machine's dixit-tui (verify checks the program exists)."""
    program = Path(sys.executable).parent / "dixit-tui"
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text(encoding="utf-8").replace(INSTALLED, str(program)), encoding="utf-8")
    return unit


@needs_analyze
def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    assert ANALYZE is not None
    done = subprocess.run([ANALYZE, "verify", here(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr.strip(), done.stdout + done.stderr


@needs_analyze
def test_systemd_analyze_security_rates_the_unit_ok(tmp_path: Path) -> None:
    assert ANALYZE is not None
    done = subprocess.run(
        [ANALYZE, "security", "--offline=yes", "--no-pager", here(tmp_path)], capture_output=True, text=True, timeout=60
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+) (\w+)", done.stdout + done.stderr)
    assert match, done.stdout + done.stderr
    print(match.group(0))
    assert float(match.group(1)) <= 2.0 and match.group(2) == "OK", match.group(0)


def test_the_unit_runs_serve_on_its_state_directory_with_a_file_limit() -> None:
    unit = settings()
    assert unit["Wants"] == ["network-online.target"] and unit["After"] == ["network-online.target"]
    assert unit["DynamicUser"] == ["yes"] and unit["StateDirectory"] == ["dixit-tui"]
    assert int(unit["LimitNOFILE"][0]) >= 4 * 1000, "max_connections is 1000 by default"
    program, *args = shlex.split(unit["ExecStart"][0])
    assert program == INSTALLED and args[0] == "serve"
    config = ROOT / "contrib" / "dixit-tui.toml"
    args = [a if a != "/etc/dixit-tui/dixit-tui.toml" else str(config) for a in args]
    parsed = parse(args)[0]
    assert data_folders(parsed) == (Path("/var/lib/dixit-tui"), Path("/var/lib/dixit-tui/keys"))
    assert (parsed.host, parsed.port) == ("0.0.0.0", 2222), "the shipped config file is read as written"
