"""The pre-hook's choice of lines: what one block carries is said once."""

from __future__ import annotations

import numpy as np

from memory.models import Scope, Summary
from memory.prehook import PrehookConfig
from memory.prehook.candidates import Candidate, collect, shared_ranks
from memory.prehook.context_block import BlockItem, Section
from memory.prehook.injection_state import ChannelInjectionState
from memory.prehook.ranking import block_items, dedup, within_share
from memory.prehook.sources import SearchFound, SqlFound
from memory.storage import VectorHit
from memory.turn_text import ends_on_a_question
from tests.helpers import NOW, memory_row, past_turn, prehook_request

CONFIG = PrehookConfig()


def chosen(ranked: list[Candidate], following: dict | None = None) -> list[str]:
    state = CONFIG.make_states().get("discord", "guild-1", "general", None, "default")
    return [c.id for c in dedup(CONFIG, ranked, state, following or {})]


def as_turn(text: str, score: float, at: float = NOW - 3600) -> Candidate:
    return Candidate(None, None, {"message"}, relevance=score, score=score, message=past_turn(text, at))


def as_memory(n: int, sources: list[str], score: float) -> Candidate:
    row = memory_row(f"Bob adopted a cat {n}", n, sources=sources)
    return Candidate(row, None, {"vector"}, relevance=score, score=score)


def test_a_memory_drawn_only_from_turns_already_in_the_block_is_left_out() -> None:
    said = as_turn("I adopted a grey cat named Pixel", 0.9)
    asked = as_turn("Did you name her yet?", 0.85)
    answer = past_turn("Pixel, she is grey", NOW - 3585)
    from_said = as_memory(1, [said.id], 0.8)
    from_answer = as_memory(2, [answer.id], 0.7)
    # One of its sources is not in the block: it says something the block does not.
    wider = as_memory(3, [said.id, "another-turn"], 0.6)
    summary = Summary(
        "s1", Scope("discord", "guild-1", "general"), content="Bob adopted Pixel", source_ids=[said.id]
    )
    summed = Candidate(None, None, {"summary"}, relevance=0.5, score=0.5, summary=summary)

    ids = chosen([said, asked, from_said, from_answer, wider, summed], {asked.id: answer})

    assert ids == [said.id, asked.id, wider.id]


def test_a_memory_ranked_above_its_turn_keeps_its_line_and_so_does_the_turn() -> None:
    # Only what comes after is redundant: the turn says more than the memory drawn from it.
    said = as_turn("I adopted a grey cat named Pixel", 0.7)
    from_said = as_memory(1, [said.id], 0.9)
    assert chosen([from_said, said]) == [from_said.id, said.id]


def follow_ups(items: list[BlockItem]) -> list[list[str]]:
    return [[m.content for m in item.follow_ups] for item in items]


def test_the_turn_after_a_question_joins_its_line_and_a_reaction_to_a_statement_does_not() -> None:
    asked = as_turn("Where did you go hiking last summer?", 0.9)
    stated = as_turn("I adopted a grey cat named Pixel last weekend", 0.8, at=NOW - 7200)
    answer = past_turn("Chamonix, around the Mont Blanc", NOW - 3585)
    reaction = past_turn("Wow, congrats, so happy for you!", NOW - 7185)
    following = {asked.id: answer, stated.id: reaction}

    items = block_items([asked, stated], following)

    assert follow_ups(items) == [["Chamonix, around the Mont Blanc"], []]
    # Chosen in its own right, the turn after a statement still shares its line.
    replied = as_turn(reaction.content, 0.7, at=reaction.created_at)
    replied.message = reaction
    assert follow_ups(block_items([stated, replied], following)) == [[reaction.content]]


def test_an_answer_that_asks_back_brings_its_own_answer_once() -> None:
    asked = as_turn("I tried a pottery class on Saturday, have you ever done it?", 0.9)
    back = past_turn("Never! What did you make?", NOW - 3585)
    made = past_turn("A blue mug with a fish on it", NOW - 3570)
    after = past_turn("So cool", NOW - 3555)
    following = {asked.id: back, back.id: made, made.id: after}

    assert follow_ups(block_items([asked], following)) == [[back.content, made.content]]
    # A plain answer ends the line: what comes after it is not its answer.
    assert follow_ups(block_items([asked], {asked.id: back})) == [[back.content]]
    # Chosen in its own right, the answer to the answer keeps its own line and is shown once.
    chosen = as_turn(made.content, 0.8, at=made.created_at)
    chosen.message = made
    items = block_items([asked, chosen], following)
    assert [i.message.content for i in items] == [asked.message.content, made.content]  # type: ignore[union-attr]
    assert follow_ups(items) == [[back.content], []]


def test_hits_of_equal_score_share_the_better_rank() -> None:
    hits = [VectorHit(f"h{n}", score, None) for n, score in enumerate([5.0, 5.0, 4.0, 4.0, 4.0, 3.0])]
    assert shared_ranks(hits) == [0, 0, 2, 2, 2, 5]
    assert shared_ranks([]) == []


def test_a_full_text_tie_scores_alike_whichever_way_round_the_backend_lists_it() -> None:
    # Two memories of equal BM25: LanceDB and PostgreSQL may list them either way round.
    rows = {
        m.id: m
        for m in (
            memory_row("Ana's outdoor activities include hiking", 1),
            memory_row("Ana's outdoor activities include camping", 2),
        )
    }
    query = np.array([1.0, 0.0], dtype=np.float32)
    vector = np.array([0.6, 0.8], dtype=np.float32)
    scores = []
    for order in (["m1", "m2"], ["m2", "m1"]):
        lexical = [VectorHit(i, 5.04, vector) for i in order]
        found = SearchFound(lexical=lexical, rows=rows)
        candidates = collect(prehook_request("Ana's outdoor activities"), SqlFound(), found, query, NOW)
        scores.append({i: c.score for i, c in candidates.items()})
    assert scores[0] == scores[1]
    assert scores[0]["m1"] == scores[0]["m2"]


def test_a_turn_ends_on_a_question_only_when_its_last_sentence_asks() -> None:
    assert ends_on_a_question(past_turn("Loved it. Where did you go hiking last summer?", NOW))
    assert not ends_on_a_question(past_turn("Where did you go? I went to Chamonix.", NOW))
    assert not ends_on_a_question(past_turn("", NOW))


class CountingState(ChannelInjectionState):
    """A channel's injection state that counts the candidates compared with what it holds."""

    def __init__(self) -> None:
        super().__init__()
        self.compared = 0

    def semantic_duplicates(self, vectors: np.ndarray, ids=None, turn=None):  # type: ignore[no-untyped-def]
        self.compared += len(vectors)
        return super().semantic_duplicates(vectors, ids, turn)


def _distinct_memories(count: int) -> list[Candidate]:
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((count, 64)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return [
        Candidate(memory_row(f"fact {n}", n), vectors[n], {"vector"}, relevance=0.9, score=1.0 - n / count)
        for n in range(count)
    ]


def test_a_full_block_compares_only_the_candidates_it_looked_at() -> None:
    # A busy request brings hundreds of candidates; the block takes its lines from the first few.
    ranked = _distinct_memories(600)
    state = CountingState()
    state.record([(c.id, c.updated_at, c.vector) for c in ranked[-3:]])  # some already shown
    kept = dedup(CONFIG, ranked, state, {})
    assert [c.id for c in kept] == [c.id for c in ranked[: CONFIG.max_injection_count]]
    assert 0 < state.compared < 100


def test_a_near_copy_of_a_chosen_line_or_of_what_was_shown_is_skipped() -> None:
    ranked = _distinct_memories(40)
    copy = Candidate(memory_row("fact 0 again", 99), ranked[0].vector, {"vector"}, relevance=0.9, score=0.99)
    shown = _distinct_memories(41)[40]
    late = Candidate(memory_row("shown before", 98), shown.vector, {"vector"}, relevance=0.9, score=0.98)
    state = CountingState()
    state.record([("elsewhere", NOW, shown.vector)])
    kept = [c.id for c in dedup(CONFIG, [ranked[0], copy, late, *ranked[1:]], state, {})]
    assert ranked[0].id in kept and copy.id not in kept and late.id not in kept


def _pair(cosine: float) -> tuple[np.ndarray, np.ndarray]:
    first = np.array([1.0, 0.0], dtype=np.float32)
    return first, np.array([cosine, float(np.sqrt(1 - cosine**2))], dtype=np.float32)


def test_two_turns_of_one_person_and_day_are_two_lines_where_two_memories_would_be_one() -> None:
    # Turn vectors carry the speaker and the day: "won my first tournament" and "won another one"
    # that day sit at about 0.87, above the memories' 0.85 and below the turns' own threshold.
    assert CONFIG.semantic_threshold < 0.87 < CONFIG.turn_semantic_threshold
    first, second = _pair(0.87)
    turns = [as_turn("I won my first tournament", 0.9), as_turn("I won another tournament", 0.8)]
    memories = [as_memory(1, ["a"], 0.9), as_memory(2, ["b"], 0.8)]
    for pair in (turns, memories):
        pair[0].vector, pair[1].vector = first, second
    assert chosen(turns) == [c.id for c in turns]
    assert chosen(memories) == [memories[0].id]
    # A near copy of a turn is still one line.
    copy = as_turn("I won another tournament!", 0.7)
    copy.vector = _pair(0.95)[1]
    assert chosen([turns[0], copy]) == [turns[0].id]


def test_lines_below_the_share_of_the_best_score_are_left_out_and_who_is_talking_stays() -> None:
    def line(section: Section, score: float) -> BlockItem:
        return BlockItem(section, score, memory=memory_row(f"line {score}", int(score * 100)))

    # Who is talking: kept whatever its score, and it sets no bar.
    identity, low_identity = line(Section.IDENTITY, 2.0), line(Section.IDENTITY, 0.1)
    best, close = line(Section.MESSAGES, 1.0), line(Section.RELEVANT, 0.5)  # at the share: kept
    weak_turn, weak_memory = line(Section.MESSAGES, 0.45), line(Section.RELEVANT, 0.4)
    # Preferences, important and recent memories compete by score.
    preference, recent = line(Section.PREFERENCES, 0.35), line(Section.RECENT, 0.3)
    items = [identity, best, close, weak_turn, weak_memory, preference, recent, low_identity]

    assert within_share(items, 0.5) == [identity, best, close, low_identity]
    # Off (the share at 0), every line stays.
    assert within_share(items, 0.0) == items
    # With nothing found by the question, the recent memory is the best line and stays.
    assert within_share([identity, recent], 0.5) == [identity, recent]
    # Scores at or below zero give no scale: nothing is cut.
    cold = [line(Section.RECENT, 0.0), line(Section.RELEVANT, -0.2)]
    assert within_share(cold, 0.5) == cold


def test_a_line_of_turns_scores_as_its_best_turn_under_the_share() -> None:
    # A weak question whose answer was chosen shares the answer's line, and its score.
    asked = as_turn("What did you bake for the party?", 0.3)
    answer = as_turn("A lemon tart with basil", 0.9, at=asked.created_at + 15)
    items = block_items([answer, asked], {asked.id: answer.message})
    assert [len(i.follow_ups) for i in within_share(items, 0.5)] == [1]
