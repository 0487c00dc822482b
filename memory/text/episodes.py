"""Heuristic episodes from one exchange (a user message and the reply): decisions, deadlines, reminders."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from ..models import MemoryType, normalize_text
from .dates import DATE_PATTERN, TIME_PATTERN, expand_dates, find_dates
from .extraction import Extracted, extract
from .failures import log_heuristic_failure
from .lexicons import MONTHS_EN
from .normalize import clean_speaker, clean_text, looks_french
from .normalize import regex as _rx
from .phrases import trim_phrase
from .rewrite import third_person
from .rules import OBLIGATION, settles_decision
from .second_person import as_user_words, second_to_first
from .sentences import is_hypothetical, split_sentences
from .subjects import pick_subjects, topic_words

__all__ = ["Episode", "detect_episodes"]

# Bounds: a reply can be long, but what it commits to sits in its first sentences.
_MAX_INPUT = 20_000
_MAX_SENTENCES = 40
_MAX_EPISODES = 10
_MAX_QUESTION = 300
_MAX_STATEMENT = 1_000
_CONF_CONFIRMED = 0.85  # a proposal the reply agreed to
_CONF_ANSWER = 0.75  # a date the reply gave to the user's question
_CONF_REMINDER = 0.85
_CONF_RESTATED = 0.7  # the reply restating what the user meant

_EPISODE_TYPES = (MemoryType.DECISION, MemoryType.EVENT, MemoryType.PREFERENCE, MemoryType.TODO)


@dataclass(frozen=True, slots=True)
class Episode:
    """One notable moment of an exchange, as a self-contained third-person sentence."""

    content: str
    memory_type: MemoryType  # DECISION, EVENT, PREFERENCE or TODO
    subjects: list[str]
    event_at: float | None  # when it happens (deadline, reminder) or was decided
    confidence: float


# --------------------------------------------------------------------------- sentences


def _split(text: str) -> tuple[list[str], list[str]]:
    """(statements, questions) of a text, in order, without repeats, each of bounded length."""
    statements: list[str] = []
    questions: list[str] = []
    for sentence, question in split_sentences(text)[: _MAX_SENTENCES * 2]:
        # The question patterns end in a lazy group: a bound keeps them linear in practice, and
        # a question worth reading (a proposal, "when is X due?") is short anyway.
        if question and len(sentence) > _MAX_QUESTION:
            continue
        target = questions if question else statements
        sentence = sentence[:_MAX_STATEMENT]
        if sentence not in target:
            target.append(sentence)
    return statements[:_MAX_SENTENCES], questions[:_MAX_SENTENCES]


_MONTHS_FR_SHORT = ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.",
                    "déc.")  # fmt: skip


def _stamp(moment: datetime, fr: bool) -> str:
    """The day a decision was taken, short: "22 Nov 2026" / "22 nov. 2026"."""
    if fr:
        return f"{moment.day} {_MONTHS_FR_SHORT[moment.month - 1]} {moment.year}"
    return f"{moment.day} {MONTHS_EN[moment.month - 1][:3]} {moment.year}"


def _topic(subjects: list[str], speaker: str) -> frozenset[str]:
    """What an item is about, without the speaker's own name."""
    return topic_words(" ".join(subjects)) - topic_words(speaker)


# --------------------------------------------------------------------------- agreement

_LEAD = r"^(?:\W*(?:so|ok|okay|and|then|hey|alright|well|alors|bon|et|du\s+coup|sinon)\b)*\W*"
_AGREE_START = _rx(
    r"^\W*(?:(?:oh|ah|well|alors|bon|hm+)\W+)?(?:yes|yeah|yep|yup|sure|of\s+course|agreed|absolutely|"
    r"definitely|totally|exactly|sounds\s+(?:good|great|perfect|right|like\s+a\s+(?:plan|good\s+idea))|"
    r"(?:great|good|excellent|solid|smart|wise|nice)\s+(?:choice|call|idea|pick|plan|decision)|"
    r"(?:great|excellent|perfect|super|top|génial)(?!\s+(?:question|point))|deal|done|makes\s+sense|"
    r"i\s+agree|let's\s+do\s+(?:it|that|this)|go\s+for\s+it|love\s+it|ok(?:ay)?|alright|all\s+right|oui|"
    r"ouais|d'accord|parfait|ça\s+marche|(?:bonne|excellente|très\s+bonne)\s+idée|"
    r"(?:bon|excellent|très\s+bon)\s+choix|très\s+bien|entendu|validé|carrément|tout\s+à\s+fait|exactement|"
    r"allons-y|c'est\s+parti|je\s+suis\s+d'accord|va\s+pour)(?![\w'])"
)
_AGREE_ANYWHERE = _rx(
    r"\b(?:it\s+is|it's)\s*[.!]|\b(?:good|great|excellent|solid|smart)\s+(?:choice|call|pick|decision)\b|"
    r"\bi\s+agree\b|\bva\s+pour\b|\b(?:bon|excellent)\s+choix\b|\bbonne\s+idée\b|\bje\s+suis\s+d'accord\b"
)
_DISAGREE = _rx(
    r"\b(?:but|however|although|though|instead|rather|not\s+sure|i\s+(?:would|'d)\s+(?:avoid|not|reconsider|"
    r"advise\s+against|recommend\s+against)|i\s+wouldn't|reconsider|careful|risky|mais|cependant|pourtant|"
    r"plutôt|pas\s+sûr|pas\s+sûre|je\s+déconseille|à\s+ta\s+place|à\s+votre\s+place|attention|évite)\b|"
    r"^\W*(?:no|nope|non|not\s+really|actually|en\s+fait)\b"
)


def _agrees(reply_statements: list[str], reply_questions: list[str]) -> bool:
    """Whether the reply opens by agreeing (and does not push back in the same breath)."""
    first = reply_statements[0] if reply_statements else ""
    if not first or (reply_questions and reply_questions[0].startswith(first)):
        return False
    if _DISAGREE.search(first):
        return False
    return bool(_AGREE_START.search(first) or _AGREE_ANYWHERE.search(first))


# --------------------------------------------------------------------------- decisions

_VERBS_EN = r"(?:go\s+with|use|pick|choose|stick\s+with|switch\s+to|adopt|move\s+to|migrate\s+to|go\s+for)"
# Proposals asked as questions, rewritten as the statement the extractor already understands.
_PROPOSALS: list[tuple[re.Pattern[str], str]] = [
    (_rx(_LEAD + rf"(?:should|shall|can|could)\s+we\s+(?P<x>{_VERBS_EN}\s+.+?)\W*$"), "let's {x}"),
    (_rx(_LEAD + rf"why\s+don't\s+we\s+(?P<x>{_VERBS_EN}\s+.+?)\W*$"), "let's {x}"),
    (_rx(_LEAD + r"(?:what|how)\s+about\s+(?:using\s+|going\s+with\s+)?(?P<x>.+?)\W*$"), "let's go with {x}"),
    (
        _rx(
            _LEAD + r"(?:et\s+si\s+on\s+partait\s+sur|si\s+on\s+partait\s+sur|est-ce\s+qu'on\s+part\s+sur|"
            r"on\s+part\s+sur|(?:et\s+)?pourquoi\s+pas)\s+(?P<x>.+?)\W*$"
        ),
        "on part sur {x}",
    ),
    (
        _rx(_LEAD + r"(?:et\s+si\s+on\s+prenait|est-ce\s+qu'on\s+prend|on\s+prend)\s+(?P<x>.+?)\W*$"),
        "on prend {x}",
    ),
    (
        _rx(_LEAD + r"(?:et\s+si\s+on\s+utilisait|est-ce\s+qu'on\s+utilise|on\s+utilise)\s+(?P<x>.+?)\W*$"),
        "on va utiliser {x}",
    ),
]
_VAGUE = frozenset(
    "now then that this it you me us them later soon maintenant ça cela toi vous nous eux plus tard".split()
)


def _proposal_statement(question: str) -> str | None:
    for rx, template in _PROPOSALS:
        m = rx.search(question)
        if not m:
            continue
        x = m.group("x").strip()
        # "what about tomorrow?" proposes a time, not a choice: something must be left once dates go.
        words = topic_words(DATE_PATTERN.sub(" ", x)) - _VAGUE
        if words:
            return template.format(x=x)
    return None


def _stamped(item: Extracted, now: datetime, confidence: float) -> Episode:
    fr = looks_french(item.content)
    return Episode(
        f"{item.content} ({_stamp(now, fr)})",
        MemoryType.DECISION,
        list(item.subjects),
        now.timestamp(),
        round(confidence, 2),
    )


def _decisions(
    user: str,
    user_questions: list[str],
    agreed: bool,
    speaker: str,
    now: datetime,
    base: list[Extracted],
) -> list[Episode]:
    out: list[Episode] = []
    decided = [b for b in base if b.memory_type is MemoryType.DECISION]
    # "we decided to..." is settled whatever the reply says; "let's use X" needs the reply's yes.
    settled = settles_decision(user)
    for item in decided:
        if settled:
            out.append(_stamped(item, now, item.confidence))
        elif agreed:
            out.append(_stamped(item, now, max(item.confidence, _CONF_CONFIRMED)))
    if agreed:
        for question in user_questions:
            statement = _proposal_statement(question)
            if statement is None:
                continue
            for item in extract(statement, speaker, now):
                if item.memory_type is MemoryType.DECISION:
                    out.append(_stamped(item, now, _CONF_CONFIRMED - 0.05))
    return out


# --------------------------------------------------------------------------- dates asked and answered

_WHEN: list[tuple[re.Pattern[str], str]] = [
    (_rx(_LEAD + r"when\s+(?:is|are|'s)\s+(?P<x>.+?)\s+due\W*$"), "{x} is due {date}"),
    (
        _rx(_LEAD + r"what(?:'s|\s+is)\s+the\s+deadline\s+(?:for|of|on)\s+(?P<x>.+?)\W*$"),
        "the deadline for {x} is {date}",
    ),
    (
        _rx(
            _LEAD + r"when\s+(?:do|should|must)\s+(?P<who>i|we)\s+(?:have\s+to\s+|need\s+to\s+)?"
            r"(?P<x>(?:hand\s+in|submit|send|finish|deliver|return|file|pay|renew|turn\s+in|complete)\s+.+?)\W*$"
        ),
        "{who} have to {x} by {date}",
    ),
    (_rx(_LEAD + r"when(?:'s|\s+is|\s+are)\s+(?P<x>.+?)\W*$"), "{x} is on {date}"),
    (
        _rx(
            _LEAD + r"quand\s+(?:est-ce\s+que\s+je\s+dois|dois-je|faut-il|est-ce\s+qu'il\s+faut)\s+"
            r"(?P<x>(?:rendre|envoyer|finir|terminer|livrer|payer|remettre|renouveler)\s+.+?)\W*$"
        ),
        "je dois {x} avant {date}",
    ),
    (
        _rx(
            _LEAD
            + r"quelle\s+est\s+la\s+date\s+limite\s+(?P<prep>pour\s+|de\s+|du\s+|des\s+|d')(?P<x>.+?)\W*$"
        ),
        "la date limite {prep}{x} est {date}",
    ),
    (_rx(_LEAD + r"(?:c'est\s+)?pour\s+quand\s+(?:est\s+)?(?P<x>.+?)\W*$"), "{x} est à rendre pour {date}"),
    (_rx(_LEAD + r"(?:c'est\s+)?quand\s+(?:est\s+|a\s+lieu\s+)?(?P<x>.+?)\W*$"), "{x} est {date}"),
    (_rx(_LEAD + r"(?P<x>.+?)\s+c'est\s+quand\W*$"), "{x} est {date}"),
]
_UNSURE = _rx(
    r"\b(?:don't\s+know|do\s+not\s+know|not\s+sure|no\s+idea|can't\s+(?:find|see|tell)|cannot|"
    r"i\s+don't\s+have|no\s+deadline|je\s+ne\s+sais\s+pas|aucune\s+idée|pas\s+sûre?|je\s+n'ai\s+pas|"
    r"pas\s+de\s+date)\b"
)


def _answer_date(reply_statements: list[str], fr: bool) -> str | None:
    """The date the reply gives first (with its time of day), as written; None if it hedges."""
    for sentence in reply_statements[:3]:
        if _UNSURE.search(sentence):
            return None
        m = DATE_PATTERN.search(sentence)
        if m:
            when = m.group(0)
            t = TIME_PATTERN.search(sentence)
            if t:
                when += f" {'à' if fr else 'at'} {t.group(0)}"
            return when
    return None


def _answers(
    user_questions: list[str], reply_statements: list[str], speaker: str, now: datetime
) -> list[Episode]:
    out: list[Episode] = []
    for question in user_questions[:5]:
        for rx, template in _WHEN:
            m = rx.search(question)
            if not m:
                continue
            fr = looks_french(question)
            when = _answer_date(reply_statements, fr)
            if when is None:
                return out
            # "prep" keeps its own spacing ("pour " but "d'"); the other parts are trimmed.
            parts = {k: (v or "") if k == "prep" else (v or "").strip() for k, v in m.groupdict().items()}
            statement = template.format(date=when, **parts)
            for item in extract(statement, speaker, now):
                if item.memory_type in (MemoryType.TODO, MemoryType.EVENT) and item.event_at is not None:
                    episode = Episode(
                        item.content, item.memory_type, list(item.subjects), item.event_at, _CONF_ANSWER
                    )
                    out.append(episode)
            break
    return out


# --------------------------------------------------------------------------- reminders

_REMIND_REPLY = _rx(
    r"\bi(?:'ll|\s+will|'m\s+going\s+to|\s+am\s+going\s+to|\s+shall)\s+(?:also\s+|definitely\s+|be\s+sure\s+to\s+)?"
    r"remind\s+you\b(?P<rest>.*)"
    r"|\bi(?:'ve|\s+have)?\s+(?:just\s+)?(?:set|added|created|scheduled)\s+(?:up\s+)?(?:a|the|your)\s+reminder\b"
    r"(?P<rest2>.*)"
    r"|\bje\s+(?:te|vous)\s+(?:le\s+|la\s+|les\s+|l')?(?:rappellerai|rappelle)\b(?P<rest3>.*)"
    r"|\bje\s+vais\s+(?:te|vous)\s+(?:le\s+|la\s+|l')?rappeler\b(?P<rest4>.*)"
    r"|\bje\s+(?:t'|vous\s+)ai\s+(?:mis|programmé|ajouté|créé|noté)\s+un\s+rappel\b(?P<rest5>.*)"
)
_REMIND_ASK = _rx(
    r"\bremind\s+me\b(?P<rest>.*)|\brappel(?:le|ez)[- ]moi\b(?P<rest2>.*)"
    r"|\bme\s+(?:le\s+)?rappeler\b(?P<rest3>.*)"
)
_THAT_I = _rx(r"^\s*(?:que\s+|qu')?(?:je\s+|j')?")  # "il faut que je rende X" -> "rende X"
_THING_EN = _rx(r"\b(?:to|about|that|of)\s+(?P<x>.+)")
_THING_FR = _rx(r"(?:\bde\s+|\bd'|\bqu(?:e\s+|')|\bpour\s+)(?P<x>.+)")
_DATE_WITH_PREP = re.compile(
    r"\s*(?:\b(?:on|by|at|before|for|le|avant|pour|dès)\s+)?\x00\d+\x00", re.IGNORECASE
)


def _rest(m: re.Match[str]) -> str:
    return next((v for k, v in m.groupdict().items() if k.startswith("rest") and v is not None), "")


def _thing(rest: str, fr: bool) -> str:
    """What to be reminded of, from the words after "remind you" / "remind me" (dates removed)."""
    m = (_THING_FR if fr else _THING_EN).search(rest)
    if not m:
        return ""
    x = _DATE_WITH_PREP.sub("", m.group("x"))
    return trim_phrase(x.replace("\x00", " "))


def _reminders(
    user_statements: list[str],
    user_questions: list[str],
    reply_statements: list[str],
    speaker: str,
    now: datetime,
) -> list[Episode]:
    for sentence in reply_statements:
        fr = looks_french(sentence)
        work, dates = find_dates(sentence, now, fr, False)
        m = _REMIND_REPLY.search(work)
        # A reminder nobody dated cannot fire; "if you want, I'll remind you" is only an offer.
        if not m or not dates or is_hypothetical(work[: m.start()]):
            continue
        at = dates[0]
        thing = _thing(_rest(m), fr)
        thing = third_person(second_to_first(thing), speaker, fr, named=True) if thing else ""
        if not thing:
            thing = _thing_from_user(user_statements, user_questions, speaker, now)
        if not thing:
            continue
        if fr:
            content = f"Rappel pour {speaker} le {at.bare} : {thing}"
        else:
            content = f"Reminder for {speaker} on {at.bare}: {thing}"
        subjects = pick_subjects(speaker, [], [thing])
        return [Episode(content, MemoryType.TODO, subjects, at.at, _CONF_REMINDER)]
    return []


def _thing_from_user(statements: list[str], questions: list[str], speaker: str, now: datetime) -> str:
    """What the user asked to be reminded of, what they must do, or what they said, in the third person."""
    for asked in (True, False):
        for sentence in [*statements, *questions]:
            fr = looks_french(sentence)
            work, _ = find_dates(sentence, now, fr, False)
            m = (_REMIND_ASK if asked else OBLIGATION).search(work)
            if not m:
                continue
            if asked:
                x = _thing(_rest(m), fr)
            else:
                x = trim_phrase(
                    _DATE_WITH_PREP.sub("", _THAT_I.sub("", work[m.end() :], count=1)).replace("\x00", " ")
                )
            if x:
                return third_person(x, speaker, fr, named=True)
    for sentence in statements:
        if _REMIND_ASK.search(sentence):
            continue  # "remind me on Monday" with nothing to remind of names no task
        fr = looks_french(sentence)
        work, dates = find_dates(sentence, now, fr, False)
        text, _ = expand_dates(third_person(work, speaker, fr), dates)
        text = trim_phrase(text)
        if text and len(text) <= 160:
            return text
    return ""


# --------------------------------------------------------------------------- the reply restating

_NOTED = _rx(
    r"\b(?:noted|got\s+it|i'll\s+remember|i\s+will\s+remember|i'll\s+keep\s+(?:that\s+|it\s+)?in\s+mind|"
    r"good\s+to\s+know|understood|c'est\s+noté|noté|je\s+retiens|je\s+note|je\s+m'en\s+souviendrai|compris|"
    r"entendu|bien\s+reçu|je\s+garde\s+(?:ça\s+|cela\s+)?en\s+tête)\b"
)


def _restated(
    user_words: frozenset[str], reply_statements: list[str], noted: bool, speaker: str, now: datetime
) -> list[Episode]:
    out: list[Episode] = []
    for sentence in reply_statements:
        mine = as_user_words(sentence)
        if mine is None:
            continue
        for item in extract(mine, speaker, now):
            kind = item.memory_type
            if not (_topic(item.subjects, speaker) & user_words):
                continue  # the reply must be talking about what the user brought up
            if kind is MemoryType.PREFERENCE and noted:
                out.append(Episode(item.content, kind, list(item.subjects), None, _CONF_RESTATED))
            elif kind in (MemoryType.TODO, MemoryType.EVENT) and item.event_at is not None:
                out.append(Episode(item.content, kind, list(item.subjects), item.event_at, _CONF_RESTATED))
            elif kind is MemoryType.DECISION:
                out.append(_stamped(item, now, _CONF_RESTATED))
    return out


# --------------------------------------------------------------------------- assembly


def _new_only(episodes: list[Episode], base: list[Extracted], speaker: str) -> list[Episode]:
    """Drop what the user's message alone already yields, and repeats among the episodes."""
    seen = {normalize_text(b.content) for b in base}
    dated = [(b.memory_type, b.event_at, _topic(b.subjects, speaker)) for b in base if b.event_at]
    kept: list[Episode] = []
    for episode in episodes:
        key = normalize_text(episode.content)
        if key in seen or episode.memory_type not in _EPISODE_TYPES:
            continue
        topic = _topic(episode.subjects, speaker)
        if episode.memory_type in (MemoryType.TODO, MemoryType.EVENT) and any(
            kind is episode.memory_type and at == episode.event_at and (words & topic or not topic)
            for kind, at, words in dated
        ):
            continue  # the same deadline on the same day, already extracted from the message
        seen.add(key)
        kept.append(episode)
        dated.append((episode.memory_type, episode.event_at, topic))
    return kept[:_MAX_EPISODES]


def _detect(user_text: str, assistant_text: str, speaker: str, now: datetime | None) -> list[Episode]:
    if not isinstance(user_text, str) or not isinstance(assistant_text, str):
        return []
    if not user_text.strip() or not assistant_text.strip():
        return []
    now = now or datetime.now(UTC)
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    s = clean_speaker(speaker)
    user = clean_text(user_text[:_MAX_INPUT])
    reply = clean_text(assistant_text[:_MAX_INPUT])
    user_statements, user_questions = _split(user)
    reply_statements, reply_questions = _split(reply)
    base = extract(user_text[:_MAX_INPUT], s, now)
    agreed = _agrees(reply_statements, reply_questions)
    episodes = [
        *_decisions(user, user_questions, agreed, s, now, base),
        *_answers(user_questions, reply_statements, s, now),
        *_reminders(user_statements, user_questions, reply_statements, s, now),
        *_restated(topic_words(user), reply_statements, bool(_NOTED.search(reply)), s, now),
    ]
    return _new_only(episodes, base, s)


def detect_episodes(user_text: str, assistant_text: str, speaker: str, now: datetime) -> list[Episode]:
    """Episodes of one exchange: what needs the reply to be known, in the third person, dated.

    The rule: `extract(user_text)` already stores what the user's message says on its own, so
    an episode is only what needs BOTH texts, or the reply:
    - a decision: proposed by the user ("let's go with Postgres", "on part sur Postgres ?") and
      agreed to by the reply, or settled in the message ("we decided to...", "c'est décidé :"),
      stamped with the day it was taken: "... decided to go with Postgres (22 Nov 2026)";
    - a date the user asked for and the reply gave ("when is the report due?" / "Friday.");
    - a reminder the reply commits to ("I'll remind you on Monday") as a dated TODO, about what
      the reply names or else what the user asked or said they must do;
    - what the reply restates about the user's own topic: a deadline or event with its date, a
      preference it says it noted ("Noted, you prefer tea" after "tea for me, please").
    Anything equal to what `extract(user_text)` returns is left out, so "I prefer tea" alone
    gives no episode. Dates are resolved against `now`. Never raises.
    """
    try:
        return _detect(user_text, assistant_text, speaker, now)
    except Exception:  # a heuristic must never break the turn; the reply is already sent
        log_heuristic_failure("episodes")
        return []
