"""The user behind ``sudo``: a command run as root on their behalf keeps their files in
their own directories and leaves them theirs, not root's."""

from __future__ import annotations

import contextlib
import os
import pwd
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Owner:
    name: str
    uid: int
    gid: int
    home: Path


def sudo_owner(environment: Mapping[str, str]) -> Owner | None:
    """The user who ran ``sudo`` (``SUDO_UID``, ``SUDO_GID``, ``SUDO_USER``), when this
    process runs as root on their behalf; None otherwise, and for root itself."""
    if os.geteuid() != 0:
        return None
    try:
        uid = int(environment.get("SUDO_UID", ""))
    except ValueError:
        return None
    if uid == 0:
        return None
    try:
        account = pwd.getpwuid(uid)
    except KeyError:
        return None  # no such user here: nowhere of theirs to write to
    try:
        gid = int(environment.get("SUDO_GID", ""))
    except ValueError:
        gid = account.pw_gid
    return Owner(environment.get("SUDO_USER") or account.pw_name, uid, gid, Path(account.pw_dir))


def directory_owner(directory: Path) -> Owner | None:
    """Who owns ``directory``, when this process runs as root and it is someone else's
    (the service's own /var/lib/clacks is the service user's): files made there are made
    as theirs, so that they can read them. None otherwise, or if it does not exist."""
    if os.geteuid() != 0:
        return None
    try:
        found = directory.stat()
    except OSError:
        return None
    if found.st_uid == 0:
        return None
    try:
        account = pwd.getpwuid(found.st_uid)
    except KeyError:
        return Owner(str(found.st_uid), found.st_uid, found.st_gid, directory)
    return Owner(account.pw_name, found.st_uid, found.st_gid, Path(account.pw_dir))


@contextlib.contextmanager
def acting_as(owner: Owner | None) -> Iterator[None]:
    """Files made inside are made as ``owner`` (their directories too), with the owner's
    rights rather than root's; nothing changes for None."""
    if owner is None:
        yield
        return
    groups = os.getgroups()
    os.setgroups([owner.gid])
    os.setegid(owner.gid)
    os.seteuid(owner.uid)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)
        os.setgroups(groups)
