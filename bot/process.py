"""Process-wide tuning for a latency-bound service: one BLAS thread, a start-up heap the GC skips."""

from __future__ import annotations

import gc
import logging

from threadpoolctl import threadpool_limits

log = logging.getLogger(__name__)


def limit_blas_threads() -> None:
    """Run numpy's BLAS on the calling thread only, for the rest of the process.

    The matrix products here are small (a scope's vectors against one query, a block's candidates
    against each other): a second BLAS thread saves microseconds when the machine is idle, but
    with the event loop, SQLite readers and the embedder busy it waits for a core while the
    caller spins, and a 1 ms product takes 10 ms. Torch keeps its own threads.
    """
    threadpool_limits(limits=1, user_api="blas")


def freeze_startup_heap() -> None:
    """Move everything allocated so far (modules, the embedding model, caches) out of the GC's reach.

    A full collection otherwise walks those millions of objects again and again, stalling
    whatever turn is running for a few hundred milliseconds.
    """
    unreachable = gc.collect()
    gc.freeze()
    # Not gc.get_freeze_count(): it walks every frozen object, a tenth of a second with the model
    # loaded, on every start with debug logs (a hundred starts in the test suite).
    log.debug("start-up heap frozen", extra={"unreachable_collected": unreachable})
