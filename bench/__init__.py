"""Benchmarks: LoCoMo retrieval and pre-hook latency at scale, printing JSON."""
