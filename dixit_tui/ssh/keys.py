"""The server's SSH host key: created once with safe permissions; a key file others can read is refused.

The key file must be 0600 (as OpenSSH insists); a folder of ours is tightened to 0700 (a fresh `git clone` leaves
`keys/` 0755), and what cannot be made safe is refused.
"""

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
    """Load the ed25519 host key from `keys_dir`, creating the folder (0700) and key (0600) on first run. HostKeyError
    when the key is readable by others, the key or folder is not ours, the folder stays open, or the key is unreadable.
    """
    keys_dir = Path(keys_dir)
    if not os.path.lexists(keys_dir):  # (a dangling symlink is refused below, not created through)
        keys_dir.mkdir(mode=_DIR_MODE, parents=True)
        os.chmod(keys_dir, _DIR_MODE)  # mkdir's mode is filtered by the umask
        logger.info("created host key folder %s", keys_dir)
    _secure_folder(keys_dir)

    key_path = keys_dir / HOST_KEY_NAME
    if not os.path.lexists(key_path):
        return _create_key(key_path)
    _check_private(key_path)
    try:
        return asyncssh.read_private_key(str(key_path))
    except (OSError, asyncssh.KeyImportError) as error:
        raise HostKeyError(f"cannot read host key {key_path}: {error}") from error


def fingerprint(key: asyncssh.SSHKey) -> str:
    """The key's SHA256 fingerprint, as `ssh-keygen -lf` prints it ("SHA256:...")."""
    return key.get_fingerprint("sha256")


def allowed_fingerprints(path: Path) -> frozenset[str]:
    """The key fingerprints an `authorized_keys`-style file allows (`serve --allow-keys`): each line a public key
    (`ssh-ed25519 AAAA... comment`, options before it are skipped) or a fingerprint (`SHA256:...`); blank lines and
    `#` comments are skipped. ValueError naming the line that is neither."""
    found = set()
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0].startswith("SHA256:"):
            found.add(words[0])
            continue
        for start in range(len(words) - 1):
            try:
                found.add(fingerprint(asyncssh.import_public_key(f"{words[start]} {words[start + 1]}")))
                break
            except (asyncssh.KeyImportError, ValueError):
                continue
        else:
            raise ValueError(f"{path}, line {number}: not a public key or a SHA256: fingerprint")
    return frozenset(found)


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


def _secure_folder(path: Path) -> None:
    """Make the folder 0700 if it is ours and looser, refuse what cannot be made safe (through one descriptor opened
    without following symlinks: the folder checked is the folder changed)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if os.path.islink(path) or not os.path.isdir(path):
            raise HostKeyError(f"host key folder {path} is not a directory (symlinks are refused)") from error
        raise HostKeyError(f"cannot open host key folder {path}: {error}") from error
    try:
        info = os.fstat(fd)
        if not stat.S_ISDIR(info.st_mode):
            raise HostKeyError(f"host key folder {path} is not a directory (symlinks are refused)")
        _check_owner(path, info, "folder")
        mode = stat.S_IMODE(info.st_mode)
        if not mode & 0o077:
            return
        try:
            os.fchmod(fd, mode & ~0o077)
        except OSError as error:
            if mode & 0o022:  # others could swap the key: not safe to use
                raise HostKeyError(
                    f"host key folder {path} is writable by group or others (mode {mode:04o}) and cannot be "
                    f"tightened ({error.strerror}); fix it with: chmod {_DIR_MODE:o} {path}"
                ) from error
            logger.warning(
                "host key folder %s is readable by group or others (mode %04o) and cannot be tightened (%s); "
                "the key file itself is private",
                path,
                mode,
                error.strerror,
            )
            return
        logger.info("tightened host key folder %s from mode %04o to %04o", path, mode, mode & ~0o077)
    finally:
        os.close(fd)


def _check_owner(path: Path, info: os.stat_result, kind: str) -> None:
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise HostKeyError(f"host key {kind} {path} is not owned by the user running the server")


def _check_private(path: Path) -> None:
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode):
        raise HostKeyError(f"host key {path} is not a regular file (symlinks are refused)")
    _check_owner(path, info, "key file")
    if info.st_mode & 0o077:
        raise HostKeyError(
            f"host key file {path} is accessible by group or others "
            f"(mode {stat.S_IMODE(info.st_mode):04o}); fix it with: chmod {_KEY_MODE:o} {path}"
        )
