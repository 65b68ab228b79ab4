"""The server's SSH host key: created once with safe permissions, refused when readable by others."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import asyncssh

logger = logging.getLogger(__name__)

HOST_KEY_NAME = "ssh_host_ed25519_key"
_DIR_MODE = 0o700
_KEY_MODE = 0o600


class HostKeyError(RuntimeError):
    """The host key or its folder cannot be used safely; the message says how to fix it."""


def ensure_host_key(keys_dir: Path) -> asyncssh.SSHKey:
    """Load the ed25519 host key from `keys_dir`, creating the folder (0700) and key (0600) on first run.

    Raises HostKeyError when the folder or key is accessible by group or others, is not owned by us,
    or cannot be read.
    """
    keys_dir = Path(keys_dir)
    if not keys_dir.exists():
        keys_dir.mkdir(mode=_DIR_MODE, parents=True)
        os.chmod(keys_dir, _DIR_MODE)  # mkdir's mode is filtered by the umask
        logger.info("created host key folder %s", keys_dir)
    _check_private(keys_dir, is_dir=True)

    key_path = keys_dir / HOST_KEY_NAME
    if not os.path.lexists(key_path):
        return _create_key(key_path)
    _check_private(key_path, is_dir=False)
    try:
        return asyncssh.read_private_key(str(key_path))
    except (OSError, asyncssh.KeyImportError) as error:
        raise HostKeyError(f"cannot read host key {key_path}: {error}") from error


def fingerprint(key: asyncssh.SSHKey) -> str:
    """The key's SHA256 fingerprint, as `ssh-keygen -lf` prints it ("SHA256:...")."""
    return key.get_fingerprint("sha256")


def _create_key(key_path: Path) -> asyncssh.SSHKey:
    key = asyncssh.generate_private_key("ssh-ed25519", comment="dixit-tui host key")
    data = key.export_private_key("openssh")
    # O_EXCL + O_NOFOLLOW: never write through a planted symlink or over a file created meanwhile.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(key_path, flags, _KEY_MODE)
    try:
        os.fchmod(fd, _KEY_MODE)  # os.open's mode is filtered by the umask too
        with os.fdopen(fd, "wb") as handle:
            fd = -1
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    finally:
        if fd >= 0:
            os.close(fd)
    public_path = key_path.with_name(key_path.name + ".pub")
    public_path.write_bytes(key.export_public_key("openssh"))
    logger.info("created host key %s", key_path)
    return key


def _check_private(path: Path, *, is_dir: bool) -> None:
    info = os.lstat(path)
    kind = "folder" if is_dir else "key file"
    if is_dir and not stat.S_ISDIR(info.st_mode):
        raise HostKeyError(f"host key folder {path} is not a directory")
    if not is_dir and not stat.S_ISREG(info.st_mode):
        raise HostKeyError(f"host key {path} is not a regular file (symlinks are refused)")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise HostKeyError(f"host key {kind} {path} is not owned by the user running the server")
    if info.st_mode & 0o077:
        mode = _DIR_MODE if is_dir else _KEY_MODE
        raise HostKeyError(
            f"host key {kind} {path} is accessible by group or others "
            f"(mode {stat.S_IMODE(info.st_mode):04o}); fix it with: chmod {mode:o} {path}"
        )
