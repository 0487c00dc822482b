"""Write and conversation locks: stable lock ids and one asyncio lock per key."""

from __future__ import annotations

import asyncio
import hashlib
import json
import weakref
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


def lock_id(key: str) -> int:
    """A stable signed 64-bit number for `key` (the same in every process and every version)."""
    return int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest(), "big", signed=True)


def write_lock_key(kind: str, *parts: str) -> str:
    """The `Storage.write_lock` key of one `kind` of write ("memories" of a scope, a "profile")."""
    return json.dumps([kind, *parts], separators=(",", ":"))


class KeyedLocks(Generic[K]):
    """One asyncio lock per key, living exactly as long as someone holds or awaits it."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[K, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, key: K) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock
