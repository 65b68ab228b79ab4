"""Host key creation, permission checks and fingerprints (no network)."""

from __future__ import annotations

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
    (keys / HOST_KEY_NAME).chmod(0o644)
    with pytest.raises(HostKeyError, match=f"chmod 600 {keys / HOST_KEY_NAME}"):
        ensure_host_key(keys)


def test_a_loose_folder_is_refused_with_the_fix(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    ensure_host_key(keys)
    keys.chmod(0o750)
    with pytest.raises(HostKeyError, match=f"chmod 700 {keys}"):
        ensure_host_key(keys)


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
