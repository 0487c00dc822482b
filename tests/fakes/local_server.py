"""What the local fakes share: an aiohttp app on a free 127.0.0.1 port, and waits on recorded traffic."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Self

from aiohttp import web

# Only turns a hang into a failure: a passing test never waits this long.
WAIT_LIMIT_SECONDS = 10.0


@dataclass(slots=True)
class _Waiter:
    predicate: Callable[[], bool]
    future: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class LocalServer:
    """Base of the fakes: `start()` serves `build_app()` on a free port of 127.0.0.1.

    Subclasses build their routes and call `_notify()` whenever they record traffic, so that
    `wait_for(predicate)` resolves the moment the predicate holds, with no polling or sleeps.
    """

    def __init__(self) -> None:
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._waiters: list[_Waiter] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def build_app(self) -> web.Application:
        raise NotImplementedError

    async def start(self) -> None:
        self._runner = web.AppRunner(self.build_app(), access_log=None)
        await self._runner.setup()
        # Bind the socket here: port 0 picks a free port, read back without private aiohttp API.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        for waiter in self._waiters:
            if not waiter.future.done():
                waiter.future.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def wait_for(self, predicate: Callable[[], bool]) -> None:
        """Resolve once `predicate()` holds; re-checked whenever the server records traffic."""
        if predicate():
            return
        waiter = _Waiter(predicate)
        self._waiters.append(waiter)
        try:
            async with asyncio.timeout(WAIT_LIMIT_SECONDS):
                await asyncio.shield(waiter.future)
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)

    def _notify(self) -> None:
        for waiter in list(self._waiters):
            if not waiter.future.done() and waiter.predicate():
                waiter.future.set_result(None)
