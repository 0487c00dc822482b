"""Stand-ins the tests run the bot against, all local and deterministic (none of them is a test module).

- `local_server.LocalServer`: the base of the fake servers (a free 127.0.0.1 port, waits on traffic).
- `slack_api.FakeSlackAPI`, `discord_api.FakeDiscord`, `llm_server.FakeLLMServer`,
  `openai_embeddings.FakeOpenAIEmbeddings`: the platform and model APIs the bot talks to.
- `embedders`: `HashEmbedder` (hashed words, the suite's default embedder), `CountingEmbedder`,
  `FlakyEmbedder`.
- `ingest_worker`: the child process the crash tests kill.
"""
