"""Past turns indexed with who said them, when, and the turn they answer; recalled with their follow-up."""

from __future__ import annotations

import dataclasses

import pytest

from memory.engine import MemoryEngine
from memory.models import Audience, StoredMessage, Visibility
from memory.prehook import PreHook, PrehookConfig
from memory.scope import quote_literal
from memory.text import only_addressed, topic_words
from memory.turn_text import REPLY_GAP_SECONDS, message_embed_text, message_search_text
from tests.helpers import DAY, FakeClock, audience, is_turn_line, ranked_ids, store_apart
from tests.helpers import past_turn as turn
from tests.helpers import prehook_request as ask

IN_GENERAL = audience()


async def indexed_text(engine: MemoryEngine, message_id: str) -> str:
    table = engine.storage.vectors.messages._table
    rows = await table.query().where(f"id = {quote_literal(message_id)}").select(["text"]).to_arrow()
    return str(rows.column("text")[0])


def hiking_exchange(clock: FakeClock, reply: str) -> tuple[StoredMessage, StoredMessage]:
    """Alice's question about Bob's Alps hike a month ago, and Bob's `reply` 15 seconds later."""
    asked = clock() - 30 * DAY
    return (
        turn("Where did you go hiking in the Alps last summer?", asked, author="alice"),
        turn(reply, asked + 15),
    )


def test_embed_text_names_the_speaker_and_the_day() -> None:
    said = turn("I finally adopted a dog", 1_684_000_000.0)  # 13 May 2023
    assert message_embed_text(said) == "Bob (13 May 2023): I finally adopted a dog"
    assert message_embed_text(dataclasses.replace(said, author_name="")) == (
        "bob (13 May 2023): I finally adopted a dog"
    )


def test_search_text_carries_the_turn_answered_only_when_it_is_recent() -> None:
    question = turn("Did you go to the pottery class?", 1000.0, author="alice")
    answer = turn("Yes, last Friday!", 1010.0)
    assert message_search_text(answer, question) == "Did you go to the pottery class?\nYes, last Friday!"
    late = dataclasses.replace(answer, created_at=1000.0 + REPLY_GAP_SECONDS + 1)
    assert message_search_text(late, question) == "Yes, last Friday!"
    assert message_search_text(answer) == "Yes, last Friday!"


async def test_stored_turns_are_indexed_with_context_and_embedded_with_speaker_and_day(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    now = clock()
    question = turn("Did you go to the pottery class?", now - 30, author="alice")
    await engine.store_messages([question])
    # A later call finds the predecessor in SQLite; within one call, the batch's own order.
    answer = turn("Yes, last Friday!", now - 20)
    follow = turn("It was great", now - 10)
    other_channel = turn("Unrelated", now - 15, channel="random")
    await engine.store_messages([answer, other_channel, follow])
    assert await indexed_text(engine, question.id) == "Did you go to the pottery class?"
    assert await indexed_text(engine, answer.id) == "Did you go to the pottery class?\nYes, last Friday!"
    assert await indexed_text(engine, follow.id) == "Yes, last Friday!\nIt was great"
    assert await indexed_text(engine, other_channel.id) == "Unrelated"
    # The vector is the speaker-and-day text's, not the bare words'.
    expected = (await engine.embedder.embed([message_embed_text(answer)]))[0]
    hits = await engine.storage.vectors.messages.search(expected, f"id = {quote_literal(answer.id)}", 1)
    assert hits and hits[0].score == pytest.approx(1.0, abs=1e-4)


async def test_the_answer_is_found_by_the_words_of_the_question_it_answers(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    now = clock()
    question = turn("Did you ever finish the marathon in Rotterdam?", now - 5 * DAY, author="alice")
    answer = turn("Yes! Took me four hours and a half.", now - 5 * DAY + 15)
    await engine.store_messages([question, answer])
    hits = await engine.storage.vectors.messages.text_search("Rotterdam marathon", None, 5)
    assert answer.id in [h.id for h in hits]


async def test_following_messages_stay_in_the_conversation_the_gap_and_the_audience(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    now = clock()
    first = turn("first", now - 100)
    second = turn("second", now - 90, author="alice")
    in_thread = turn("in a thread", now - 95, thread="t1")
    elsewhere = turn("elsewhere", now - 92, channel="random")
    late = turn("much later", now - 90 + REPLY_GAP_SECONDS + 60)
    dm_question = turn(
        "my secret?", now - 50, author="alice", channel="dm-alice", visibility=Visibility.PRIVATE
    )
    dm_answer = turn(
        "it is 1234", now - 40, author="alice", channel="dm-alice", visibility=Visibility.PRIVATE
    )
    await engine.store_messages([first, in_thread, elsewhere, second, late, dm_question, dm_answer])
    clock.advance(2 * REPLY_GAP_SECONDS)
    following = await engine.storage.turns.following(
        [first.id, second.id, in_thread.id, dm_question.id], IN_GENERAL, REPLY_GAP_SECONDS
    )
    assert {k: v.id for k, v in following.items()} == {first.id: second.id}
    owner = Audience(
        "discord", "guild-1", "default", viewer_id="alice", channel_id="dm-alice", private_ok=True
    )
    mine = await engine.storage.turns.following([dm_question.id], owner, REPLY_GAP_SECONDS)
    assert [v.id for v in mine.values()] == [dm_answer.id]


async def test_a_recalled_turn_comes_with_its_answer_on_one_line(
    engine: MemoryEngine, hook: PreHook, clock: FakeClock
) -> None:
    question, answer = hiking_exchange(clock, "Chamonix, around the Mont Blanc")
    noise = turn("Anyone up for lunch?", clock() - 2 * DAY, author="carol")
    await engine.store_messages([question, answer, noise])
    result = await hook.run(ask("Which hiking trip in the Alps did Bob do?"))
    assert result.block is not None
    line = next(li for li in result.block.splitlines() if "hiking in the Alps" in li)
    assert '; then "Bob": "Chamonix, around the Mont Blanc"' in line
    assert {m.id for m in result.injected_messages} >= {question.id, answer.id}
    lines_with_turns = [li for li in result.block.splitlines() if is_turn_line(li)]
    assert len(lines_with_turns) == result.items - len(result.injected) - len(result.injected_summaries)
    # Both turns count as shown: asking again within the depth injects neither.
    again = await hook.run(ask("Which hiking trip in the Alps did Bob do, again?"))
    assert not {question.id, answer.id} & {m.id for m in again.injected_messages}


async def test_small_talk_recalls_no_turn_by_its_words_alone(
    engine: MemoryEngine, hook: PreHook, clock: FakeClock
) -> None:
    """A keyword match lifts a turn to the relevance floor; "ok thanks" matched every turn that
    says "ok" or "thanks", and filled the block with them."""
    said = await store_apart(
        engine,
        [
            # long enough that sharing one word brings no turn near by vector (the test embedder
            # is a bag of words)
            "thanks for bringing the lasagne to the potluck on saturday, everyone loved it and my aunt "
            "wants the recipe for her church dinner next month",
            "ok so the dentist moved my appointment to the fourteenth at nine, which means I have to "
            "skip the team standup and the planning meeting after it",
            "lol my cat knocked the plant off the windowsill again this morning and then sat in the "
            "soil looking extremely proud of what she had done",
            "thanks again for lending me the drill, the shelves are finally up in the spare room and "
            "the books are out of their boxes at last",
        ],
        clock() - 3 * DAY,
    )
    for small_talk in ("ok thanks", "lol", "haha ok", "merci!"):
        result = await hook.run(ask(small_talk))
        assert not result.injected_messages, (small_talk, result.block)
    # The words that carry a topic still find their turn.
    found = await hook.run(ask("who brought the lasagne to the potluck?"))
    assert said[0].id in {m.id for m in found.injected_messages}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("ok thanks", ""),
        ("lol ok", ""),
        ("Thanks! Who brought the lasagne?", "Who brought the lasagne"),
        ("ok so when is Tom's birthday", "so when is Tom's birthday"),
        ("merci pour la recette", "pour la recette"),
        ("What cool designs did Gina make?", "What cool designs did Gina make"),
    ],
)
def test_topic_words_leave_out_only_what_carries_no_topic(text: str, words: str) -> None:
    assert topic_words(text) == words


async def test_an_answer_that_asks_back_is_shown_with_its_own_answer(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    said = clock() - 30 * DAY
    exchange = [
        turn("I tried a pottery class on Saturday, have you ever done it?", said),
        turn("Never! What did you make?", said + 15, author="alice"),
        turn("A blue mug with a fish on it", said + 30),
        turn("So cool", said + 45, author="alice"),
    ]
    # Another day's turn on the same words fills the second stage's two places (one per list), so
    # "Never! ..." (found by the words it answers) is not chosen: only its question brings it.
    other = turn("Pottery class this Saturday, the pottery class is on", said - 5 * DAY, author="carol")
    await engine.store_messages([other, *exchange])
    hook = PreHook(engine, PrehookConfig(message_top_k=1), clock=clock)
    result = await hook.run(ask("Bob pottery class on Saturday"))
    await hook.aclose()
    assert result.block is not None
    line = next(li for li in result.block.splitlines() if "have you ever done it?" in li)
    answers = '; then "Alice": "Never! What did you make?"; then "Bob": "A blue mug with a fish on it"'
    assert line.endswith(answers)
    assert {m.id for m in result.injected_messages} == {other.id, *(t.id for t in exchange[:3])}


async def store_camping_story(
    engine: MemoryEngine, clock: FakeClock, went_on: str, by: str = "bob"
) -> list[StoredMessage]:
    """Bob's camping trip, Alice's "Oh fun!" and `went_on` said after it by `by`; and Carol's three
    turns nearer the question, which fill a pool of two (one per list), so that the story's last
    turn is in no search list: only the turn it continues can bring it."""
    said = clock() - 30 * DAY
    story = [
        turn("We camped by the lake in the Vosges all weekend", said),
        turn("Oh fun!", said + 15, author="alice"),
        turn(went_on, said + 30, author=by),
    ]
    others = [
        turn(f"Camping by the lake in the Vosges, trip {n}", said - (n + 1) * DAY, author="carol")
        for n in range(3)
    ]
    await engine.store_messages([*others, *story])
    return story


async def test_where_the_speaker_went_on_after_a_reaction_that_turn_is_recalled_too(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    story = await store_camping_story(
        engine, clock, "The kids roasted marshmallows and we told stories until late"
    )
    results = {}
    for on in (False, True):
        hook = PreHook(engine, PrehookConfig(message_top_k=1, turn_continuations=on), clock=clock)
        results[on] = await hook.run(ask("Bob camped by the lake in the Vosges"))
        await hook.aclose()
    assert story[0].id in {m.id for m in results[False].injected_messages}
    assert story[2].id not in {m.id for m in results[False].injected_messages}
    recalled = results[True]
    assert story[2].id in {m.id for m in recalled.injected_messages}
    # Scored below the turn it continues, and not as a reply: the reaction stays out.
    ranked = {c.id: score for c, score in recalled.candidates_ranked}
    assert ranked[story[2].id] < ranked[story[0].id]
    assert story[1].id not in {m.id for m in recalled.injected_messages}
    assert recalled.block is not None and "roasted marshmallows" in recalled.block


async def test_what_someone_else_said_after_the_reaction_is_no_continuation(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    story = await store_camping_story(
        engine, clock, "Anyway, the kids roasted marshmallows at my place", by="carol"
    )
    hook = PreHook(engine, PrehookConfig(message_top_k=1), clock=clock)
    result = await hook.run(ask("Bob camped by the lake in the Vosges"))
    await hook.aclose()
    assert story[0].id in {m.id for m in result.injected_messages}
    assert story[2].id not in {c.id for c, _ in result.candidates_ranked}


async def test_a_follow_up_the_model_already_has_is_not_attached(
    engine: MemoryEngine, hook: PreHook, clock: FakeClock
) -> None:
    question, answer = hiking_exchange(clock, "Chamonix, around the Mont Blanc")
    await engine.store_messages([question, answer])
    result = await hook.run(
        ask("Which hiking trip in the Alps did Bob do?", in_context_message_ids=[answer.id])
    )
    assert result.block is not None and "Chamonix" not in result.block
    assert answer.id not in {m.id for m in result.injected_messages}


async def test_follow_ups_can_be_switched_off(engine: MemoryEngine, clock: FakeClock) -> None:
    question, answer = hiking_exchange(clock, "Paris, for the food")
    await engine.store_messages([question, answer])
    hook = PreHook(engine, PrehookConfig(turn_follow_ups=False), clock=clock)
    result = await hook.run(ask("hiking in the Alps"))
    assert result.block is not None and "hiking in the Alps" in result.block
    assert "; then " not in result.block
    await hook.aclose()


async def test_consecutive_recalled_turns_share_one_line_and_one_item(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    now = clock()
    turns = [
        turn("The Lisbon offsite is booked for the third week of May", now - 10 * DAY, author="alice"),
        turn("Great, is the Lisbon hotel near the offsite venue?", now - 10 * DAY + 15),
        turn("Yes, the Lisbon hotel is a five minute walk", now - 10 * DAY + 30, author="alice"),
    ]
    await engine.store_messages(turns)
    hook = PreHook(engine, PrehookConfig(max_injection_count=1), clock=clock)
    result = await hook.run(ask("Lisbon offsite hotel"))
    assert result.items == 1
    assert [m.id for m in result.injected_messages] == [t.id for t in turns]
    assert result.block is not None
    assert sum(is_turn_line(li) for li in result.block.splitlines()) == 1
    await hook.aclose()


async def test_turns_near_the_best_hits_join_the_candidates(engine: MemoryEngine, clock: FakeClock) -> None:
    # The question's words rank an unrelated "gym" turn above the Blocpark one; the best hits'
    # own words (bouldering, chalk, crash pads) bring Blocpark in on the second search, which
    # runs under the rank fusion (turn_pool 0).
    at = clock() - 10 * DAY
    said = [
        "climbing gym: bouldering, chalk, crash pads",
        "the climbing gym has bouldering and chalk and crash pads",
        "bouldering at the climbing gym with chalk and crash pads",
        "Blocpark gym: bouldering, chalk, crash pads, top ropes",
        "my gym closed for the summer holidays in august",
        "which bus goes to the station near the old market",
        "climbing prices for flats are crazy in this city",
        "the gym playlist was awful tonight honestly so loud",
    ]
    turns = await store_apart(engine, said, at)
    blocpark = turns[3].id
    found = {}
    for weight in (0.0, PrehookConfig().turn_feedback):
        config = PrehookConfig(message_top_k=4, turn_feedback=weight, turn_pool=0)
        found[weight] = set(await ranked_ids(engine, clock, config, "which climbing gym"))
    assert blocpark not in found[0.0]
    assert blocpark in found[PrehookConfig().turn_feedback]


@pytest.mark.parametrize(
    ("text", "spoken_to"),
    [
        ("Thanks, Dana! I painted this mural", True),
        ("Dana, those bowls look amazing!", True),
        ("That's a great shot, Dana!", True),
        ("Wow Dana, what a view", True),
        ("Merci Dana, c'est superbe", True),
        ("I went painting with Dana.", False),
        ("Thanks, Dana! Dana's mural inspired mine", False),  # said of her too
        ("I told Dana about it, and she loved it", False),
        ("Hey Dan! Nice mural", None),  # another name
        ("Danae painted it", None),
        # A mention as the adapters write it.
        ("@Dana did you see the mural? I painted it", True),
        ("Thanks @Dana! I painted this mural", True),
        ("Great work, @Dana!", True),
        ("I went painting with @Dana yesterday", False),
    ],
)
def test_a_name_said_only_to_speak_to_its_bearer(text: str, spoken_to: bool | None) -> None:
    assert only_addressed("Dana", text) is spoken_to


async def test_a_turn_that_only_speaks_to_the_person_asked_about_ranks_lower(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    said = clock() - 3 * DAY
    own = turn("I painted the old lighthouse at dawn", said, author="dana")
    to_her = turn("Thanks, Dana! I painted this lighthouse mural too", said + 1_000, author="bob")
    with_her = turn("I painted the lighthouse with Dana last spring", said + 2_000, author="carol")
    await engine.store_messages([own, to_her, with_her])
    scores = {}
    for drop in (0.0, PrehookConfig().turn_addressee_drop):
        hook = PreHook(engine, PrehookConfig(turn_addressee_drop=drop), clock=clock)
        result = await hook.run(ask("What has Dana painted?"))
        await hook.aclose()
        scores[drop] = {c.id: score for c, score in result.candidates_ranked}
    off, on = scores[0.0], scores[PrehookConfig().turn_addressee_drop]
    assert on[to_her.id] < off[to_her.id]
    # Dana's own turn, and one that speaks of her, keep their scores.
    assert on[own.id] == off[own.id] and on[with_her.id] == off[with_her.id]
    # A question that names nobody who spoke lowers nothing.
    hook = PreHook(engine, PrehookConfig(), clock=clock)
    result = await hook.run(ask("Who painted a lighthouse?"))
    await hook.aclose()
    unnamed = {c.id: score for c, score in result.candidates_ranked}
    hook = PreHook(engine, PrehookConfig(turn_addressee_drop=0.0), clock=clock)
    result = await hook.run(ask("Who painted a lighthouse?"))
    await hook.aclose()
    assert unnamed == {c.id: score for c, score in result.candidates_ranked}
