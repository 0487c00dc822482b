"""The pre-hook's knobs and their defaults (the bot's PREHOOK_* settings set the main ones)."""

from __future__ import annotations

from dataclasses import dataclass

from .injection_state import InjectionStates


@dataclass(slots=True)
class PrehookConfig:
    """Pre-hook knobs and their defaults (the bot's PREHOOK_* settings set the main ones)."""

    recent_duration: str = "6h"
    channel_scope: bool = False
    semantic_threshold: float = 0.85
    max_semantic_buffer: int = 100
    # Lines of the block; the token budget is what binds (LoCoMo dev: 21 lines on average).
    max_injection_count: int = 40
    context_window_depth: int = 20
    # The block's ceiling; `min_score_share` decides how much of it a question spends. LoCoMo dev,
    # with the share at 0.55: 1,173 tokens per question on average at 1,300 (1,210 at 1,350); without
    # the share, 1,200 was what leaving each conversation out picked under a 1,200-token cap.
    token_budget: int = 1300
    # Score-adaptive truncation: lines scored below this share of the block's best line are left
    # out before the budget is applied (`ranking.within_share`), so a question whose best lines
    # stand out spends fewer tokens and one whose relevant lines sit close together, as a
    # question about many occasions does, spends up to the budget. Who is talking (identity) is
    # never cut. 0 turns it off (every line competes for the budget alone). LoCoMo dev: 0.866
    # against 0.858 in 1,173 tokens against 1,188; 0.57 to 0.60 cost open-domain questions.
    min_score_share: float = 0.55
    # The share never leaves the block under this many tokens: the lines it cut go back, best
    # first, up to it (`format_context_block`). Chat's lines are short, so a block cut by the
    # share alone held a few of them and far fewer tokens than a LoCoMo block. 0 turns it off.
    # Leaving each conversation out chose 700 for 3 of 5 LoCoMo dev conversations (0 for the
    # others, under the 1,200-token cap) and 800 to 1,000 for the chat development set
    # (bench/data/chat-dev.json); 700 keeps LoCoMo within that cap. See bench/NOTES.md.
    share_spares_tokens: int = 700
    important_threshold: float = 0.8
    preference_min_confidence: float = 0.6
    preference_cache_ttl: float = 300.0
    vector_top_k: int = 20
    # Below this relevance a search-only hit is noise, not memory; SQL-sourced memories
    # (identity, preferences, important, recent) are never dropped by it, only ranked.
    # Chat's short lines sit further from a question than LoCoMo's long ones: leaving each
    # conversation out, 0.25 for the chat development set against 0.35 for LoCoMo dev, where 0.25
    # costs 0.002 (one question); 0.25 is best over both. See bench/NOTES.md.
    min_relevance: float = 0.25
    max_injected_ids: int = 100
    sql_limit: int = 20  # rows per SQL source (identity, important, recent)
    # Past turns (level 0) found by the hybrid search over stored messages; 0 turns them off.
    message_top_k: int = 20
    # Past turns rank by reciprocal rank fusion of the vector and full-text lists, mapped onto
    # the memories' relevance scale: min_relevance + scale × Σ 1 / (k + rank).
    turn_rrf_k: int = 60
    turn_rrf_scale: float = 24.0
    # Weight of the vector list in that fusion (the full-text list weighs 1): turns are indexed
    # with the turn they answer, so their keyword matches are the more precise signal.
    turn_dense_weight: float = 1.0
    # A recalled turn comes with the turn that followed it (its answer, what it led to), on the
    # same line of the block; consecutive recalled turns share one line.
    turn_follow_ups: bool = True
    # Where a recalled turn's speaker went on after the other's reaction, that next turn of theirs
    # is a candidate too, scored this much below the turn it continues (memory/prehook/sources.py).
    # LoCoMo dev, leave one conversation out: see README.
    turn_continuations: bool = True
    turn_continuation_drop: float = 0.2
    # A question that names someone ("What has Alice painted?") is about their turns: a turn by
    # someone else that says the name only to speak to them ("Thanks, Alice! I painted this")
    # scores this much lower (`text.only_addressed`). 0 turns it off. LoCoMo dev, leave one
    # conversation out: see README.
    turn_addressee_drop: float = 0.15
    # Past turns are searched a second time by vector, the question moved towards its three best
    # dense hits by this weight (the mean of their vectors × weight, added): turns that say what
    # the question is about in the conversation's words. 0 turns it off. LoCoMo dev, leave one
    # conversation out: see README.
    turn_feedback: float = 1.0
    # Second stage over past turns: the dense and full-text turn lists are searched this deep,
    # their union rescored by cosine + `turn_lexical_weight` × full-text score / the list's best,
    # and the best 2 × `message_top_k` kept, ranked by that score (`turn_feedback` then has
    # nothing to add and is skipped). 0: the rank fusion above, `message_top_k` per list.
    # LoCoMo dev, leave one conversation out: see README.
    turn_pool: int = 60
    turn_lexical_weight: float = 0.3
    # A question that names when ("what did Nate do on 25 May?", "in November", "last week") also
    # draws up to `dated_turns` turns said then (spread over its days) into that pool, each scored
    # `dated_turn_boost` above its cosine. 0 turns it off (as does `turn_pool` 0).
    dated_turns: int = 60
    dated_turn_boost: float = 0.3
    # Added to that score to place the kept turns on the memories' relevance scale (below 0, a
    # memory wins a slot over a turn of about its relevance). A turn that the full-text search
    # found stays at `min_relevance` at least.
    turn_offset: float = 0.0
    # A past turn is left out of the block above this cosine with a line already chosen: turn
    # vectors carry the speaker and the day, so two different events one person told the same
    # day sit closer than two wordings of one memory (`semantic_threshold`). LoCoMo dev: 0.846
    # at 0.9, 0.95 or 1.01 (none left out), 0.842 at 0.85.
    turn_semantic_threshold: float = 0.9
    # At most this many memories that are there only by their SQL floor (identity, preference,
    # important, recent, with a low similarity to the batch): the rest of the slots go to what
    # the batch is actually about.
    max_floored: int = 6
    # A kind memory that makes the block ("Ana's pets include a dog: ...") brings at most this many
    # other instances of its kind that the viewer may read, said on its line ("also a cat (3 May
    # 2025)"): one line answers "what pets does Ana have?" where each instance alone would take
    # one, or miss the budget. 0 turns it off. LoCoMo dev: see README.
    kind_siblings: int = 6
    # Conversation summaries (levels 1+) searched when the hook is given a SummaryManager.
    summary_top_k: int = 5
    timeline_limit: int = 40  # memories and, separately, messages shown for a meta question

    def make_states(self) -> InjectionStates:
        return InjectionStates(
            context_window_depth=self.context_window_depth,
            semantic_threshold=self.semantic_threshold,
            max_ids=self.max_injected_ids,
            max_vectors=self.max_semantic_buffer,
        )
