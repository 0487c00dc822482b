"""The process's web server on $PORT: /healthz, /metrics, and routes adapters mount (/slack/events)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from adapters.base import Adapter

from .metrics import CONTENT_TYPE, Metrics

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class HealthServer:
    """aiohttp server for health checks, Prometheus scrapes and platform webhooks.

    `/healthz` answers 200 whenever the process is alive and serving, with `"status": "degraded"`
    when an adapter is not ready. Liveness must not depend on Slack or Discord being reachable: a
    platform outage would otherwise make the host restart a healthy process in a loop, dropping
    pending batches each time. Readiness probes that want a failing status pass `?strict=1`, which
    turns "degraded" into 503.

    Routes are added before `start()`; `port` is the bound port afterwards (so port 0 works).
    """

    def __init__(self, port: int, metrics: Metrics, host: str = "0.0.0.0") -> None:
        self._requested_port = port
        self.host = host
        self.metrics = metrics
        self._adapters: dict[str, Adapter] = {}
        self._app = web.Application()
        self._app.router.add_get("/healthz", self._healthz)
        self._app.router.add_get("/metrics", self._metrics)
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    @property
    def port(self) -> int:
        """The port actually bound; only known after `start()`."""
        if self._port is None:
            raise RuntimeError("HealthServer is not started")
        return self._port

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "", "::") else self.host
        return f"http://{host}:{self.port}"

    def add_route(self, method: str, path: str, handler: Handler) -> None:
        """Mount a handler (e.g. `POST /slack/events`); only before `start()`."""
        if self._runner is not None:
            raise RuntimeError("routes must be added before start()")
        self._app.router.add_route(method, path, handler)

    def register_adapter(self, adapter: Adapter) -> None:
        """Report this adapter's readiness in /healthz and as `adapter_ready` in /metrics."""
        self._adapters[adapter.name] = adapter
        self.metrics.track_adapter(adapter)

    def health(self) -> tuple[str, dict[str, dict[str, bool]]]:
        """The overall status and each adapter's readiness, as /healthz reports them."""
        adapters = {name: {"ready": bool(a.ready)} for name, a in self._adapters.items()}
        status = "ok" if all(v["ready"] for v in adapters.values()) else "degraded"
        return status, adapters

    async def start(self) -> None:
        if self._runner is not None:
            return
        runner = web.AppRunner(self._app, access_log=None)
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self._requested_port)
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        # With port 0 the OS picks one; read it back from the listening socket.
        address = runner.addresses[0]
        self._port = int(address[1])
        log.info("web server listening", extra={"host": self.host, "port": self._port})

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
            log.info("web server stopped")

    async def __aenter__(self) -> HealthServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def _healthz(self, request: web.Request) -> web.Response:
        status, adapters = self.health()
        strict = request.query.get("strict", "").lower() in ("1", "true", "yes")
        code = 503 if strict and status != "ok" else 200
        return web.json_response({"status": status, "adapters": adapters}, status=code)

    async def _metrics(self, request: web.Request) -> web.Response:
        body = self.metrics.render()
        # content_type= would refuse the charset/version parameters; the header carries them as is.
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})
