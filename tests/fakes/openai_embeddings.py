"""A local fake of OpenAI's embeddings endpoint, for the real SDK (not a test module)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from aiohttp import web

from tests.fakes.local_server import LocalServer

# The one input the fake refuses (with a 400), to show how a failed request surfaces.
FAILING_INPUT = "boom"


class FakeOpenAIEmbeddings(LocalServer):
    """`POST /v1/embeddings`: each text's vector is `vector(text)`, by default `[len(text), 1, 0]`
    (unnormalised), and the rows come
    back in reverse order (their `index` says where each belongs). A request for exactly
    `[FAILING_INPUT]` gets a 400. Point the SDK at `base_url`; `requests` records every JSON body."""

    def __init__(self, vector: Callable[[str], Sequence[float]] | None = None) -> None:
        super().__init__()
        self.requests: list[dict[str, Any]] = []
        # What each text becomes; another fake embedder's vectors make a child process embed as
        # the test process does.
        self._vector = vector or (lambda t: [float(len(t)), 1.0, 0.0])

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    def build_app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v1/embeddings", self._embeddings)
        return app

    async def _embeddings(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.requests.append(body)
        self._notify()
        if body["input"] == [FAILING_INPUT]:
            return web.json_response({"error": {"message": "bad"}}, status=400)
        data = [
            {"object": "embedding", "index": i, "embedding": [float(x) for x in self._vector(t)]}
            for i, t in reversed(list(enumerate(body["input"])))  # out of order on purpose
        ]
        return web.json_response(
            {
                "object": "list",
                "data": data,
                "model": body["model"],
                "usage": {"prompt_tokens": 1, "total_tokens": 1},
            }
        )
