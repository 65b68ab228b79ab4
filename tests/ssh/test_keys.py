"""Host key creation, permission checks and fingerprints (no network)."""

from __future__ import annotations

import logging
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from dixit_tui.ssh.keys import HOST_KEY_NAME, HostKeyError, ensure_host_key, fingerprint


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_first_run_creates_a_private_key_in_a_private_folder_whatever_the_umask(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    old = os.umask(0)
    try:
        key = ensure_host_key(keys)
    finally:
        os.umask(old)
    assert mode(keys) == 0o700
    assert mode(keys / HOST_KEY_NAME) == 0o600
    assert key.algorithm == b"ssh-ed25519"
    assert ensure_host_key(keys).get_fingerprint() == key.get_fingerprint()  # reused, not regenerated


def test_a_loose_key_file_is_refused_with_the_fix(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    ensure_host_key(keys)
    for loose in (0o644, 0o640, 0o604, 0o660):
        (keys / HOST_KEY_NAME).chmod(loose)
        with pytest.raises(HostKeyError, match=f"chmod 600 {keys / HOST_KEY_NAME}"):
            ensure_host_key(keys)
        assert mode(keys / HOST_KEY_NAME) == loose  # the key file is refused, never silently changed


@pytest.mark.parametrize("loose", [0o755, 0o750, 0o775, 0o777])
def test_a_loose_folder_of_ours_is_tightened_and_said_so(
    tmp_path: Path, loose: int, caplog: pytest.LogCaptureFixture
) -> None:
    """A fresh `git clone` leaves the committed keys/ folder 0755 under the usual umask: tightened, not refused."""
    keys = tmp_path / "keys"
    keys.mkdir()
    keys.chmod(loose)
    (keys / "README.md").write_text("committed")
    with caplog.at_level(logging.INFO, logger="dixit_tui.ssh.keys"):
        key = ensure_host_key(keys)
    assert mode(keys) == 0o700
    assert mode(keys / HOST_KEY_NAME) == 0o600
    assert f"tightened host key folder {keys} from mode {loose:04o} to 0700" in caplog.text
    assert [r.levelname for r in caplog.records if "tightened" in r.getMessage()] == ["INFO"]
    caplog.clear()
    keys.chmod(loose)  # loosened again later: tightened again, and the same key is used
    assert ensure_host_key(keys).get_fingerprint() == key.get_fingerprint()
    assert mode(keys) == 0o700


def test_a_readable_folder_that_cannot_be_tightened_is_accepted_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    keys = tmp_path / "keys"
    keys.mkdir()
    keys.chmod(0o755)
    ensure_host_key(keys)  # the key is created while the folder can still be changed
    keys.chmod(0o755)
    monkeypatch.setattr(os, "fchmod", refuse_fchmod)  # e.g. a read-only mount
    with caplog.at_level(logging.INFO, logger="dixit_tui.ssh.keys"):
        ensure_host_key(keys)
    assert "cannot be tightened" in caplog.text
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert mode(keys) == 0o755


@pytest.mark.parametrize("loose", [0o775, 0o757])
def test_a_writable_folder_that_cannot_be_tightened_is_refused_with_the_fix(
    tmp_path: Path, loose: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = tmp_path / "keys"
    keys.mkdir()
    keys.chmod(loose)
    monkeypatch.setattr(os, "fchmod", refuse_fchmod)
    with pytest.raises(HostKeyError, match=f"writable by group or others .*chmod 700 {keys}"):
        ensure_host_key(keys)


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="chown needs root")
def test_a_folder_owned_by_someone_else_is_refused_and_left_alone(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    keys.mkdir()
    keys.chmod(0o755)
    os.chown(keys, 12345, 12345)
    with pytest.raises(HostKeyError, match="not owned by the user running the server"):
        ensure_host_key(keys)
    assert mode(keys) == 0o755
    assert not (keys / HOST_KEY_NAME).exists()


def test_a_symlinked_folder_is_refused(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    real.chmod(0o700)
    (tmp_path / "keys").symlink_to(real)
    with pytest.raises(HostKeyError, match="not a directory"):
        ensure_host_key(tmp_path / "keys")


def refuse_fchmod(fd: int, mode: int) -> None:
    raise PermissionError(1, "Operation not permitted")


def test_a_symlinked_key_is_refused(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    keys.mkdir(mode=0o700)
    keys.chmod(0o700)
    target = tmp_path / "elsewhere"
    target.write_text("x")
    (keys / HOST_KEY_NAME).symlink_to(target)
    with pytest.raises(HostKeyError, match="not a regular file"):
        ensure_host_key(keys)


def test_an_unreadable_key_is_a_host_key_error(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    keys.mkdir(mode=0o700)
    keys.chmod(0o700)
    garbage = keys / HOST_KEY_NAME
    garbage.write_text("not a key")
    garbage.chmod(0o600)
    with pytest.raises(HostKeyError, match="cannot read host key"):
        ensure_host_key(keys)


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen is not installed")
def test_fingerprint_matches_ssh_keygen(tmp_path: Path) -> None:
    key = ensure_host_key(tmp_path / "keys")
    for path in (tmp_path / "keys" / HOST_KEY_NAME, tmp_path / "keys" / f"{HOST_KEY_NAME}.pub"):
        output = subprocess.run(
            ["ssh-keygen", "-lf", str(path)], capture_output=True, text=True, check=True, timeout=10
        ).stdout
        assert output.split()[1] == fingerprint(key)
    assert fingerprint(key).startswith("SHA256:")
