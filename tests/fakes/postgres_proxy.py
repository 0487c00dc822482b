"""A TCP proxy before the tests' PostgreSQL that delivers a server's goodbye but holds back its close."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse


class HeldCloseProxy:
    """Forwards 127.0.0.1:`port` to one server's Unix socket. Once `hold_next_close()` is called,
    the next connection the server ends has its last bytes (the "terminating connection" error)
    reach the client but not the close, until the client sends something (then it does, as a
    write to a dead socket would be answered). So a client sees the moment between the two that a
    real network can give it."""

    def __init__(self, socket_path: Path, database: str, user: str) -> None:
        self._socket_path = socket_path
        self._database = database
        self._user = user
        self.server_ended = asyncio.Event()  # a held connection's server side has closed
        self._hold = False
        self.connections = 0  # how many connections clients have opened through the proxy
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def hold_next_close(self) -> None:
        self._hold = True

    @property
    def url(self) -> str:
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"postgresql://{self._user}@127.0.0.1:{port}/{self._database}?sslmode=disable"

    @classmethod
    @contextlib.asynccontextmanager
    async def before(cls, postgres_url: str) -> AsyncIterator[HeldCloseProxy]:
        """A proxy before the server and database of `postgres_url` (a Unix-socket URL)."""
        parsed = urlparse(postgres_url)
        socket_dir = Path(unquote(parse_qs(parsed.query)["host"][0]))
        socket_path = socket_dir / f".s.PGSQL.{parsed.port or 5432}"  # where libpq looks too
        proxy = cls(socket_path, parsed.path.lstrip("/"), parsed.username or "postgres")
        proxy._server = await asyncio.start_server(proxy._serve, "127.0.0.1", 0)
        try:
            yield proxy
        finally:
            proxy._server.close()
            for task in list(proxy._tasks):
                task.cancel()
            await asyncio.gather(*proxy._tasks, return_exceptions=True)

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self.connections += 1
        upstream_reader, upstream_writer = await asyncio.open_unix_connection(self._socket_path)
        ended = asyncio.Event()
        down = asyncio.create_task(self._down(upstream_reader, client_writer, ended))
        try:
            while data := await client_reader.read(65536):
                if ended.is_set():
                    break  # the client writes to a connection its server ended: now it hears the close
                upstream_writer.write(data)
                await upstream_writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            down.cancel()
            for writer in (client_writer, upstream_writer):
                writer.close()
            self._tasks.discard(task)

    async def _down(
        self, upstream: asyncio.StreamReader, client_writer: asyncio.StreamWriter, ended: asyncio.Event
    ) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await upstream.read(65536):
                client_writer.write(data)
                await client_writer.drain()
        if not self._hold:
            client_writer.close()
            return
        self._hold = False
        ended.set()
        self.server_ended.set()
