"""The pre-hook: before every reply, recall what matters for the batch and inject what the channel lacks.

- `hook`: `PreHook.run` (embed, gather, rank, dedup, format, record) and the injection bookkeeping
- `request`: what a run is asked (`PrehookRequest`) and what it gives back (`PrehookResult`)
- `sources`: the SQL sources and the hybrid search over memories, turns and summaries
- `candidates`: every source's rows as candidates, their scores, and a meta question's timeline
- `ranking`: the choice of lines: the dedup, what was said since an older line, the block's lines
- `context_block`: the block's sections, token budget and text; `inject`: where it goes in the history
- `injection_state`: what each conversation was already given; `config`: the knobs
- `meta_questions`, `preferences_cache`, `access_counts`: helpers of the sources
"""

from .candidates import freshness, usage
from .config import PrehookConfig
from .hook import STAGES, PreHook
from .inject import inject_into
from .request import PrehookRequest, PrehookResult

__all__ = [
    "STAGES",
    "PreHook",
    "PrehookConfig",
    "PrehookRequest",
    "PrehookResult",
    "freshness",
    "inject_into",
    "usage",
]
