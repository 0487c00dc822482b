"""Detect questions about past conversations ("what did we talk about this week?") and their time frame."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

DEFAULT_DAYS = 30
# A meta question is a short message, usually the batch's last: scanning only the tail keeps a
# long paste from costing milliseconds of regex work on the event loop.
MAX_SCAN_CHARS = 4000

# Patterns run on folded text: casefolded, accents stripped, curly quotes straightened,
# whitespace collapsed, so "Résume nos conversations" and "resume nos conversations" match alike.
_CONVERSATION_WORDS = r"conversations?|chats?|discussions?|talks?|exchanges?|sessions?"
_CONVERSATIONS = rf"(?:{_CONVERSATION_WORDS})"
_FR_CONVERSATIONS = r"(?:conversations?|discussions?|echanges?|causeries?)"
_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p)
    for p in (
        # --- English
        r"\bwhat (?:did|have|do) (?:we|you and i|i and you) (?:ever )?"
        r"(?:talk(?:ed)?|chat(?:ted)?|speak|spoken|spoke) about\b",
        r"\bwhat (?:did|have) we (?:discuss(?:ed)?|cover(?:ed)?|go over|gone over|say|said)\b",
        r"\bwhat were we (?:talking|chatting|discussing) about\b",
        r"\bwhat (?:was|were) (?:our|the) (?:last |previous |recent )?" + _CONVERSATIONS + r" about\b",
        r"\b(?:summari[sz]e|recap|sum up|go over|review) (?:all )?(?:of )?(?:our|my|the|what we)"
        r"(?: \w+){0,2}? " + _CONVERSATIONS + r"\b",
        r"\b(?:summary|recap|overview) of (?:our|my|the)(?: \w+){0,2}? " + _CONVERSATIONS + r"\b",
        r"\bwhat (?:have|did) i (?:tell|told|say|said to|mention(?:ed)? to|share[d]? with) you\b",
        r"\bremind me (?:of )?what (?:we|i) (?:said|say|discussed|talked about|told you|covered)\b",
        r"\bwhat do you remember (?:from|of|about) (?:our|us|my) (?:\w+ )?"
        rf"(?:{_CONVERSATION_WORDS}|time together)\b",
        r"\bwhat (?:topics|subjects|things) (?:did|have) we "
        r"(?:discuss(?:ed)?|cover(?:ed)?|talk(?:ed)? about)\b",
        # "do you remember what we talked about", "what have we been talking about"
        r"\bwhat (?:have )?(?:we|you and i) (?:have )?(?:been |were )?"
        r"(?:talk(?:ed|ing)?|chat(?:ted|ting)?|spoke|speaking) about\b",
        r"\bwhat (?:have )?we (?:have )?(?:been )?(?:discuss(?:ed|ing)|cover(?:ed|ing))\b",
        r"\bwhat were we (?:on|going on) about\b",
        r"\bwhat (?:was|has been|got) (?:said|discussed|talked about)\b",
        r"\b(?:catch|fill) me (?:up|in) on (?:what|our|the)\b",
        r"\b(?:a |any |quick )?recap of what (?:we|i|was)\b",
        r"\bwhat do you (?:know|recall) (?:from|of|about) (?:our|us|my) (?:\w+ )?"
        rf"(?:{_CONVERSATION_WORDS})\b",
        # --- French
        r"\bde quoi (?:est-ce qu'on a|est-ce que nous avons|on a|on s'est|avons-nous|nous avons|"
        r"a-t-on|tu et moi avons|on avait|avions-nous) (?:parle|discute|cause|echange)\b",
        r"\b(?:on a|nous avons|avons-nous) (?:parle|discute|cause) de quoi\b",
        r"\bqu'est-ce qu(?:'on|e l'on|e nous) "
        r"(?:s'est dit|a dit|a discute|a raconte|avons dit|s'etait dit)\b",
        r"\bqu'est-ce que je (?:t'ai|vous ai) (?:dit|raconte|confie|explique)\b",
        r"\bque (?:t'ai-je|vous ai-je) (?:dit|raconte|confie)\b",
        r"\b(?:resume|resumer|resumez|recapitule|recapituler|recapitulez)(?:-moi| moi)? "
        r"(?:toutes )?(?:nos|mes|les)(?: \w+){0,2}? " + _FR_CONVERSATIONS + r"\b",
        r"\b(?:un |le )?(?:resume|recap|recapitulatif) de (?:nos|mes|les)(?: \w+){0,2}? "
        + _FR_CONVERSATIONS
        + r"\b",
        r"\brappelle(?:-| )moi (?:ce qu'on|ce que nous|ce que je t'ai|de quoi on|de quoi nous)\b",
        r"\bquels (?:sujets|themes) (?:avons-nous|on a|qu'on a|est-ce qu'on a) "
        r"(?:abordes?|traites?|discutes?)\b",
        # "tu te souviens de ce dont on a parlé ?", "te souviens-tu de notre conversation ?"
        r"\b(?:tu te souviens|te souviens-tu|vous vous souvenez|vous souvenez-vous|tu te rappelles|"
        r"te rappelles-tu|tu te rappelle)(?: de| d')? ?(?:ce dont|de quoi|ce qu'on|ce que (?:nous|je)|"
        r"notre derniere|nos|notre) ?(?:\w+ )?(?:on a|nous avons|je t'ai|parle|dit|discute|"
        + _FR_CONVERSATIONS
        + r")\b",
        r"\bde quoi (?:on|nous) (?:parlait|parlions|discutait|discutions)\b",
        r"\bqu'est-ce qu(?:'on|e nous) (?:s'est|s'etait|nous sommes) (?:raconte|dit|ecrit)\b",
        r"\brappelle(?:-| )moi (?:nos|notre|mes) (?:\w+ )?" + _FR_CONVERSATIONS + r"\b",
    )
)

# Words that, right after the question, turn it into a question about one topic (the search
# already answers those); a timeline would only add noise.
_TOPIC_INTRO = re.compile(
    r"^(?:about|regarding|concerning|on|re|with regards? to|in regards? to|sur|concernant|"
    r"a propos|au sujet|a l'egard)\b"
)
_FILLERS = re.compile(
    r"\b(?:so far|recently|lately|before|earlier|together|again|please|pls|here|in this channel|"
    r"in here|you and me|with you|with me|the other day|ever|exactly|actually|"
    r"jusqu'ici|jusqu'a present|recemment|avant|ensemble|encore|ici|dans ce canal|stp|svp|"
    r"s'il te plait|s'il vous plait|toi et moi|avec toi|avec moi|l'autre jour|deja|exactement)\b"
)
_CLAUSE_END = re.compile(r"[?.!;\n]")

_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "fourteen": 14, "thirty": 30,
    "un": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7, "huit": 8,
    "neuf": 9, "dix": 10, "quinze": 15, "trente": 30,
}  # fmt: skip
_N = r"(\d{1,3}|" + "|".join(_NUMBERS) + r")"

# (pattern, kind); checked in order, the first match wins.
_FRAMES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), kind)
    for p, kind in (
        (rf"\b(?:past|last|previous) {_N} days?\b|\b(?:ces|les) {_N} derniers jours\b"
         rf"|\bdepuis {_N} jours\b", "days"),
        (rf"\b(?:past|last|previous) {_N} weeks?\b|\b(?:ces|les) {_N} dernieres semaines\b", "weeks"),
        (r"\byesterday\b|\bhier\b", "yesterday"),
        (r"\btoday\b|\bthis morning\b|\bthis afternoon\b"
         r"|\baujourd'hui\b|\bce matin\b|\bcet apres-midi\b", "today"),
        (r"\blast week\b|\bprevious week\b|\bla semaine (?:derniere|passee|precedente)\b", "last_week"),
        (r"\bpast week\b|\blast seven days\b|\bces sept derniers jours\b", "past_week"),
        (r"\bthis week\b|\bcette semaine\b", "this_week"),
        (r"\blast month\b|\bprevious month\b|\ble mois (?:dernier|passe|precedent)\b", "last_month"),
        (r"\bpast month\b", "past_month"),
        (r"\bthis month\b|\bce mois(?:-ci| ci)?\b", "this_month"),
        (r"\blast time\b|\bla derniere fois\b|\bthe other day\b|\bl'autre jour\b", "last_time"),
    )
)  # fmt: skip


# Questions about the asker themselves: everything remembered about them answers them.
_ABOUT_SELF = re.compile(
    r"\bwhat (?:do|did|have) you (?:know|remember|recall|learn(?:ed|t)?|note[d]?|store[d]?|keep|kept)"
    r"(?: so far)? (?:about|of|on) (?:me|myself)\b"
    r"|\b(?:tell|show) me (?:everything |all )?(?:what |that )?you (?:know|remember) about me\b"
    r"|\bdo you (?:know|remember) (?:me|anything about me|who i am)\b|\bwho am i\b"
    r"|\b(?:que|qu'est-ce que) (?:sais-tu|tu sais|savez-vous|vous savez|te rappelles-tu|tu te rappelles|"
    r"retiens-tu|tu retiens|sais tu)(?: de| sur| a propos de| au sujet de)? (?:moi|mon sujet)\b"
    r"|\btu sais quoi (?:de|sur) moi\b|\b(?:tu te souviens|te souviens-tu|vous vous souvenez) de moi\b"
    r"|\bqui suis-je\b"
)


def asks_about_self(text: str) -> bool:
    """True when `text` asks what is remembered about the asker ("what do you remember about me?")."""
    return _ABOUT_SELF.search(fold(text[-MAX_SCAN_CHARS:])) is not None


@dataclass(frozen=True, slots=True)
class MetaQuestion:
    """A question about past conversations and the period it asks about: [since, until)."""

    since: float
    until: float
    label: str


def fold(text: str) -> str:
    """Casefolded, accent-free, straight-quoted, single-spaced text that the patterns expect."""
    text = text.replace("’", "'").replace("‘", "'").replace("`", "'")
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.split())


def _number(groups: tuple[str | None, ...]) -> int:
    value = next(g for g in groups if g)
    return int(value) if value.isdigit() else _NUMBERS[value]


def _is_topical(tail: str) -> bool:
    """True when what follows the question names a topic ("what did we say about the budget?")."""
    for pattern, _ in _FRAMES:
        tail = pattern.sub(" ", tail)
    tail = " ".join(_FILLERS.sub(" ", tail).split())
    if not tail:
        return False
    return bool(_TOPIC_INTRO.match(tail)) or len(tail.split()) > 3


def time_frame(text: str, now: float, tz: tzinfo = UTC) -> tuple[float, float, str]:
    """The period a question names as `(since, until, label)`; default the last 30 days.

    Calendar periods ("yesterday", "last week") follow day boundaries in `tz`; weeks start
    on Monday. Rolling ones ("last 3 days") end now.
    """
    folded = fold(text)
    current = datetime.fromtimestamp(now, tz)
    midnight = current.replace(hour=0, minute=0, second=0, microsecond=0)
    monday = midnight - timedelta(days=midnight.weekday())
    first_of_month = midnight.replace(day=1)
    for pattern, kind in _FRAMES:
        match = pattern.search(folded)
        if match is None:
            continue
        if kind == "days":
            n = max(1, min(_number(match.groups()), 366))
            return now - n * 86400.0, now, f"the last {n} day{'s' if n > 1 else ''}"
        if kind == "weeks":
            n = max(1, min(_number(match.groups()), 52))
            return now - n * 7 * 86400.0, now, f"the last {n} week{'s' if n > 1 else ''}"
        if kind == "yesterday":
            return (midnight - timedelta(days=1)).timestamp(), midnight.timestamp(), "yesterday"
        if kind == "today":
            return midnight.timestamp(), now, "today"
        if kind == "last_week":
            return (monday - timedelta(days=7)).timestamp(), monday.timestamp(), "last week"
        if kind == "past_week":
            return now - 7 * 86400.0, now, "the last 7 days"
        if kind == "this_week":
            return monday.timestamp(), now, "this week"
        if kind == "last_month":
            previous = (first_of_month - timedelta(days=1)).replace(day=1)
            return previous.timestamp(), first_of_month.timestamp(), "last month"
        if kind == "past_month":
            return now - 30 * 86400.0, now, "the last 30 days"
        if kind == "this_month":
            return first_of_month.timestamp(), now, "this month"
        if kind == "last_time":
            return now - DEFAULT_DAYS * 86400.0, now, f"last time (the last {DEFAULT_DAYS} days)"
    return now - DEFAULT_DAYS * 86400.0, now, f"the last {DEFAULT_DAYS} days"


def detect_meta_question(text: str, now: float, tz: tzinfo = UTC) -> MetaQuestion | None:
    """A `MetaQuestion` if `text` asks what was said in past conversations, else None."""
    folded = fold(text[-MAX_SCAN_CHARS:])
    for pattern in _PATTERNS:
        for match in pattern.finditer(folded):
            end = _CLAUSE_END.search(folded, match.end())
            stop = end.start() if end else len(folded)
            if _is_topical(folded[match.end() : stop]):
                continue
            # The period is read from the question's own sentence, not from the rest of the batch.
            start = max((m.end() for m in _CLAUSE_END.finditer(folded, 0, match.start())), default=0)
            since, until, label = time_frame(folded[start:stop], now, tz)
            return MetaQuestion(since, until, label)
    return None
