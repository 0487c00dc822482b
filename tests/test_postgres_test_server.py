"""The tests' PostgreSQL server never outlives the test process, however that process ends."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT, child_env

# Every test here starts a PostgreSQL test server of its own.
pytestmark = pytest.mark.postgres


_CHILD = """
import sys
from tests.fakes.postgres import PostgresTestServer
server = PostgresTestServer()
with open(server._root / "pgdata" / "postmaster.pid") as f:
    postmaster = int(f.readline())
print(server._root, server._watchdog.pid, postmaster, flush=True)
sys.stdin.read()
"""


def _wait_for_exit(pid: int) -> None:
    # Woken by the kernel when the process ends (no polling); a minute is only a guard.
    fd = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([fd], [], [], 60)
        assert ready, f"process {pid} still running"
    finally:
        os.close(fd)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_killed_test_process_takes_its_server_and_directory_along() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=child_env(PYTHONPATH=str(ROOT)),
    )
    try:
        assert child.stdout is not None
        root, watchdog, postmaster = child.stdout.readline().split()
        assert Path(root).is_dir() and _alive(int(postmaster))
    finally:
        child.send_signal(signal.SIGKILL)  # as a timeout kills a hung run: no cleanup of its own
        child.wait()
    _wait_for_exit(int(watchdog))
    assert not _alive(int(postmaster))
    assert not Path(root).exists()
