"""Summarizers: the protocol the summary engine calls and an offline extractive implementation."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

# The level a rolling thread summary is asked for. At this level texts[0] is always the summary
# so far ("" when there is none yet) and texts[1:] are the new turns. Levels 1+ are turn
# summaries (1) and condensations of the level below (2+).
THREAD_LEVEL = 0

ELLIPSIS = "…"
# Inputs up to this size are summarized inline: a few milliseconds at most.
_INLINE_CHARS = 20_000
_NEW_TURN_BONUS = 5.0


@runtime_checkable
class Summarizer(Protocol):
    """Turns texts ("Name: text" lines, or earlier summaries) into one summary within a budget."""

    name: str

    async def summarize(self, texts: Sequence[str], *, level: int, budget_chars: int) -> str: ...


def clip(text: str, budget_chars: int) -> str:
    """`text` cut to at most `budget_chars` characters, at a line, sentence or word end when one is near."""
    text = text.strip()
    if budget_chars <= 0:
        return ""
    if len(text) <= budget_chars:
        return text
    room = text[: budget_chars - 1]
    # Prefer whole lines, then whole sentences, then whole words, as long as little is lost.
    for boundary in ("\n", ". ", " "):
        cut = room.rfind(boundary)
        if cut >= budget_chars * 0.6:
            kept = room[: cut + (1 if boundary == ". " else 0)].rstrip()
            return kept if boundary != " " else kept + ELLIPSIS
    return room.rstrip() + ELLIPSIS


# --- extractive scoring ---------------------------------------------------------------------------

# A speaker prefix: a short name that does not start with a digit ("10:30" is a time, not a name).
_SPEAKER = re.compile(r"^\s*([^\d\s:][^:\n]{0,39}?)\s*:\s+(.*)$")
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=\S)")
_WORD = re.compile(r"[\w'’-]+")
_DIGIT = re.compile(r"\d")
_MONTHS = (
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec "
    "janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre décembre"
)
_DAYS = (
    "monday tuesday wednesday thursday friday saturday sunday "
    "lundi mardi mercredi jeudi vendredi samedi dimanche"
)
_RELATIVE = (
    "today tomorrow yesterday tonight weekend noon midnight "
    "aujourd'hui demain hier ce soir week-end midi minuit"
)
_DATE_WORDS = frozenset((_MONTHS + " " + _DAYS + " " + _RELATIVE).split())
_DATE_PHRASES = re.compile(
    r"\b(next|last|this) (week|month|year|morning|evening)\b|\bin \d+ (days?|weeks?|months?)\b"
    r"|\b(semaine|mois|année) (prochaine?|dernière?)\b|\bdans \d+ (jours?|semaines?|mois)\b"
    r"|\b\d{1,2}[/.-]\d{1,2}([/.-]\d{2,4})?\b|\b\d{1,2}(:\d{2}|h\d{0,2}|am|pm)\b",
    re.IGNORECASE,
)
# Words that mark what a conversation settled: decisions, commitments, plans, preferences.
_DECISION = re.compile(
    r"\b(decided?|decision|agreed?|chose|choose|chosen|plan(ned|ning|s)?|deadline|due|must|"
    r"need to|have to|going to|will|we'll|i'll|let's|promised?|booked|scheduled|confirmed|"
    r"prefer(s|red)?|favou?rite|love[sd]?|hate[sd]?|allergic|moving|starts?|starting|remember|"
    r"décidé|décide|décision|on va|je vais|prévu|rendez-vous|préfère|préférée?|adore|déteste|"
    r"doit|dois|faut|échéance|avant le|allergique|promis|réservé|confirmé)\b",
    re.IGNORECASE,
)
_FILLER = frozenset(
    "ok okay k yes yeah yep no nope sure cool great nice thanks thank you thx lol haha hi hello hey bye "
    "merci oui non d'accord super cool salut bonjour ok! ok.".split()
)
# Capitalised words that are not names.
_NOT_NAMES = frozenset(
    "i i'm i've i'll i'd ok okay yes no the a an and but so if it it's this that we you he she they my "
    "je tu il elle on nous vous ils elles le la les un une et mais donc si".split()
)


@dataclass(slots=True)
class _Candidate:
    index: int  # position in reading order
    speaker: str | None
    text: str
    base: float  # what the sentence says, wherever it stands
    score: float  # base plus position bonus: what ranking uses
    words: frozenset[str]


def _split_lines(texts: Sequence[str]) -> list[tuple[int, str | None, str]]:
    """(text index, speaker, sentence) in reading order; an unprefixed line keeps the last speaker."""
    out: list[tuple[int, str | None, str]] = []
    for n, text in enumerate(texts):
        speaker: str | None = None
        for raw_line in text.splitlines():
            line = raw_line.strip()
            if not line:
                continue
            match = _SPEAKER.match(line)
            if match and len(match.group(1).split()) <= 4:
                speaker, line = match.group(1).strip(), match.group(2).strip()
            for sentence in _SENTENCE_END.split(line):
                sentence = " ".join(sentence.split())
                if sentence:
                    out.append((n, speaker, sentence))
    return out


def _score(sentence: str) -> float:
    words = _WORD.findall(sentence)
    lowered = [w.casefold() for w in words]
    score = 0.0
    if _DIGIT.search(sentence):
        score += 2.0
    if _DATE_PHRASES.search(sentence) or any(w in _DATE_WORDS for w in lowered):
        score += 3.0
    if _DECISION.search(sentence):
        score += 3.0
    names = sum(
        1 for w in words[1:] if w[:1].isupper() and w.casefold() not in _NOT_NAMES and not w.isupper()
    )
    score += min(3.0, 1.5 * names)
    score += min(1.5, 0.25 * sum(1 for w in words if len(w) >= 7))
    if len(words) < 4:
        score -= 2.0
    if " ".join(lowered) in _FILLER or all(w in _FILLER for w in lowered):
        score -= 3.0
    if sentence.endswith("?"):
        score -= 1.0  # the answer usually says more than the question
    return score


def _render(chosen: Sequence[_Candidate]) -> str:
    """Chosen sentences in reading order, one line per run of the same speaker."""
    lines: list[str] = []
    current: str | None = None
    parts: list[str] = []
    for cand in sorted(chosen, key=lambda c: c.index):
        if parts and cand.speaker != current:
            lines.append(_line(current, parts))
            parts = []
        current = cand.speaker
        parts.append(cand.text)
    if parts:
        lines.append(_line(current, parts))
    return "\n".join(lines)


def _line(speaker: str | None, parts: Sequence[str]) -> str:
    body = " ".join(parts)
    return f"{speaker}: {body}" if speaker else body


class ExtractiveSummarizer:
    """Offline summaries without a model: the most informative sentences, in reading order.

    Sentences with dates, numbers, names and decision or preference words score highest; later
    texts get a small bonus (for thread summaries the new turns get a large one, so new facts
    displace old ones); small talk and near-duplicates are dropped. Speaker names are kept as
    "Name: ..." lines, so the output can be summarized again at the next level. Deterministic:
    the same input gives the same output.
    """

    name = "extractive"

    def __init__(self, *, dedup_overlap: float = 0.6) -> None:
        self.dedup_overlap = dedup_overlap

    async def summarize(self, texts: Sequence[str], *, level: int, budget_chars: int) -> str:
        if sum(len(t) for t in texts) > _INLINE_CHARS:
            # Scoring is quadratic in the sentences kept; a big input goes off the event loop.
            return await asyncio.to_thread(self.summarize_sync, texts, level=level, budget_chars=budget_chars)
        return self.summarize_sync(texts, level=level, budget_chars=budget_chars)

    def summarize_sync(self, texts: Sequence[str], *, level: int, budget_chars: int) -> str:
        """The summary, computed at once (pure CPU over a few kilobytes)."""
        if budget_chars <= 0:
            return ""
        pieces = _split_lines(texts)
        if not pieces:
            return ""
        last = max(1, len(texts) - 1)
        candidates: list[_Candidate] = []
        for i, (n, speaker, sentence) in enumerate(pieces):
            base = _score(sentence)
            if level == THREAD_LEVEL:
                # A rolling summary must take in what is new: new turns outrank the summary so far
                # unless an old sentence is far more informative.
                bonus = _NEW_TURN_BONUS if n > 0 else 0.0
            else:
                bonus = 0.5 * n / last  # later text tends to hold the outcome
            candidates.append(
                _Candidate(
                    index=i,
                    speaker=speaker,
                    text=sentence,
                    base=base,
                    score=base + bonus,
                    words=frozenset(w.casefold() for w in _WORD.findall(sentence)),
                )
            )
        ranked = sorted(candidates, key=lambda c: (-c.score, -c.index))
        # Greetings and small talk only fill space; they are kept when there is nothing else.
        informative = [c for c in ranked if c.base >= 0.0]
        if informative:
            ranked = informative
        chosen: list[_Candidate] = []
        for cand in ranked:
            if any(self._overlaps(cand, other) for other in chosen):
                continue
            if len(_render([*chosen, cand])) <= budget_chars:
                chosen.append(cand)
        if not chosen:
            # Even the best sentence is longer than the budget: keep its beginning.
            best = ranked[0]
            return clip(_line(best.speaker, [best.text]), budget_chars)
        return _render(chosen)

    def _overlaps(self, a: _Candidate, b: _Candidate) -> bool:
        if not a.words or not b.words:
            return a.text.casefold() == b.text.casefold()
        shared = len(a.words & b.words)
        return shared / len(a.words | b.words) >= self.dedup_overlap or shared == len(a.words)
