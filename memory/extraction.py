"""Zero-cost heuristic memory extraction (names, preferences, decisions, dates) from English/French chat."""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from datetime import time as dtime

from memory.models import MemoryType

__all__ = ["Extracted", "date_mentions", "extract", "renamed", "resolve_relative_dates"]


@dataclass(frozen=True, slots=True)
class Extracted:
    """One memory guessed from a message, already rewritten in the third person."""

    content: str
    memory_type: MemoryType
    subjects: list[str]
    confidence: float
    expires_at: float | None = None
    event_at: float | None = None
    # Set on the memory that says what the speaker is called ("my name is Mickael"): that name.
    given_name: str | None = None


# Bounds keep the worst case linear and small: chat messages are short, pasted documents are not statements.
_MAX_INPUT = 200_000
_MAX_CLAUSE = 1_000
_MAX_CLAUSES = 2_000
_MAX_RESULTS = 50
_MAX_CONTENT = 500
_MAX_TAIL = 300
_MAX_SUBJECTS = 5
_TODO_GRACE = 7 * 86_400.0  # a deadline stays worth recalling for a week after it passes

_CONF_REQUEST = 0.9
_HEDGE_PENALTY = 0.15


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# --------------------------------------------------------------------------- input cleanup

_SURROGATES = re.compile("[\ud800-\udfff]")
# Control, zero-width and bidi-override characters would leak into stored text and confuse the regexes;
# NUL/SOH are also reserved below as date placeholders, so they must never survive cleanup.
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]"
)
_QUOTES = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "}
)
_BLANKS = re.compile(r"[^\S\n]+")


def _clean_input(text: str) -> str:
    text = _SURROGATES.sub(" ", text[:_MAX_INPUT])
    text = _INVISIBLE.sub(" ", text)
    text = unicodedata.normalize("NFC", text).translate(_QUOTES).replace("\r", "\n")
    # One space per run: later patterns like "\s*,?\s+" would otherwise backtrack over long blank runs.
    return _BLANKS.sub(" ", text)


def _clean_speaker(speaker: object) -> str:
    name = speaker if isinstance(speaker, str) else ""
    name = " ".join(_INVISIBLE.sub(" ", _SURROGATES.sub(" ", name)).split())[:64]
    name = name.lstrip("@").strip()
    return name or "User"


# --------------------------------------------------------------------------- sentences and clauses

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?…])\s+|\n+|;\s*|\s[-–—•]\s")
_BULLET = re.compile(r"^\s*(?:[-*•>]+|\d{1,3}[.)])\s+")
_SUBJECT_AHEAD = (
    r"(?=(?:i|my|we|let's|je|j'|moi|mon|ma|mes|nous|on\s+(?:a|va|part|doit|avait)|c'est\s+décidé|"
    r"remember|don't\s+forget|n'oublie|retiens|souviens)\b)"
)
_CLAUSE_SPLIT = _rx(
    r"\s*(?:,\s*(?:and|but|so|then|also|because|mais|et|donc|puis|car|sinon|alors)?|"
    r"\b(?:and|but|so|then|because|plus|mais|et|donc|puis|car|parce\s+que|alors|sinon)\b)\s+" + _SUBJECT_AHEAD
)
_QUESTION_START = _rx(
    r"^(?:(?:so|and|but|ok|okay|hey|et|alors|bon|mais)[\s,]+)*(?:"
    r"(?:do|does|did|don't|doesn't|didn't|can|could|would|will|shall|should|is|are|am|was|were|have|has|"
    r"haven't|isn't|aren't)\s+(?:you|i|we|he|she|they|it|u|there)\b|"
    r"(?:what|what's|who|who's|whom|whose|which|where|where's|why|how|how's)\b|"
    r"est-ce\b|qu'est-ce\b|(?:quel|quelle|quels|quelles|qui|quoi|où|pourquoi|comment|combien)\b|"
    r"(?:as|es|est|avez|sais|savez|connais|connaissez|peux|pouvez|aimes|aimez)-(?:tu|vous|il|elle|je)\b)"
)
_POLITE_REQUEST = _rx(
    r"^(?:\W*(?:hey|hi|ok|okay|so|please)\W+)*(?:can|could|would|will)\s+you\s+(?:please\s+)?"
    r"(?:remember|note|keep\s+in\s+mind|not\s+forget|memori[sz]e|save)|"
    r"^(?:tu\s+peux|peux-tu|pourrais-tu|tu\s+pourrais|vous\s+pouvez|pouvez-vous|pourriez-vous)\s+"
    r"(?:bien\s+)?(?:retenir|noter|te\s+souvenir|vous\s+souvenir|mémoriser|garder)"
)
_HYPOTHETICAL = _rx(
    r"\b(?:if|unless|suppose|supposing|imagine|imagining|assuming|whether|pretend|hypothetically|"
    r"si|s'il|imaginons|supposons|admettons|au\s+cas\s+où)\b"
)
_REPORTED = _rx(
    r"\b(?:he|she|they|someone|somebody|il|elle|ils|elles|quelqu'un)\s+"
    r"(?:said|says|say|thinks|think|thought|told|tells|claims|claimed|wrote|dit|disait|pense|croit|a\s+dit)\b|"
    r"\b(?:according\s+to|selon)\b"
)
_HEDGE = _rx(
    r"\b(?:maybe|perhaps|probably|i\s+think|i\s+guess|i\s+suppose|not\s+sure|might|peut-être|"
    r"je\s+pense|je\s+crois|sans\s+doute|probablement)\b"
)
_LEADING_FILLER = _rx(
    r"^(?:(?:ok|okay|so|btw|oh|hey|hi|hello|well|also|and|but|anyway|alright|"
    r"alors|bon|du\s+coup|au\s+fait|sinon|et|mais|donc|bref|ah|euh|hmm)\b[\s,!.:]*)+"
)


@dataclass(slots=True)
class _When:
    inline: str  # replaces the date expression inside a rewritten sentence
    bare: str  # the absolute date alone, for templates such as "Deadline for X: <bare>"
    at: float  # epoch seconds
    day: date | None = None  # the day meant, or the first day of the period meant
    unit: str = "day"  # day, week, weekend, month or year


@dataclass(slots=True)
class _Clause:
    text: str  # one clause, whitespace collapsed, dates replaced by \x00n\x00 placeholders
    raw: str  # the same clause before date substitution
    before: str  # the sentence text before this clause (for hypothetical / reported-speech checks)
    fr: bool
    past: bool
    dates: list[_When] = field(default_factory=list)


@dataclass(slots=True)
class _Item:
    content: str  # may still hold date placeholders
    memory_type: MemoryType
    confidence: float
    keys: list[str]  # phrases the subjects are drawn from
    tags: list[str] = field(default_factory=list)  # subjects to put first (names)
    given_name: str | None = None  # the speaker's own name, when this item states it


def _sentences(text: str) -> list[tuple[str, bool]]:
    """Sentences with a flag saying whether they are questions (which are never learned from)."""
    out: list[tuple[str, bool]] = []
    for piece in _SENTENCE_SPLIT.split(text):
        sentence = _BULLET.sub("", piece).strip()
        if not sentence or not any(ch.isalpha() for ch in sentence[:_MAX_CLAUSE]):
            continue
        stripped = sentence.rstrip(" )\"'*_~")
        if stripped.endswith("?") or stripped.endswith("?!"):
            # "I love pizza, do you?": only the short tail after the last comma is the question.
            head, sep, tail = stripped.rpartition(",")
            if sep and len(tail.split()) <= 6 and not _QUESTION_START.search(head.strip()):
                out.append((head, False))
            out.append((sentence, True))
            continue
        out.append((sentence, bool(_QUESTION_START.search(sentence))))
    return out


def _clauses(sentence: str) -> list[tuple[str, str]]:
    """(clause, sentence text before it): split before each new first-person subject."""
    parts: list[tuple[str, str]] = []
    pos = 0
    for m in _CLAUSE_SPLIT.finditer(sentence):
        parts.append((sentence[pos : m.start()], sentence[:pos]))
        pos = m.end()
    parts.append((sentence[pos:], sentence[:pos]))
    return [(" ".join(c.split()), b) for c, b in parts if c.strip()]


# --------------------------------------------------------------------------- language

_FR_WORDS = _rx(
    r"\b(?:je|j'|tu|il|elle|nous|vous|ils|le|la|les|un|une|des|du|de|et|est|suis|sont|pour|avant|dans|avec|"
    r"que|qui|pas|mon|ma|mes|c'est|au|aux|demain|aujourd'hui|hier|lundi|mardi|mercredi|jeudi|vendredi|"
    r"samedi|dimanche|janvier|février|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre|"
    r"on|ai|a|ça|très|bien|aussi|mais|ou|sur|chez|moi|m'|n'|l'|d'|qu')(?![\w])"
)
_EN_WORDS = _rx(
    r"\b(?:i|i'm|i've|i'll|you|he|she|we|they|the|an|and|is|am|are|was|for|by|before|in|with|that|who|not|"
    r"my|it's|tomorrow|today|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|"
    r"february|march|april|may|june|july|august|september|october|november|december|to|of|on|it|me|have|"
    r"do|don't|be|this|next|our|us|at|from|like|love)\b"
)


def _looks_french(text: str) -> bool:
    fr = len(_FR_WORDS.findall(text)) + sum(ch in "éèêàùçâîôœ" for ch in text)
    return fr > len(_EN_WORDS.findall(text))


# --------------------------------------------------------------------------- dates

_WD_EN = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WD_FR = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]
_MONTHS_EN = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
]  # fmt: skip
_MONTHS_FR = [
    "janvier", "février", "mars", "avril", "mai", "juin",
    "juillet", "août", "septembre", "octobre", "novembre", "décembre",
]  # fmt: skip
_MONTH_NUM: dict[str, int] = {
    **{m.lower(): i + 1 for i, m in enumerate(_MONTHS_EN)},
    **{m: i + 1 for i, m in enumerate(_MONTHS_FR)},
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
    "oct": 10, "nov": 11, "dec": 12, "janv": 1, "fevrier": 2, "févr": 2, "fevr": 2, "avr": 4,
    "juil": 7, "aout": 8, "decembre": 12, "déc": 12,
}  # fmt: skip
_MONTHS_EN_KEYS = [k for k in _MONTH_NUM if k.isascii() and k not in {"mars", "avril", "mai", "juin"}]
_NUM_WORDS = {
    "a": 1, "an": 1, "one": 1, "un": 1, "une": 1, "two": 2, "deux": 2, "three": 3, "trois": 3,
    "four": 4, "quatre": 4, "five": 5, "cinq": 5, "six": 6, "seven": 7, "sept": 7, "eight": 8,
    "huit": 8, "nine": 9, "neuf": 9, "ten": 10, "dix": 10, "quinze": 15,
}  # fmt: skip


def _alt(words: list[str] | dict[str, int]) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


_WD_ALT = _alt(_WD_EN + _WD_FR)
_MONTH_ALT = _alt(_MONTH_NUM)
_REL_DAYS = {
    "the day after tomorrow": 2, "après-demain": 2, "après demain": 2, "apres-demain": 2,
    "apres demain": 2, "the day before yesterday": -2, "avant-hier": -2, "avant hier": -2,
    "tomorrow": 1, "tmrw": 1, "tmr": 1, "demain": 1, "today": 0, "tonight": 0, "this morning": 0,
    "this afternoon": 0, "this evening": 0, "aujourd'hui": 0, "ce soir": 0, "ce matin": 0,
    "cet après-midi": 0, "cet apres-midi": 0, "yesterday": -1, "hier": -1,
}  # fmt: skip
_REL_DAYS.update({"last night": -1, "hier soir": -1})  # fmt: skip
_REL_ALT = "|".join(sorted((re.escape(k).replace(r"\ ", r"\s+") for k in _REL_DAYS), key=len, reverse=True))
_FULL_MONTHS = _alt([m.lower() for m in _MONTHS_EN] + _MONTHS_FR + ["fevrier", "aout", "decembre"])
_QTY = rf"\d{{1,3}}|{_alt(_NUM_WORDS)}|a\s+couple\s+of|a\s+few|quelques"
# Periods named from now: "last week", "next month", "this year", "la semaine dernière", "ce mois-ci".
_PERIOD_EN = r"(?:week-?end|week|month|year)"
_PERIOD_FR = r"(?:semaine|mois|année|annee|an|week-?end)"
_NEXT_FR = r"prochaine?|suivante?"
_LAST_FR = r"dernière|derniere|dernier|passée|passee|passé|passe|précédente?|precedente?"
_DATE_RX = _rx(
    r"\b(?:"
    r"(?P<iso>(?P<iy>\d{4})-(?P<im>\d{1,2})-(?P<id>\d{1,2}))"
    r"|(?P<num>(?P<na>\d{1,2})/(?P<nb>\d{1,2})/(?P<ny>\d{4}|\d{2}))"
    rf"|(?P<dm>(?:(?P<dmw>{_WD_ALT}),?\s+)?(?:the\s+)?(?P<dmd>\d{{1,2}})(?:st|nd|rd|th|er|ère|e)?\s+"
    rf"(?:of\s+)?(?P<dmm>{_MONTH_ALT})\.?(?:,?\s+(?P<dmy>\d{{4}}))?)"
    rf"|(?P<md>(?:(?P<mdw>{_alt(_WD_EN)}),?\s+)?(?P<mdm>{_alt(_MONTHS_EN_KEYS)})\.?\s+(?:the\s+)?"
    r"(?P<mdd>\d{1,2})(?:st|nd|rd|th)?(?!\d)(?:,?\s+(?P<mdy>\d{4}))?)"
    rf"|(?P<rel>{_REL_ALT})"
    rf"|(?P<inn>(?:in|dans)\s+(?P<inq>{_QTY})\s+(?P<inu>days?|weeks?|fortnights?|months?|years?|jours?|semaines?|mois|ans?|années?))"
    r"|(?P<weeks2>(?:the\s+)?week\s+after\s+next|dans\s+deux\s+semaines\s+pile)"
    rf"|(?P<ago>(?P<agq>{_QTY})\s+(?P<agu>days?|weeks?|months?|years?)\s+ago"
    rf"|il\s+y\s+a\s+(?P<iyq>{_QTY})\s+(?P<iyu>jours?|semaines?|mois|ans|années?))"
    rf"|(?P<pen>(?P<penm>last|next|this|coming|past|previous)\s+(?P<penu>{_PERIOD_EN}))"
    rf"|(?P<pfr>(?:ce|cet|cette)\s+(?P<pfdu>{_PERIOD_FR})(?:-ci|-là)?"
    rf"|(?:la|le|l')\s*(?P<pfu>{_PERIOD_FR})\s+(?P<pfm>{_NEXT_FR}|{_LAST_FR}))"
    rf"|(?P<mon>(?:(?P<monm>next|last|this|coming)\s+|(?P<monp>in|en|au\s+mois\s+de|during|pendant)\s+)"
    rf"(?P<monn>{_FULL_MONTHS})(?:\s+(?P<mony>\d{{4}}))?(?:\s+(?P<monf>{_NEXT_FR}|{_LAST_FR}))?"
    rf"|(?P<monb>{_FULL_MONTHS})\s+(?P<monbf>{_NEXT_FR}|{_LAST_FR}))"
    r"|(?P<eo>(?:at\s+)?(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?P<eou>week|month)"
    r"|(?:à\s+la\s+|en\s+|la\s+)?fin\s+(?P<eof>de\s+(?:la\s+)?semaine|du\s+mois))"
    rf"|(?P<wd>(?:(?P<wdm>next|this|coming|last|ce)\s+)?(?P<wdn>{_WD_ALT})(?:\s+(?P<wdf>prochain|dernier))?)"
    r")(?![\w'])"
)
_HABITUAL = _rx(r"\b(?:le|les|every|each|chaque|tous\s+les)\s+$")
_PREP_BEFORE = _rx(
    r"(?:\b(?:by|before|until|till|til|for|on|from|after|since|due|is|was|are|be|pour|avant|d'ici|jusqu'à|"
    r"jusqu'au|dès|après|depuis|est|sera|le)|'s|:|,)\s*$"
)
# Words that already introduce a period: "since last week", "during the month", "until next year".
_PERIOD_PREP_BEFORE = _rx(
    r"\b(?:in|during|since|until|till|by|over|throughout|to|for|from|after|before|around|of|at|on|"
    r"en|depuis|pendant|durant|dans|jusqu'en|jusqu'à|pour|avant|après|vers|à|au|de|du|dès)\s*$"
)
# A clause told in the past makes "Friday" / "3 June" mean the last one, not the next one.
_PAST = _rx(
    r"\b(?:ago|yesterday|hier|il\s+y\s+a|dernier|dernière|last\s+(?:week|night|year|month|time|weekend|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b"
    r"|\b(?:i|we)\s+(?:just\s+|already\s+|finally\s+)?(?:was|were|did|had|got|went|came|broke|lost|won|"
    r"passed|failed|moved|bought|sold|met|left|graduated|married|started|finished|"
    r"(?!need|feed|proceed|succeed|exceed|bleed|breed|speed|heed|embed|shed|wed|seed)\w+ed)\b"
    r"|\bj'ai\s+(?:déjà\s+|enfin\s+|bien\s+|finalement\s+|récemment\s+)?"
    r"(?!lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|aussi|ici|demain|aujourd)"
    r"\w+(?:é|ée|és|ées|i|is|ie|u|ue|us|it|ert|int)\b"
    r"|\b(?:je|nous|on)\s+(?:me\s+|nous\s+)?(?:suis|sommes|est)\s+\w+ée?s?\b|\bje\s+m'\w+\s+\w+é"
)
_TIME_RX = _rx(
    r"\b(?:(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.)(?!\w)"
    r"|(?P<h2>\d{1,2}):(?P<m2>\d{2})(?!\d)"
    r"|(?P<h3>\d{1,2})\s?h\s?(?P<m3>\d{2})?(?!\w))"
)


def _fmt(d: date, fr: bool, t: dtime | None = None) -> str:
    if fr:
        day = "1er" if d.day == 1 else str(d.day)
        text = f"{_WD_FR[d.weekday()]} {day} {_MONTHS_FR[d.month - 1]} {d.year}"
        return text + (f" à {t.hour}h{t.minute:02d}" if t else "")
    text = f"{_WD_EN[d.weekday()].capitalize()} {d.day} {_MONTHS_EN[d.month - 1]} {d.year}"
    return text + (f" at {t.hour:02d}:{t.minute:02d}" if t else "")


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _near(today: date, month: int, day: int, past: bool) -> date | None:
    """The closest matching day on or after today (or on or before it, for clauses in the past tense)."""
    step = -1 if past else 1
    for k in range(9):  # 29 February may be up to 8 years away
        d = _safe_date(today.year + step * k, month, day)
        if d is not None and (d <= today if past else d >= today):
            return d
    return None


def _add_months(d: date, n: int) -> date:
    y, m = divmod(d.month - 1 + n, 12)
    year, month = d.year + y, m + 1
    return date(year, month, min(d.day, calendar.monthrange(year, month)[1]))


_NEXT_WORDS = frozenset({"next", "coming", "prochain", "prochaine", "suivant", "suivante"})
_LAST_WORDS = frozenset(
    {"last", "past", "previous", "dernier", "dernière", "derniere", "passé", "passe", "passée", "passee",
     "précédent", "precedent", "précédente", "precedente"}
)  # fmt: skip


def _quantity(word: str, unit: str = "") -> int:
    word = " ".join(word.lower().split())
    if word.isdigit():
        return int(word)
    if word == "quinze" and unit.lower().startswith("jour"):
        return 14  # "quinze jours" is a fortnight
    if word in ("a couple of",):
        return 2
    if word in ("a few", "quelques"):
        return 3
    return _NUM_WORDS[word]


def _unit_of(word: str) -> str:
    """day, week, weekend, month or year, from an English or French unit word."""
    word = word.lower()
    if word.startswith(("week-end", "weekend")):
        return "weekend"
    if word.startswith(("day", "jour")):
        return "day"
    if word.startswith(("week", "semaine")):
        return "week"
    if word.startswith(("month", "mois")):
        return "month"
    return "year"


def _period_start(d: date, unit: str) -> date:
    """The first day of the week (Monday), weekend (Saturday), month or year holding `d`."""
    if unit == "week":
        return d - timedelta(days=d.weekday())
    if unit == "weekend":
        return d + timedelta(days=5 - d.weekday()) if d.weekday() < 5 else d - timedelta(days=d.weekday() - 5)
    if unit == "month":
        return d.replace(day=1)
    if unit == "year":
        return d.replace(month=1, day=1)
    return d


def _shift(today: date, unit: str, n: int) -> date:
    """The start of the period `n` periods away from the one holding today (negative: earlier)."""
    if unit in ("week", "weekend"):
        return _period_start(today, unit) + timedelta(days=7 * n)
    if unit == "month":
        return _add_months(today.replace(day=1), n)
    if unit == "year":
        return date(today.year + n, 1, 1)
    return today + timedelta(days=n)


def _month_from(today: date, month: int, direction: int, past: bool) -> date:
    """The first day of the named month: the next (or last) one, else the nearest in the tense's direction.

    "next September" said in September is a year away; "this September" is this year's.
    """
    if direction > 0:
        year = today.year if month > today.month else today.year + 1
    elif direction < 0:
        year = today.year if month < today.month else today.year - 1
    elif past:
        year = today.year if month <= today.month else today.year - 1
    else:
        year = today.year if month >= today.month else today.year + 1
    return date(year, month, 1)


def _resolve(m: re.Match[str], today: date, past: bool) -> tuple[date, str, str] | None:
    """(date, kind, unit) for one date expression: the day (or the start of the week, weekend,
    month or year it names), how it is written inline, and how precise it is."""
    g = m.group
    if g("iso"):
        d = _safe_date(int(g("iy")), int(g("im")), int(g("id")))
        return (d, "abs", "day") if d else None
    if g("num"):
        a, b, y = int(g("na")), int(g("nb")), int(g("ny"))
        y = y + 2000 if y < 100 else y
        # Day first (European usage) unless only month-first can be valid.
        day, month = (b, a) if b > 12 >= a else (a, b)
        d = _safe_date(y, month, day)
        return (d, "abs", "day") if d else None
    if g("dm") or g("md"):
        day = int(g("dmd") or g("mdd"))
        month = _MONTH_NUM[(g("dmm") or g("mdm")).lower().rstrip(".")]
        year = g("dmy") or g("mdy")
        d = _safe_date(int(year), month, day) if year else _near(today, month, day, past)
        return (d, "abs", "day") if d else None
    if g("rel"):
        key = " ".join(g("rel").lower().split())
        return today + timedelta(days=_REL_DAYS[key]), "rel", "day"
    if g("weeks2"):
        return _shift(today, "week", 2), "period", "week"
    if g("inn"):
        n, unit = _quantity(g("inq"), g("inu")), _unit_of(g("inu"))
        if g("inu").lower().startswith("fortnight"):
            n, unit = 2 * n, "week"
        if unit == "month":
            return _add_months(today, n), "rel", "day"
        if unit == "year":
            return date(today.year + n, 1, 1), "period", "year"
        return today + timedelta(days=n * (7 if unit == "week" else 1)), "rel", "day"
    if g("ago"):
        n = _quantity(g("agq") or g("iyq"), g("agu") or g("iyu"))
        unit = _unit_of(g("agu") or g("iyu"))
        if unit == "day":
            return today - timedelta(days=n), "rel", "day"
        if unit == "week":
            return _period_start(today - timedelta(days=7 * n), "week"), "period", "week"
        return _shift(today, unit, -n), "period", unit
    if g("pen") or g("pfr"):
        unit = _unit_of(g("penu") or g("pfdu") or g("pfu"))
        word = (g("penm") or g("pfm") or "this").lower()
        n = 1 if word in _NEXT_WORDS else -1 if word in _LAST_WORDS else 0
        return _shift(today, unit, n), "period", unit
    if g("mon") or g("monb"):
        month = _MONTH_NUM[(g("monn") or g("monb")).lower()]
        if g("mony"):
            return date(int(g("mony")), month, 1), "period", "month"
        word = (g("monm") or g("monf") or g("monbf") or "").lower()
        direction = 1 if word in _NEXT_WORDS else -1 if word in _LAST_WORDS else 0
        if word == "this":
            return date(today.year, month, 1), "period", "month"
        return _month_from(today, month, direction, past), "period", "month"
    if g("eo"):
        if (g("eou") or "").lower() == "week" or "semaine" in (g("eof") or "").lower():
            return today + timedelta(days=(4 - today.weekday()) % 7), "rel", "day"
        return date(today.year, today.month, calendar.monthrange(today.year, today.month)[1]), "rel", "day"
    if g("wdn"):
        name = g("wdn").lower()
        wd = _WD_EN.index(name) if name in _WD_EN else _WD_FR.index(name)
        mod = (g("wdm") or g("wdf") or "").lower()
        if mod in ("last", "dernier") or (not mod and past):
            return today - timedelta(days=(today.weekday() - wd - 1) % 7 + 1), "wd", "day"
        if mod in ("next", "prochain"):
            # "next Friday" is the Friday of next week (which, on a Sunday, is also the coming one).
            return today + timedelta(days=7 - today.weekday() + wd), "wd", "day"
        if mod in ("this", "coming", "ce"):
            return today + timedelta(days=(wd - today.weekday()) % 7), "wd", "day"
        return today + timedelta(days=(wd - today.weekday() - 1) % 7 + 1), "wd", "day"
    return None


def _fmt_period(d: date, unit: str, fr: bool) -> str:
    """A week, weekend, month or year, written out: "the week of Monday 16 November 2026"."""
    if unit == "week":
        return f"la semaine du {_fmt(d, fr)}" if fr else f"the week of {_fmt(d, fr)}"
    if unit == "weekend":
        return f"le week-end du {_fmt(d, fr)}" if fr else f"the weekend of {_fmt(d, fr)}"
    if unit == "month":
        return f"{_MONTHS_FR[d.month - 1]} {d.year}" if fr else f"{_MONTHS_EN[d.month - 1]} {d.year}"
    return str(d.year)


# How a period reads where no preposition introduces it: "skiing in the week of…", "en septembre 2027".
_PERIOD_PREP_EN = {"week": "in ", "weekend": "on ", "month": "in ", "year": "in "}
_PERIOD_PREP_FR = {"week": "", "weekend": "", "month": "en ", "year": "en "}


def _parse_time(text: str) -> dtime | None:
    for m in _TIME_RX.finditer(text):
        if m.group("h") is not None:
            h, mi = int(m.group("h")), int(m.group("m") or 0)
            ap = m.group("ap").lower()
            if not 1 <= h <= 12:
                continue
            h = h % 12 + (12 if ap.startswith("p") else 0)
        elif m.group("h2") is not None:
            h, mi = int(m.group("h2")), int(m.group("m2"))
        else:
            h, mi = int(m.group("h3")), int(m.group("m3") or 0)
        if h <= 23 and mi <= 59:
            return dtime(h, mi)
    return None


def _dates(
    clause: str, now: datetime, fr: bool, past: bool, relative_only: bool = False
) -> tuple[str, list[_When]]:
    """Replace each date expression by a \\x00n\\x00 placeholder and resolve it against `now`.

    With `relative_only`, dates written out already ("10 January", "2027-01-05") are left as said.
    """
    today = now.date()
    found: list[_When] = []
    out: list[str] = []
    pos = 0
    t: dtime | None = None
    time_parsed = False
    for m in _DATE_RX.finditer(clause):
        before = clause[: m.start()]
        if m.group("wdn") and not (m.group("wdm") or m.group("wdf")) and _HABITUAL.search(before):
            continue  # "le lundi" / "every Monday" is a habit, not a date
        resolved = _resolve(m, today, past)
        if resolved is None:
            continue
        d, kind, unit = resolved
        if relative_only and kind == "abs":
            continue
        if kind == "period":
            bare = _fmt_period(d, unit, fr)
            said = m.group("monp")  # "in September" keeps its own "in"
            lead = _PERIOD_PREP_BEFORE.search(before)
            if said:
                inline = f"{' '.join(said.split())} {bare}"
            else:
                inline = bare if lead else (_PERIOD_PREP_FR if fr else _PERIOD_PREP_EN)[unit] + bare
            at = datetime.combine(d, dtime(0, 0), tzinfo=now.tzinfo).timestamp()
            out.append(clause[pos : m.start()])
            out.append(f"\x00{len(found)}\x00")
            found.append(_When(inline, bare, at, d, unit))
            pos = m.end()
            continue
        if not time_parsed:
            t, time_parsed = _parse_time(clause), True
        bare = _fmt(d, fr, t)
        plain = _fmt(d, fr)
        if kind in ("rel", "wd") and not _PREP_BEFORE.search(before):
            explicit = kind == "rel" or m.group("wdm") or m.group("wdf")
            inline = (("le " if fr else "on ") + plain) if explicit else plain
        else:
            inline = plain
        at = datetime.combine(d, t or dtime(0, 0), tzinfo=now.tzinfo).timestamp()
        out.append(clause[pos : m.start()])
        out.append(f"\x00{len(found)}\x00")
        found.append(_When(inline, bare, at, d, unit))
        pos = m.end()
    out.append(clause[pos:])
    return "".join(out), found


_PLACEHOLDER = re.compile("\x00(\\d+)\x00|\x01(\\d+)\x01")
_STRAY = re.compile("[\x00\x01]")


def _expand(text: str, dates: list[_When]) -> tuple[str, float | None]:
    """Put the absolute dates back into `text`; also return the first date's timestamp."""
    first: list[float] = []

    def repl(m: re.Match[str]) -> str:
        n = int(m.group(1) or m.group(2))
        if n >= len(dates):
            return ""
        first.append(dates[n].at)
        return dates[n].inline if m.group(1) else dates[n].bare

    out = _STRAY.sub("", _PLACEHOLDER.sub(repl, text))
    return out, (first[0] if first else None)


def _bare(n: str) -> str:
    return f"\x01{n}\x01"


# --------------------------------------------------------------------------- rewriting first person

_EN_ADV_WORDS = (
    r"really|truly|also|just|still|totally|absolutely|definitely|honestly|actually|genuinely|always|never|"
    r"usually|often|sometimes|generally|personally|secretly|recently|finally|already|now|currently|mostly|"
    r"only|even|too|kinda|kind\s+of|sort\s+of|officially|seriously|eventually"
)
_EN_PRON = _rx(
    r"\b(?:(?P<ic>i)(?P<contr>'m|'ve|'ll|'d)"
    rf"|(?P<i>i)(?P<adv>(?:\s+(?:{_EN_ADV_WORDS}))*)(?:\s+(?P<verb>[^\W\d_]+(?:n't)?))?"
    r"|(?P<my>my)|(?P<mine>mine)|(?P<myself>myself)|(?P<me>me)"
    r"|(?P<we>we)(?P<wec>'re|'ve|'ll|'d)?|(?P<our>our)|(?P<ours>ours)|(?P<us>us)|(?P<ourselves>ourselves))"
    r"(?![\w'])"
)
_EN_CONTR = {"'m": "is", "'ve": "has", "'ll": "will", "'d": "would"}
_WE_CONTR = {"'re": "are", "'ve": "have", "'ll": "will", "'d": "would"}
_EN_VERB_MAP = {
    "am": "is", "have": "has", "do": "does", "don't": "doesn't", "haven't": "hasn't", "aren't": "isn't",
    "ain't": "isn't", "go": "goes", "wanna": "wants to", "gotta": "has to",
}  # fmt: skip
_EN_KEEP = frozenset(
    """
    can could will would shall should may might must ought cannot can't won't wouldn't couldn't shouldn't
    mustn't didn't wasn't weren't was were had did went got made said took came saw knew thought told found
    gave left felt brought bought began broke built caught chose drew drank drove ate fell fought flew forgot
    froze grew hung heard hid held hurt kept laid led lent lost meant met paid put quit ran rang rode rose
    sang sank sat sent set shook shot shut slept sold spoke spent stood stole stuck struck swam swore taught
    tore threw understood woke won wore wrote read cut let beat became forgave sought fed bent bet bit blew
    dug dealt fled knelt leapt learnt lit sped split spread sprang stung swept swung wept wound withdrew
    overcame undertook gotten been done seen taken given written broken eaten fallen forgotten known shown
    spoken stolen thrown worn begun become drunk run sung and or but too as then so both alone who that
    which myself personally
    """.split()
)
_ED_BASE = frozenset("need feed proceed succeed exceed bleed breed speed heed embed shed wed seed".split())
_FR_PRON = _rx(
    r"\b(?:je\s+(?P<refl>me\s+|m')(?P<rv>[^\W\d_][\w-]*)"
    r"|je\s+(?P<obj>(?:ne\s+|n'|l'|le\s+|la\s+|les\s+|lui\s+|leur\s+|te\s+|t'|vous\s+|y\s+|en\s+)+)"
    r"(?P<ov>[^\W\d_][\w-]*)"
    r"|j'(?P<clit>(?:y|en)\s+)?(?P<jv>[^\W\d_][\w-]*)"
    r"|je\s+(?P<v>[^\W\d_][\w-]*)"
    r"|(?P<moi>moi)(?:-même)?"
    r"|(?P<poss>mon|ma|mes)\s+(?P<noun>[^\W\d_][\w-]*))(?![\w])"
)
_FR_VERB_MAP = {
    "suis": "est", "ai": "a", "vais": "va", "fais": "fait", "peux": "peut", "veux": "veut", "dois": "doit",
    "sais": "sait", "vaux": "vaut", "connais": "connaît", "reconnais": "reconnaît", "parais": "paraît",
    "apparais": "apparaît", "vaincs": "vainc",
}  # fmt: skip
_VOWELS = "aeiouyàâäéèêëîïôöùûüœæ"


def _poss_en(s: str) -> str:
    return f"{s}'s"


def _de(s: str) -> str:
    return f"d'{s}" if s[:1].lower() in _VOWELS else f"de {s}"


def _conj_en(verb: str) -> str:
    low = verb.lower()
    if low in _EN_VERB_MAP:
        return _EN_VERB_MAP[low]
    if low in _EN_KEEP or (low.endswith("ed") and low not in _ED_BASE) or low.endswith("n't") or len(low) < 2:
        return verb
    if low.endswith("y") and low[-2] not in _VOWELS:
        return verb[:-1] + "ies"
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    return verb + "s"


def _conj_fr(verb: str) -> str:
    low = verb.lower()
    if low in _FR_VERB_MAP:
        return _FR_VERB_MAP[low]
    if low.endswith(("ds", "ts")):
        return verb[:-1]
    if low.endswith("x"):
        return verb[:-1] + "t"
    if low.endswith("s") and not low.endswith("ss") and len(low) > 2:
        return verb[:-1] + "t"
    return verb


def _rewrite_en(text: str, s: str, named: bool = False) -> str:
    """First person to third: I -> <s>, my -> <s>'s (then "their" once <s> is named), we -> <s> and team."""
    state = [named]

    def repl(m: re.Match[str]) -> str:
        g = m.group
        if g("ic"):
            state[0] = True
            return f"{s} {_EN_CONTR[g('contr').lower()]}"
        if g("i"):
            state[0] = True
            out = s + (g("adv") or "")
            return out + (f" {_conj_en(g('verb'))}" if g("verb") else "")
        if g("my") or g("mine"):
            word = "their" if state[0] and g("my") else _poss_en(s)
            state[0] = True
            return word
        if g("myself"):
            word = "themselves" if state[0] else s
            state[0] = True
            return word
        if g("me"):
            state[0] = True
            return s
        if g("we"):
            contr = g("wec")
            return f"{s} and the team" + (f" {_WE_CONTR[contr.lower()]}" if contr else "")
        if g("our") or g("ours"):
            return "the team's"
        if g("us"):
            return "the team" if g("us") != "US" else "US"
        return "the team"

    return _EN_PRON.sub(repl, text)


def _rewrite_fr(text: str, s: str, named: bool = False) -> str:
    """je -> <s> (verb in the third person), mon/ma/mes X -> le/la/les X de <s>, then son/sa/ses."""
    state = [named]

    def repl(m: re.Match[str]) -> str:
        g = m.group
        if g("rv"):
            state[0] = True
            pron = "s'" if g("refl").strip().lower() == "m'" or g("rv").lower() == "suis" else "se "
            return f"{s} {pron}{_conj_fr(g('rv'))}"
        if g("ov"):
            state[0] = True
            return f"{s} {g('obj')}{_conj_fr(g('ov'))}"
        if g("jv"):
            state[0] = True
            return f"{s} {g('clit') or ''}{_conj_fr(g('jv'))}"
        if g("v"):
            state[0] = True
            return f"{s} {_conj_fr(g('v'))}"
        if g("moi"):
            state[0] = True
            return s
        poss, noun = g("poss").lower(), g("noun")
        if state[0]:
            third = {"mon": "son", "ma": "son" if noun[:1].lower() in _VOWELS else "sa", "mes": "ses"}[poss]
            return f"{third} {noun}"
        state[0] = True
        return f"{_article(poss, noun)}{noun} {_de(s)}"

    return _FR_PRON.sub(repl, text)


def _article(poss: str, noun: str) -> str:
    poss = poss.lower()
    if poss == "mes":
        return "les "
    if noun[:1].lower() in _VOWELS:
        return "l'"
    return "le " if poss == "mon" else "la "


def _rewrite(text: str, s: str, fr: bool, named: bool = False) -> str:
    return _rewrite_fr(text, s, named) if fr else _rewrite_en(text, s, named)


def _cap(text: str) -> str:
    for i, ch in enumerate(text):
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1 :]
        if ch not in " \"'(\x00\x01" and not ch.isdigit():
            break
    return text


# --------------------------------------------------------------------------- phrase checks

_TAIL_CUT = _rx(
    r"\s*(?:\(|\s-\s|:\)|:-\)|;\)|\blol\b|\blmao\b|\bhaha\w*|\bmdr\b|\bbtw\b|,\s*(?:thanks|thank\s+you|merci|"
    r"please|pls|s'il\s+te\s+pla[iî]t|stp|svp|right|you\s+know|tu\s+sais|though|by\s+the\s+way|anyway|"
    r"en\s+fait|haha|lol|non|hein|ok|okay)\b)"
)
_TRAIL_PUNCT = " \t.,!?;:…\"'*_~-"


def _tail(x: str | None) -> str:
    """A captured object phrase, trimmed of chat noise, bounded in length."""
    if not x:
        return ""
    m = _TAIL_CUT.search(x)
    if m:
        x = x[: m.start()]
    x = x.strip(_TRAIL_PUNCT + "()[]")
    if len(x) > _MAX_TAIL:
        x = x[:_MAX_TAIL].rsplit(" ", 1)[0]
    return x if any(ch.isalpha() for ch in _PLACEHOLDER.sub("", x)) or _PLACEHOLDER.search(x) else ""


_EN_BAD_OBJECT = frozenset(
    "it that this these those them him her you your yours u ya y'all it's that's what which".split()
)
_FR_BAD_OBJECT = frozenset("ça ca cela ceci ce c' toi vous te t' ton ta tes votre vos que qu' quand".split())


def _first_word(x: str) -> str:
    m = re.match(r"[\w']+", x)
    return m.group(0).lower() if m else ""


def _ok_object(x: str, fr: bool, extra: frozenset[str] = frozenset()) -> bool:
    if not x:
        return False
    first = _first_word(x)
    if fr:
        return first not in _FR_BAD_OBJECT and first not in extra and not re.match(r"(?i)c'|t'", x)
    if first in _EN_BAD_OBJECT or first in extra:
        return False
    return not re.search(r"(?i)\b(?:you|your|yours)\b", x)


# --------------------------------------------------------------------------- names

_NOT_NAME = frozenset(
    """
    tired happy sad sure not so very really just also still fine good great ok okay here there back sorry glad
    new ready done busy hungry thirsty sick ill excited afraid alone alive aware able free late early home
    in on
    at out off up down over into from with the a an all almost always never only quite pretty too well better
    worse bored confused curious interested thinking trying going working looking thankful grateful lucky
    proud serious kidding joking fed stuck lost right wrong certain positive old young single married
    available around away cool awesome bad honest open close near about like literally totally currently now
    finally actually afraid sleepy exhausted stressed nervous worried angry mad upset scared hot cold warm
    bien fatigué fatiguée content contente désolé désolée prêt prête sûr sûre là ici malade occupé occupée
    libre heureux heureuse triste en pas très trop si tellement vraiment d'accord dispo disponible perdu
    perdue nul nulle de du des le la les un une au aux à chez ton ta mon ma sur avec pour par car donc mais
    et ou ni que qui quoi dans sous vers moi toi lui elle elles eux nous vous ravi ravie enchanté enchantée
    god yes no hi hello hey thanks thank please what who where when why how your my his her our their its
    """.split()
    + _WD_EN
    + _WD_FR
    + [m.lower() for m in _MONTHS_EN]
    + _MONTHS_FR
)
_NATIONALITIES = frozenset(
    """
    french english british american canadian german italian spanish portuguese dutch belgian swiss chinese
    japanese korean indian brazilian mexican russian polish irish scottish welsh australian swedish norwegian
    danish finnish greek turkish egyptian moroccan algerian tunisian vietnamese ukrainian romanian austrian
    argentinian colombian chilean peruvian lebanese senegalese nigerian kenyan israeli iranian pakistani
    thai filipino indonesian european african asian latino québécois quebecois
    français française anglais anglaise britannique américain américaine canadien canadienne allemand
    allemande italien italienne espagnol espagnole portugais portugaise belge suisse chinois chinoise japonais
    japonaise coréen coréenne indien indienne brésilien brésilienne mexicain mexicaine russe polonais
    polonaise irlandais irlandaise marocain marocaine algérien algérienne tunisien tunisienne sénégalais
    sénégalaise libanais libanaise vietnamien vietnamienne ukrainien ukrainienne roumain roumaine européen
    européenne africain africaine néerlandais néerlandaise grec grecque turc turque
    """.split()
)
_LANGUAGES = frozenset(
    """
    english french spanish german italian portuguese dutch chinese mandarin cantonese japanese korean arabic
    russian hindi polish swedish norwegian danish finnish greek turkish hebrew vietnamese ukrainian romanian
    catalan basque breton esperanto latin bengali urdu persian farsi swahili thai indonesian tagalog
    anglais français espagnol allemand italien portugais néerlandais chinois mandarin japonais coréen arabe
    russe polonais suédois norvégien danois finnois grec turc hébreu vietnamien ukrainien roumain catalan
    basque breton espéranto latin persan
    """.split()
)
_NAME_RX = r"(?P<name>[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){0,3})"
_NEGATED_CALL = _rx(r"\b(?:don't|do\s+not|never|ne)\s+(?:\w+\s+)?$")
_NAME_AFTER_BAD = frozenset("to that about of than enough because with as if".split())


def _name_from(phrase: str, strict: bool) -> str:
    """Leading capitalised words of `phrase` (the first may be lowercase unless `strict`), or ''."""
    words = phrase.split()
    picked: list[str] = []
    for i, word in enumerate(words[:4]):
        core = word.strip("'-")
        if not core:
            break
        if core.lower() in _NOT_NAME or core.lower() in ("and", "et", "from", "de"):
            break
        if not core[0].isupper() and (strict or i > 0):
            break
        picked.append(core)
    if not picked:
        return ""
    first = picked[0].lower()
    if any(p.lower().endswith("'s") for p in picked):
        return ""  # "I'm Paul's brother"
    if strict and (first.endswith(("ing", "ed", "ly")) or first in _NATIONALITIES):
        return ""
    rest = words[len(picked) :]
    if strict and rest and rest[0].lower().strip(",.") in _NAME_AFTER_BAD:
        return ""  # "I'm Happy to help", "I'm Glad that ..."
    name = " ".join(picked)
    if name.isupper() and len(name) > 1:
        name = name.title()
    return name[:1].upper() + name[1:]


# --------------------------------------------------------------------------- subjects

_STOPWORDS = frozenset(
    """
    a an the and or but of to in on at for with from by about as into over than then that this these those it
    its is are was were be been being am do does did have has had will would can could should must may might
    not no yes very really so too also just my your his her their our me you him them us i we they he she
    what which who whom when where why how all any some more most much many lot lots bit kind sort thing
    things stuff one ones there here up out off again new under after before because if while until each
    every other such only own same both few now like likes love loves prefer prefers enjoy enjoys hate hates
    dislike dislikes decided team want wants to called named name is going get got make made go goes
    le la les l un une des du de d au aux et ou mais donc car ni que qu qui quoi ce cet cette ces c mon ma
    mes ton ta tes son sa ses notre nos votre vos leur leurs je j tu il elle on nous vous ils elles me m te
    t se s lui y en est suis sont a ai as ont été être avoir pas ne n plus très bien trop aussi pour par
    avec sans dans sur sous chez à vers entre comme tout tous toute toutes aime adore préfère déteste veut
    équipe décidé fait faire va need needs must should dois doit faut avant après am pm eu été
    use using send buy learn visit call get take start finish try stop keep put see meet pay utiliser
    passer partir apprendre
    i'm i've i'll i'd let's it's that's don't doesn't didn't can't won't we're we've we'll you're
    two three four five six seven eight nine ten deux trois quatre cinq sept huit neuf dix
    deadline deadlines due date limite échéance decision décision today tomorrow tonight yesterday week month
    aujourd'hui demain hier semaine mois prochain prochaine next last end fin
    """.split()
    + _WD_EN
    + _WD_FR
    + [m.lower() for m in _MONTHS_EN]
    + _MONTHS_FR
)
_TOKEN = re.compile(r"[^\W\d_][\w'-]*")
_CLOCK = re.compile(r"^h\d\d$")  # "10h30" leaves "h30" behind
_ELISION = re.compile(r"^(?:l|d|j|qu|n|s|c|m|t)'", re.IGNORECASE)


def _subjects(speaker: str, tags: list[str], phrases: list[str]) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    banned = {w.lower() for w in _TOKEN.findall(speaker)}

    def add(tag: str) -> None:
        tag = tag.lower().strip()
        if tag and tag not in seen and len(out) < _MAX_SUBJECTS:
            seen.add(tag)
            out.append(tag)

    add(speaker)
    for tag in tags:
        add(tag)
    for phrase in phrases:
        for token in _TOKEN.findall(_PLACEHOLDER.sub(" ", phrase)):
            word = _ELISION.sub("", token).lower().strip("'-")
            if word.endswith("'s"):
                word = word[:-2]
            if len(word) < 2 or word in _STOPWORDS or word in banned or _CLOCK.match(word):
                continue
            add(word)
    return out


# --------------------------------------------------------------------------- rules

_Rule = Callable[[_Clause, str], list[_Item]]
_DATE = "\x00(?P<n>\\d+)\x00"
_X = r"(?P<x>.+)"


def _blocked(c: _Clause, start: int) -> bool:
    """First-person statements inside hypotheticals, reported speech or quotes are not facts."""
    context = f"{c.before} {c.text[:start]}"
    return bool(_HYPOTHETICAL.search(context) or _REPORTED.search(context)) or context.count('"') % 2 == 1


def _conf(c: _Clause, base: float) -> float:
    return round(max(0.3, base - _HEDGE_PENALTY) if _HEDGE.search(c.raw) else base, 2)


# --- explicit requests ("remember that ...")

# Only polite or vocative lead-ins may precede a request: "I remember that ..." is reminiscing, not a request.
_REQ_LEAD = _rx(
    r"[\W\d_]+|(?:please|pls|plz|kindly|hey|hi|hello|ok|okay|so|also|and|btw|oh|just|bot|"
    r"(?:can|could|would|will)\s+you(?:\s+please)?|i\s+(?:want|need)\s+you\s+to|i'd\s+like\s+you\s+to|"
    r"you\s+should|make\s+sure\s+(?:to|you)|try\s+to|stp|svp|s'il\s+(?:te|vous)\s+pla[iî]t|peux-tu|"
    r"tu\s+peux|pourrais-tu|tu\s+pourrais|pouvez-vous|vous\s+pouvez|merci\s+de|hé|au\s+fait|bon|alors|"
    r"et|est-ce\s+que\s+tu\s+peux|bien)(?![\w'])"
)
_REMEMBER_EN = _rx(
    r"\b(?:(?:remember|keep\s+in\s+mind|bear\s+in\s+mind|don't\s+forget|do\s+not\s+forget|never\s+forget|"
    r"memori[sz]e)(?:\s+that\b|\s+this\b)?|(?:note|make\s+a\s+note|take\s+note|write\s+down|save)\s+"
    r"(?:that\b|this\s*:)|note\s*:)\s*[:,-]?\s*" + _X
)
_REMEMBER_TODO_EN = _rx(
    rf"\b(?:remember|don't\s+forget|do\s+not\s+forget|remind\s+me(?:\s+{_DATE})?)\s+to\s+" + _X
)
_REMEMBER_FR = _rx(
    r"\b(?:n'oublie\s+pas|n'oubliez\s+pas|souviens-toi|souvenez-vous|rappelle-toi|rappelez-vous|retiens|"
    r"retenez|retenir|note|notez|noter|mémorise|mémorisez|mémoriser|garde\s+en\s+(?:tête|mémoire)|"
    r"gardez\s+en\s+(?:tête|mémoire)|enregistre)(?:\s+bien)?\s*(?:que\s+|qu'|:\s*)" + _X
)
_REMEMBER_TODO_FR = _rx(r"\b(?:n'oublie\s+pas|n'oubliez\s+pas|rappelle-moi|rappelez-moi)\s+(?:de\s+|d')" + _X)
_REMINISCE = _rx(r"^(?:when|how|the\s+time|me\b|quand|comment|la\s+fois)")


def _request_ok(c: _Clause, start: int) -> bool:
    prefix = c.text[:start].strip()
    if len(prefix) > 100:
        return False
    if not prefix or prefix.endswith(","):
        return True
    pos = 0
    while pos < len(prefix):  # a loop of single matches: a starred regex would backtrack exponentially
        m = _REQ_LEAD.match(prefix, pos)
        if not m or m.end() == pos:
            return False
        pos = m.end()
    return True


def _rule_request(c: _Clause, s: str) -> list[_Item]:
    for rx, fr in ((_REMEMBER_TODO_EN, False), (_REMEMBER_TODO_FR, True)):
        m = rx.search(c.text)
        if m and _request_ok(c, m.start()):
            x = _tail(m.group("x"))
            if x and _ok_object(x, fr):
                body = _rewrite(x, s, fr, named=True)
                content = f"Rappel pour {s} : {body}" if fr else f"Reminder for {s}: {body}"
                return [_Item(content, MemoryType.TODO, _CONF_REQUEST, [x])]
    for rx, fr in ((_REMEMBER_EN, False), (_REMEMBER_FR, True)):
        m = rx.search(c.text)
        if not m or not _request_ok(c, m.start()):
            continue
        x = _tail(m.group("x"))
        if not x or _REMINISCE.match(x):
            continue
        inner = _Clause(x, x, "", fr, c.past, c.dates)
        items = [item for rule in _STATEMENT_RULES for item in rule(inner, s)]
        if items:
            for item in items:
                item.confidence = max(item.confidence, _CONF_REQUEST)
            return items
        return [_Item(_cap(_rewrite(x, s, fr)), MemoryType.FACT, _CONF_REQUEST, [x])]
    return []


# --- identity

_NAME_EN = _rx(
    r"\b(?:(?P<strong>my\s+(?:first\s+|full\s+|real\s+|last\s+)?name(?:'s|\s+is))"
    r"|(?P<call>(?:you\s+can\s+|please\s+|just\s+|people\s+|everyone\s+|everybody\s+|friends\s+)?call\s+me)"
    r"|(?P<im>i(?:'m|\s+am)))\s+" + _NAME_RX
)
_NAME_FR = _rx(
    r"\b(?:(?P<strong>je\s+m'appelle|mon\s+(?:nom|prénom|petit\s+nom)\s+(?:est|c'est))"
    r"|(?P<call>on\s+m'appelle|appelle[- ]moi|appelez[- ]moi|tu\s+peux\s+m'appeler|vous\s+pouvez\s+m'appeler)"
    r"|(?P<im>je\s+suis|moi,?\s+c'est))\s+" + _NAME_RX
)


def _rule_name(c: _Clause, s: str) -> list[_Item]:
    items: list[_Item] = []
    for rx, fr in ((_NAME_EN, False), (_NAME_FR, True)):
        m = rx.search(c.text)
        if not m or _blocked(c, m.start()):
            continue
        if m.group("call") and _NEGATED_CALL.search(c.text[: m.start()]):
            continue
        phrase = m.group("name")
        first = _first_word(phrase)
        if m.group("im") and first in _NATIONALITIES:
            nat = phrase.split()[0].strip(",.!")
            content = f"{s} est {nat.lower()}" if fr else f"{s} is {nat[:1].upper()}{nat[1:]}"
            items.append(_Item(content, MemoryType.IDENTITY, _conf(c, 0.75), [nat]))
            continue
        name = _name_from(phrase, strict=not m.group("strong"))
        if not name or name.casefold() == s.casefold():
            # The speaker's display name already says it: "Mickael's name is Mickael" teaches nothing.
            continue
        if m.group("call"):
            content = f"{s} veut qu'on l'appelle {name}" if fr else f"{s} wants to be called {name}"
            items.append(_Item(content, MemoryType.IDENTITY, _conf(c, 0.8), [], [name]))
        else:
            content = f"{s} s'appelle {name}" if fr else f"{_poss_en(s)} name is {name}"
            items.append(_Item(content, MemoryType.IDENTITY, _conf(c, 0.8), [], [name], given_name=name))
    return items


_OCC_EN = frozenset(
    """
    nurse doctor teacher student engineer developer dev designer lawyer attorney accountant chef cook artist
    writer author journalist scientist researcher professor lecturer manager consultant freelancer
    entrepreneur founder cofounder co-founder ceo cto cfo coo intern pilot firefighter cop paramedic
    pharmacist dentist therapist psychologist architect plumber electrician mechanic carpenter farmer baker
    barista waiter waitress cashier programmer coder analyst pm sre devops admin sysadmin photographer
    musician singer actor actress dancer athlete coach tutor librarian vet veterinarian surgeon physician
    midwife soldier retiree mom mum dad father mother parent postdoc undergrad volunteer translator editor
    marketer salesperson recruiter streamer youtuber gamer maintainer contributor nanny teen teenager
    """.split()
)
_OCC_EN_SUFFIX = ("er", "or", "ist", "ian", "eer", "ant", "ent", "ive", "ect", "ogist", "man", "woman", "ess")
_OCC_EN_BAD = frozenset(
    """
    other number answer order matter better bigger lot bit little tad fan big huge part member whatever
    idiot mess wreck disaster joke fool genius moment minute second quarter ever never
    vegetarian vegan pescatarian
    """.split()
)
_OCC_FR = frozenset(
    """
    médecin infirmier infirmière avocat avocate prof professeur professeure enseignant enseignante étudiant
    étudiante ingénieur ingénieure développeur développeuse dev designer graphiste architecte comptable
    journaliste chef cuisinier cuisinière boulanger boulangère serveur serveuse vendeur vendeuse pilote
    policier policière pompier mécanicien mécanicienne électricien électricienne plombier artiste musicien
    musicienne écrivain écrivaine auteur autrice photographe chercheur chercheuse doctorant doctorante
    stagiaire freelance indépendant indépendante entrepreneur entrepreneuse consultant consultante manager
    directeur directrice retraité retraitée fonctionnaire militaire agriculteur agricultrice pharmacien
    pharmacienne dentiste kiné kinésithérapeute psychologue sage-femme chômeur chômeuse lycéen lycéenne
    collégien collégienne maman papa père mère informaticien informaticienne traducteur traductrice
    """.split()
)
_OCC_FR_SUFFIX = (
    "eur", "euse", "iste", "ien", "ienne", "ier", "ière", "logue", "aire", "ant", "ante", "trice",
)  # fmt: skip
_OCC_FR_BAD = frozenset(
    """
    heureuse curieuse sérieuse nerveuse joyeuse paresseuse malheureuse amoureuse courageuse généreuse
    dangereuse furieuse anxieuse ambitieuse chanceuse meilleur supérieur majeur mineur intérieur extérieur
    inférieur triste bien rien ancien fier fière dernier dernière premier première entier particulier régulier
    content contente méchant méchante charmant charmante marrant marrante fatigant fatigante important
    importante intéressant intéressante élégant élégante puissant puissante brillant brillante nécessaire
    végétarien végétarienne végane vegan fan partant partante gagnant gagnante perdant perdante confiant
    confiante méfiant méfiante sûr sûre prêt prête désolé désolée ravi ravie d'accord là ici
    en train pas
    """.split()
)
_BOUNDARY = _rx(r"\s*(?:,|\b(?:and|but|so|because|who|which|that|et|mais|donc|car|qui|parce)\b)")
_BOUNDARY_LIST = _rx(r"\s*\b(?:but|so|because|who|which|that|mais|donc|car|qui|parce)\b")
_PREP_WORDS = frozenset("at for in with from of on by near chez à au aux pour dans de du des".split())


def _until_boundary(x: str, max_words: int = 10, lists: bool = False) -> str:
    """`x` up to the end of its noun phrase; `lists` keeps "X, Y and Z" together."""
    m = (_BOUNDARY_LIST if lists else _BOUNDARY).search(x)
    x = x[: m.start()] if m else x
    return " ".join(x.split()[:max_words]).strip(_TRAIL_PUNCT)


def _is_occupation_en(phrase: str) -> bool:
    words = [w.lower().strip(".,!") for w in phrase.split()]
    if not words or words[0] in _OCC_EN_BAD:
        return False
    head = words[-1]
    for i, w in enumerate(words):
        if w in _PREP_WORDS and i > 0:
            head = words[i - 1]
            break
    if head in _OCC_EN_BAD or any(w in _OCC_EN_BAD for w in words[:2]):
        return False
    return head in _OCC_EN or (len(head) > 3 and head.endswith(_OCC_EN_SUFFIX))


def _is_occupation_fr(word: str) -> bool:
    w = word.lower().strip(".,!")
    if w in _OCC_FR_BAD or (w.endswith(("é", "ée", "és", "ées")) and w not in _OCC_FR):
        return False
    return w in _OCC_FR or w in _NATIONALITIES or (len(w) > 4 and w.endswith(_OCC_FR_SUFFIX))


_ID_EN: list[tuple[re.Pattern[str], str]] = [
    (_rx(r"\bi(?:'m|\s+am)\s+(?:now\s+|currently\s+|also\s+|actually\s+)?(?P<art>an?)\s+" + _X), "occ"),
    (_rx(r"\bi\s+(?:currently\s+|now\s+|also\s+)?work(?:ed)?\s+as\s+(?P<art>an?\s+|the\s+)?" + _X), "as"),
    (_rx(r"\bi\s+(?:currently\s+|now\s+|also\s+)?work\s+(?P<prep>at|for|in|on|with|from)\s+" + _X), "works"),
    (
        _rx(
            r"\bi\s+(?:currently\s+|now\s+|still\s+)?live\s+(?P<prep>in|at|near|with|outside|close\s+to)\s+"
            + _X
        ),
        "lives",
    ),
    (
        _rx(
            r"\bi(?:'m|\s+am)\s+(?:originally\s+)?(?P<prep>from|based\s+in|located\s+in|living\s+in)\s+" + _X
        ),
        "is",
    ),
    (_rx(r"\bi\s+(?P<prep>was\s+born\s+(?:in|at|on)|grew\s+up\s+(?:in|at|near|on))\s+" + _X), "born"),
    (_rx(r"\bi\s+(?:currently\s+)?(?P<prep>study|studied)\s+" + _X), "study"),
    (_rx(r"\bi(?:'m|\s+am)\s+(?P<prep>studying)\s+" + _X), "is"),
    (_rx(r"\bi\s+(?:also\s+)?(?P<prep>speak)\s+" + _X), "speak"),
    (_rx(r"\bi(?:'m|\s+am)\s+(?P<age>\d{1,3})(?:\s*(?:years?\s+old|yo|y/o|yrs?\s+old))?\s*$"), "age"),
    (_rx(r"\bi(?:'m|\s+am)\s+(?P<age>\d{1,3})\s*(?:years?\s+old|yo|y/o|yrs?\s+old)\b"), "age"),
]
_ID_FR: list[tuple[re.Pattern[str], str]] = [
    (
        _rx(
            r"\bje\s+(?:suis|travaille)\s+(?P<prep>originaire\s+d(?:e\s+|')|basée?\s+(?:à|a|en|au|aux)\s+|"
            r"installée?\s+(?:à|a|en|au|aux)\s+|née?\s+(?:à|a|en|au|aux|le|dans)\s+)" + _X
        ),
        "est",
    ),
    (_rx(r"\bje\s+suis\s+(?:(?P<art>un|une)\s+)?" + _X), "occ"),
    (
        _rx(r"\bje\s+travaille\s+(?P<prep>comme|en\s+tant\s+que|chez|à|a|au|pour|dans|sur)\s+" + _X),
        "travaille",
    ),
    (_rx(r"\bj'habite\s+(?P<prep>à|a|au|aux|en|dans|près\s+de|chez|sur)?\s*" + _X), "habite"),
    (_rx(r"\bje\s+vis\s+(?P<prep>à|a|au|aux|en|dans|avec|près\s+de|chez)\s+" + _X), "vit"),
    (_rx(r"\bje\s+viens\s+(?P<prep>de|d'|du|des)\s*(?P<x>[A-ZÀ-Ý].*)"), "vient"),
    (_rx(r"\bj'ai\s+(?P<age>\d{1,3})\s+ans\b"), "age"),
    (_rx(r"\bj'(?P<prep>étudie)\s+" + _X), "etudie"),
    (
        _rx(
            r"\bje\s+(?:fais|suis)\s+(?P<prep>des\s+études\s+(?:de|d'|en)|en\s+(?:licence|master|thèse|doctorat|"
            r"prépa|bts|but|dut)\s+(?:de|d'|en)?)\s*" + _X
        ),
        "etudes",
    ),
    (_rx(r"\bje\s+(?:parle)\s+" + _X), "parle"),
]


def _rule_identity(c: _Clause, s: str) -> list[_Item]:
    items: list[_Item] = []
    for rx, kind in _ID_EN:
        m = rx.search(c.text)
        if m and not _blocked(c, m.start()):
            item = _identity_en(m, kind, s, c)
            if item:
                items.append(item)
                break
    for rx, kind in _ID_FR:
        m = rx.search(c.text)
        if m and not _blocked(c, m.start()):
            item = _identity_fr(m, kind, s, c)
            if item:
                items.append(item)
                break
    return items


def _identity_en(m: re.Match[str], kind: str, s: str, c: _Clause) -> _Item | None:
    conf = _conf(c, 0.75)
    if kind == "age":
        age = int(m.group("age"))
        return _Item(f"{s} is {age} years old", MemoryType.IDENTITY, conf, []) if 3 <= age <= 120 else None
    x = _tail(m.group("x"))
    if kind in ("occ", "as", "speak"):
        x = _until_boundary(x, 12, lists=kind == "speak")
    if not x or not _ok_object(x, False):
        return None
    body = _rewrite_en(x, s, named=True)
    if kind == "occ":
        if not _is_occupation_en(x):
            return None
        return _Item(f"{s} is {m.group('art').lower()} {body}", MemoryType.IDENTITY, conf, [x])
    if kind == "as":
        art = (m.group("art") or "").strip().lower()
        return _Item(f"{s} works as {art + ' ' if art else ''}{body}", MemoryType.IDENTITY, conf, [x])
    if kind == "speak":
        if _first_word(x) not in _LANGUAGES:
            return None
        return _Item(f"{s} speaks {body}", MemoryType.IDENTITY, conf, [x])
    prep = " ".join(m.group("prep").lower().split())
    verb = {"works": "works", "lives": "lives", "is": "is", "born": "", "study": "studies"}[kind]
    if kind == "study" and prep == "studied":
        verb = "studied"
    phrase = f"{verb} {prep}" if kind in ("works", "lives", "is") else (verb or prep)
    return _Item(f"{s} {phrase} {body}", MemoryType.IDENTITY, conf, [x])


def _identity_fr(m: re.Match[str], kind: str, s: str, c: _Clause) -> _Item | None:
    conf = _conf(c, 0.75)
    if kind == "age":
        age = int(m.group("age"))
        return _Item(f"{s} a {age} ans", MemoryType.IDENTITY, conf, []) if 3 <= age <= 120 else None
    x = _tail(m.group("x"))
    if not x or not _ok_object(x, True):
        return None
    body = _rewrite_fr(x, s, named=True)
    if kind == "occ":
        words = x.split()
        if not words or not _is_occupation_fr(words[0]) or _first_word(x) == "fan":
            return None
        x = _until_boundary(x, 8)
        body = _rewrite_fr(x, s, named=True)
        art = f"{m.group('art').lower()} " if m.group("art") else ""
        if words[0].lower() in _NATIONALITIES and not art:
            body = body[:1].lower() + body[1:]
        return _Item(f"{s} est {art}{body}", MemoryType.IDENTITY, conf, [x])
    if kind == "parle":
        if _first_word(x) not in _LANGUAGES:
            return None
        return _Item(f"{s} parle {body}", MemoryType.IDENTITY, conf, [x])
    if kind == "etudie":
        return _Item(f"{s} étudie {body}", MemoryType.IDENTITY, conf, [x])
    prep = " ".join((m.group("prep") or "").split())
    verb = {"est": "est", "travaille": "travaille", "habite": "habite", "vit": "vit", "vient": "vient",
            "etudes": "fait"}[kind]  # fmt: skip
    if kind == "habite" and not prep and not x[:1].isupper():
        return None
    glue = "" if prep.endswith("'") else " "
    phrase = f"{verb} {prep}{glue}" if prep else f"{verb} "
    return _Item(f"{s} {phrase}{body}", MemoryType.IDENTITY, conf, [x])


# --- family, pets, named relatives

_REL_EN = (
    r"(?:little\s+|big\s+|older\s+|younger\s+|best\s+|baby\s+|twin\s+|new\s+)?(?:sister|brother|wife|husband|"
    r"partner|girlfriend|boyfriend|fiancée?|son|daughter|kid|child|baby|mom|mum|mother|dad|father|cat|dog|"
    r"puppy|kitten|pet|friend|boss|manager|cousin|aunt|uncle|grandmother|grandfather|grandma|grandpa|niece|"
    r"nephew|roommate|colleague|coworker|co-worker|cofounder|co-founder|teammate|parrot|rabbit|hamster|horse)"
)
_REL_FR = (
    r"(?:petite?\s+|grande?\s+|meilleure?\s+|nouvelle?\s+)?(?:sœur|soeur|frère|femme|mari|compagne|compagnon|"
    r"copine|copain|conjointe?|fiancée?|fils|fille|enfant|bébé|mère|père|maman|papa|chat|chatte|chien|chienne|"
    r"chiot|chaton|ami|amie|patron|patronne|chef|cousin|cousine|tante|oncle|grand-mère|grand-père|nièce|"
    r"neveu|coloc|collègue|associée?|lapin)"
)
_RELNAME_EN = _rx(
    rf"\bmy\s+(?P<rel>{_REL_EN})(?:'s\s+name\s+is|\s+is\s+called|\s+is\s+named|\s+name\s+is|\s+goes\s+by)\s+"
    + _NAME_RX
)
_RELNAME_EN_APPOS = _rx(rf"\bmy\s+(?P<rel>{_REL_EN}),?\s+(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+))")
_RELNAME_FR = _rx(
    rf"\b(?P<poss>mon|ma|mes)\s+(?P<rel>{_REL_FR})\s+(?:s'appelle|se\s+nomme|est\s+appelée?|c'est)\s+"
    + _NAME_RX
)
_RELNAME_FR_APPOS = _rx(rf"\b(?P<poss>mon|ma|mes)\s+(?P<rel>{_REL_FR}),?\s+(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+))")
# What the named relative does, after "my daughter Léa": a verb phrase of at least two words.
_PREDICATE = re.compile(r"^,?\s+(?P<p>(?-i:[a-zà-ÿ])[\w'-]*\s+\S.*)$")
_NOT_A_PREDICATE = _rx(r"^(?:and|or|but|who|which|that|is\s+called|et|ou|mais|qui|que|s'appelle)\b")
_HAVE_EN = _rx(
    r"\bi\s+(?:have|'ve\s+got|have\s+got|got)\s+(?P<x>(?:a|an|one|two|three|four|five|six|\d{1,2})\s+.+)"
)
_HAVE_FR = _rx(r"\bj'ai\s+(?P<x>(?:un|une|deux|trois|quatre|cinq|six|\d{1,2})\s+.+)")
_FAMILY_WORD = _rx(
    r"\b(?:kids?|children|child|sons?|daughters?|brothers?|sisters?|wife|husband|partner|girlfriend|boyfriend|"
    r"dogs?|cats?|bab(?:y|ies)|twins|pupp(?:y|ies)|kittens?|fiancée?|pets?|parrots?|rabbits?|hamsters?|horses?|"
    r"enfants?|fils|filles?|frères?|sœurs?|soeurs?|femme|mari|copine|copain|chiens?|chats?|bébés?|jumeaux|"
    r"jumelles|chiots?|chatons?|lapins?)\b"
)


def _predicate(c: _Clause, end: int, s: str, fr: bool) -> tuple[str, MemoryType] | None:
    """What follows a named relative ("… Léa starts school in Lyon next September"), rewritten in
    the third person, and its kind: an event when it holds a date. None when nothing is said."""
    m = _PREDICATE.match(c.text[end:])
    if m is None or _NOT_A_PREDICATE.match(m.group("p")):
        return None
    said = _tail(m.group("p"))
    if len(said.split()) < 2:
        return None
    kind = MemoryType.EVENT if _PLACEHOLDER.search(said) else MemoryType.FACT
    return _rewrite(said, s, fr, named=True), kind


def _rule_family(c: _Clause, s: str) -> list[_Item]:
    items: list[_Item] = []
    conf = _conf(c, 0.75)
    m = _RELNAME_EN.search(c.text)
    if m and not _blocked(c, m.start()):
        name = _name_from(m.group("name"), strict=False)
        if name:
            rel = " ".join(m.group("rel").split())
            items.append(_Item(f"{_poss_en(s)} {rel} is called {name}", MemoryType.FACT, conf, [rel], [name]))
    elif (m := _RELNAME_EN_APPOS.search(c.text)) and not _blocked(c, m.start()):
        name = _name_from(m.group("name"), strict=True)
        if name:
            rel = " ".join(m.group("rel").split())
            items.append(_Item(f"{_poss_en(s)} {rel} is called {name}", MemoryType.FACT, conf, [rel], [name]))
            if (said := _predicate(c, m.end(), s, fr=False)) is not None:
                text, kind = said
                items.append(_Item(f"{_poss_en(s)} {rel} {name} {text}", kind, conf, [rel], [name]))
    m = _RELNAME_FR.search(c.text)
    if m and not _blocked(c, m.start()):
        name = _name_from(m.group("name"), strict=False)
        if name:
            rel = " ".join(m.group("rel").split())
            verb = "s'appellent" if m.group("poss").lower() == "mes" else "s'appelle"
            art = _article(m.group("poss"), rel)
            content = _cap(f"{art}{rel} {_de(s)} {verb} {name}")
            items.append(_Item(content, MemoryType.FACT, conf, [rel], [name]))
    elif (m := _RELNAME_FR_APPOS.search(c.text)) and not _blocked(c, m.start()):
        name = _name_from(m.group("name"), strict=True)
        if name:
            rel = " ".join(m.group("rel").split())
            plural = m.group("poss").lower() == "mes"
            art = _article(m.group("poss"), rel)
            named = _cap(f"{art}{rel} {_de(s)}")
            verb = "s'appellent" if plural else "s'appelle"
            items.append(_Item(f"{named} {verb} {name}", MemoryType.FACT, conf, [rel], [name]))
            if (said := _predicate(c, m.end(), s, fr=True)) is not None:
                text, kind = said
                items.append(_Item(f"{named}, {name}, {text}", kind, conf, [rel], [name]))
    for rx, fr in ((_HAVE_EN, False), (_HAVE_FR, True)):
        m = rx.search(c.text)
        if m and not _blocked(c, m.start()):
            x = _until_boundary(_tail(m.group("x")), 12, lists=True)
            if x and _FAMILY_WORD.search(x):
                body = _rewrite(x, s, fr, named=True)
                items.append(_Item(f"{s} a {body}" if fr else f"{s} has {body}", MemoryType.FACT, conf, [x]))
    return items


# --- preferences

_PREF_ADV = (
    r"(?:(?:really|truly|also|just|still|totally|absolutely|definitely|honestly|actually|genuinely|kind\s+of|"
    r"kinda|sort\s+of|do|so|personally|generally|usually|always|secretly|simply|particularly|especially)\s+)*"
)
_PREF_EN = _rx(
    r"\bi\s+" + _PREF_ADV + r"(?P<verb>like|love|adore|enjoy|prefer|hate|dislike|loathe|detest|despise|"
    r"can't\s+stand|cannot\s+stand|can\s+not\s+stand|don't\s+(?:really\s+|much\s+)?(?:like|love|enjoy)|"
    r"do\s+not\s+(?:really\s+)?(?:like|love|enjoy)|don't\s+mind|do\s+not\s+mind)\s+" + _X
)
_PREF_EN_VERB = {
    "like": "likes", "love": "loves", "adore": "adores", "enjoy": "enjoys", "prefer": "prefers",
    "hate": "hates", "dislike": "dislikes", "loathe": "hates", "detest": "hates", "despise": "hates",
}  # fmt: skip
_PREF_EN_BE = _rx(
    r"\bi(?:'m|\s+am)\s+(?P<neg>not\s+)?(?:really\s+|really\s+not\s+|also\s+|such\s+)?(?P<kind>into|"
    r"(?:a\s+)?(?:big\s+|huge\s+|massive\s+|great\s+)?fan\s+of|crazy\s+about|obsessed\s+with|"
    r"passionate\s+about|mad\s+about|addicted\s+to|allergic\s+to)\s+" + _X
)
_DIET_EN = _rx(
    r"\bi(?:'m|\s+am)\s+(?:now\s+|also\s+|strictly\s+)?(?:an?\s+)?(?P<x>vegetarian|vegan|pescatarian|"
    r"gluten[- ]free|lactose[- ]intolerant|teetotal|celiac|coeliac|halal|kosher)\b"
)
_PREF_BAD_EN = (
    "to say", "to think", "to believe", "to know", "to ask", "to see", "to point", "to add", "the idea",
    "the sound", "the way you", "not to ", "the look of",
)  # fmt: skip
_PREF_FR = _rx(
    r"\b(?:j'(?P<v3>aime\s+pas|supporte\s+pas)|j'(?P<v1>aime|adore|apprécie|affectionne|kiffe)|je\s+(?P<v2>déteste|hais|préfère|kiffe|adore|"
    r"raffole\s+d(?:e|u|es)|suis\s+fan\s+d(?:e\s+|u\s+|es\s+|')|suis\s+(?:un\s+|une\s+)?(?:grande?\s+)?fan\s+"
    r"d(?:e\s+|u\s+|es\s+|')|suis\s+passionnée?\s+(?:de|d'|par)|suis\s+accro\s+(?:à|au|aux)|"
    r"ne\s+supporte\s+pas|n'aime\s+(?:vraiment\s+)?pas(?:\s+trop|\s+du\s+tout|\s+beaucoup)?|"
    r"n'apprécie\s+pas|n'adore\s+pas|suis\s+allergique\s+(?:à|au|aux)|suis\s+végétarien(?:ne)?|"
    r"suis\s+végane?|suis\s+vegan))\b"
    r"\s*(?P<adv>(?:bien|beaucoup|vraiment|trop|énormément|tellement|assez|surtout|aussi)\s+)*(?P<x>.*)"
)
_FAV_EN = _rx(
    r"\bmy\s+(?:all[- ]time\s+|absolute\s+|very\s+)?(?:favou?rite|fave|fav|preferred)\s+"
    r"(?P<cat>[^\W\d_][\w' -]{0,40}?)\s+"
    r"(?P<be>is|are|was|were|has\s+always\s+been|has\s+to\s+be|would\s+be)\s+" + _X
)
_FAV_FR = _rx(
    r"\b(?P<poss>mon|ma|mes)\s+(?P<cat>[^\W\d_][\w' -]{0,40}?)\s+(?P<adj>préférée?s?|favorie?s?|fétiches?)"
    r"\s*(?:,\s*)?(?P<be>est|sont|c'est|ce\s+sont|reste|:)\s*" + _X
)


def _rule_preference(c: _Clause, s: str) -> list[_Item]:
    items: list[_Item] = []
    conf = _conf(c, 0.75)
    m = _PREF_EN.search(c.text)
    if m and not _blocked(c, m.start()):
        verb = " ".join(m.group("verb").lower().split())
        x = _tail(m.group("x"))
        bad = any(x.lower().startswith(p) for p in _PREF_BAD_EN)
        if x and not bad and _ok_object(x, False):
            if verb.startswith(("don't", "do not")):
                third = "doesn't mind" if verb.endswith("mind") else "dislikes"
            elif verb.startswith(("can't", "cannot", "can not")):
                third = "can't stand"
            else:
                third = _PREF_EN_VERB[verb]
            content = f"{s} {third} {_rewrite_en(x, s, named=True)}"
            items.append(_Item(content, MemoryType.PREFERENCE, conf, [x]))
    m = _PREF_EN_BE.search(c.text)
    if m and not _blocked(c, m.start()):
        x = _tail(m.group("x"))
        if x and _ok_object(x, False):
            kind = " ".join(m.group("kind").lower().split())
            neg = "not " if m.group("neg") else ""
            if "fan of" in kind:
                kind = "a fan of"
            mtype = MemoryType.FACT if kind.startswith("allergic") else MemoryType.PREFERENCE
            content = f"{s} is {neg}{kind} {_rewrite_en(x, s, named=True)}"
            items.append(_Item(content, mtype, _conf(c, 0.8) if mtype is MemoryType.FACT else conf, [x]))
    m = _DIET_EN.search(c.text)
    if m and not _blocked(c, m.start()):
        items.append(_Item(f"{s} is {m.group('x').lower()}", MemoryType.PREFERENCE, conf, [m.group("x")]))
    m = _PREF_FR.search(c.text)
    if m and not _blocked(c, m.start()):
        item = _preference_fr(m, s, c, conf)
        if item:
            items.append(item)
    m = _FAV_EN.search(c.text)
    if m and not _blocked(c, m.start()):
        x, cat = _tail(m.group("x")), " ".join(m.group("cat").split())
        if x and _ok_object(x, False):
            be = " ".join(m.group("be").lower().split())
            content = f"{_poss_en(s)} favorite {cat} {be} {_rewrite_en(x, s, named=True)}"
            items.append(_Item(content, MemoryType.PREFERENCE, conf, [cat, x]))
    m = _FAV_FR.search(c.text)
    if m and not _blocked(c, m.start()):
        x, cat = _tail(m.group("x")), " ".join(m.group("cat").split())
        if x and _ok_object(x, True):
            poss = m.group("poss").lower()
            be = "sont" if poss == "mes" else "est"
            body = _rewrite_fr(x, s, named=True)
            content = _cap(f"{_article(poss, cat)}{cat} {m.group('adj')} {_de(s)} {be} {body}")
            items.append(_Item(content, MemoryType.PREFERENCE, conf, [cat, x]))
    return items


def _preference_fr(m: re.Match[str], s: str, c: _Clause, conf: float) -> _Item | None:
    raw = " ".join((m.group("v1") or m.group("v2") or m.group("v3")).split())
    low = raw.lower()
    x = _tail(m.group("x"))
    adv = " ".join((m.group("adv") or "").split())
    diet = low.startswith("suis vég") or low == "suis vegan"
    if diet:
        return _Item(f"{s} est {raw.split(' ', 1)[1]}", MemoryType.PREFERENCE, conf, [raw.split(" ", 1)[1]])
    if not x or not _ok_object(x, True):
        return None
    if low == "aime pas":
        verb = "n'aime pas"
    elif low == "supporte pas":
        verb = "ne supporte pas"
    elif low == "hais":
        verb = "déteste"
    elif low.startswith("suis "):
        verb = "est " + raw[5:]
    else:
        verb = raw
    verb = verb + (f" {adv}" if adv else "")
    glue = "" if verb.endswith("'") else " "
    mtype = MemoryType.FACT if "allergique" in low else MemoryType.PREFERENCE
    return _Item(f"{s} {verb}{glue}{_rewrite_fr(x, s, named=True)}", mtype, conf, [x])


# --- decisions

_DECIDE_EN = _rx(
    r"\b(?P<who>we|i)(?:'ve|\s+have|'d|\s+had|\s+just|\s+finally|\s+all|\s+now|\s+officially|\s+eventually)*\s+"
    r"(?P<verb>decided|agreed|settled|chose|picked|opted|voted)\s+" + _X
)
_DECIDE_EN_GO = _rx(
    r"\b(?:let's|let\s+us|we'll|we\s+will|we're\s+going\s+to|we\s+are\s+going\s+to)\s+"
    r"(?P<verb>go\s+with|use|pick|choose|stick\s+with|switch\s+to|adopt|move\s+to|migrate\s+to|go\s+for)\s+"
    + _X
)
_DECIDE_EN_GOING = _rx(r"\bwe(?:'re|\s+are)\s+(?P<verb>going\s+with|sticking\s+with|switching\s+to)\s+" + _X)
_DECISION_EN = _rx(
    r"\b(?:(?:final|our|the)\s+)?decision\s*(?::|-|is\s+(?=to\b|that\b)|was\s+(?=to\b|that\b))\s*"
    + _X
    + r"|\b(?:it's|it\s+is)\s+decided\s*[:,-]\s*(?P<x2>.+)"
)
_DECIDE_FR = _rx(
    r"\b(?P<who>on|nous|j')\s*(?P<aux>a|avons|ai|avait|avions|avais)\s+(?:finalement\s+|enfin\s+|donc\s+|"
    r"tous\s+|officiellement\s+)*(?P<verb>décidé|choisi|convenu|opté|tranché|voté)\s+" + _X
)
_DECIDE_FR_GO = _rx(
    r"\b(?P<verb>on\s+part\s+sur|on\s+va\s+(?:utiliser|partir\s+sur|prendre)|on\s+utilisera|on\s+prend|"
    r"on\s+garde|on\s+choisit|partons\s+sur|allons-y\s+avec)\s+" + _X
)
_DECIDE_FR_INF = {
    "on part sur": "partir sur", "on va utiliser": "utiliser", "on va partir sur": "partir sur",
    "on va prendre": "prendre", "on utilisera": "utiliser", "on prend": "prendre", "on garde": "garder",
    "on choisit": "choisir", "partons sur": "partir sur", "allons-y avec": "partir sur",
}  # fmt: skip
_DECISION_FR = _rx(
    r"\b(?:c'est\s+décidé|(?:la\s+)?décision(?:\s+finale)?(?:\s+est\s+prise)?)\s*[:,-]\s*" + _X
)
_DECIDE_BAD_EN = frozenset("up you it that this them".split())
_GOING_INF = {"going with": "go with", "sticking with": "stick with", "switching to": "switch to"}


def _rule_decision(c: _Clause, s: str) -> list[_Item]:
    items: list[_Item] = []
    conf = _conf(c, 0.8)
    m = _DECIDE_EN.search(c.text)
    if m and not _blocked(c, m.start()):
        x = _tail(m.group("x"))
        if x and _ok_object(x, False, _DECIDE_BAD_EN):
            who = f"{s} and the team" if m.group("who").lower() == "we" else s
            content = f"{who} {m.group('verb').lower()} {_rewrite_en(x, s, named=True)}"
            items.append(_Item(content, MemoryType.DECISION, conf, [x]))
    for rx in (_DECIDE_EN_GO, _DECIDE_EN_GOING):
        m = rx.search(c.text)
        if m and not _blocked(c, m.start()):
            x = _tail(m.group("x"))
            if x and _ok_object(x, False):
                verb = " ".join(m.group("verb").lower().split())
                verb = _GOING_INF.get(verb, verb)
                content = f"{s} and the team decided to {verb} {_rewrite_en(x, s, named=True)}"
                items.append(_Item(content, MemoryType.DECISION, _conf(c, 0.7), [x]))
                break
    m = _DECISION_EN.search(c.text)
    if m:
        x = _tail(m.group("x") or m.group("x2"))
        if x and _ok_object(x, False):
            x = re.sub(r"(?i)^(?:to|that)\s+", "", x)
            items.append(_Item(f"Decision: {x}", MemoryType.DECISION, conf, [x]))
    m = _DECIDE_FR.search(c.text)
    if m and not _blocked(c, m.start()):
        x = _tail(m.group("x"))
        if x and _ok_object(x, True):
            aux = "a" if m.group("who").lower() == "j'" else "ont"
            who = s if aux == "a" else f"{s} et l'équipe"
            content = f"{who} {aux} {m.group('verb').lower()} {_rewrite_fr(x, s, named=True)}"
            items.append(_Item(content, MemoryType.DECISION, conf, [x]))
    m = _DECIDE_FR_GO.search(c.text)
    if m and not _blocked(c, m.start()):
        x = _tail(m.group("x"))
        if x and _ok_object(x, True):
            inf = _DECIDE_FR_INF.get(" ".join(m.group("verb").lower().split()), "utiliser")
            de = "d'" if inf[0] in _VOWELS else "de "
            content = f"{s} et l'équipe ont décidé {de}{inf} {_rewrite_fr(x, s, named=True)}"
            items.append(_Item(content, MemoryType.DECISION, _conf(c, 0.7), [x]))
    m = _DECISION_FR.search(c.text)
    if m:
        x = _tail(m.group("x"))
        if x and _ok_object(x, True):
            items.append(_Item(f"Décision : {x}", MemoryType.DECISION, conf, [x]))
    return items


# --- deadlines and dated to-dos

_DEADLINE_EN: list[re.Pattern[str]] = [
    _rx(
        rf"\bdeadline\s+(?:for|of|on)\s+(?P<thing>[^,\x00]{{1,80}}?)\s*(?:is|was|will\s+be|:|=|-|,)?\s*"
        rf"(?:on\s+|by\s+|set\s+for\s+)?{_DATE}"
    ),
    _rx(
        rf"\b(?P<thing>(?:the|our|my|this|that)\s+[^,\x00]{{1,60}}?)(?:'s)?\s+deadline\s+(?:is|was|will\s+be|:)\s*"
        rf"(?:on\s+|by\s+)?{_DATE}"
    ),
    _rx(
        rf"\bdeadline\s*(?:is|was|will\s+be|:|=|-)?\s*(?:on\s+|by\s+|set\s+for\s+)?{_DATE}"
        r"(?:\s+for\s+(?P<thing>[^,\x00]{1,80}))?"
    ),
    _rx(
        rf"\b(?:(?P<thing>[^,\x00]{{1,80}}?)\s+(?:is\s+|are\s+|was\s+|'s\s+|will\s+be\s+)?)?due\s+"
        rf"(?:on\s+|by\s+|before\s+|for\s+)?(?:the\s+)?{_DATE}"
    ),
]
_DEADLINE_FR: list[re.Pattern[str]] = [
    _rx(
        rf"\b(?:la\s+)?date\s+limite\s+(?P<prep>pour|de|du|des|d')\s*(?P<thing>[^,\x00]{{1,80}}?)\s*"
        rf"(?:est|sera|:|,|=)?\s*(?:fixée\s+)?(?:le\s+|au\s+|pour\s+)?{_DATE}"
    ),
    _rx(
        rf"\b(?:la\s+)?(?P<word>date\s+limite|échéance|deadline)\s*(?:est|sera|:|,|=)?\s*(?:fixée\s+)?"
        rf"(?:le\s+|au\s+|pour\s+)?{_DATE}"
    ),
    _rx(
        rf"\b(?P<thing>[^,\x00]{{1,80}}?)\s+(?:est|sont)\s+(?:à\s+rendre|dûe?s?|dus|prévue?s?\s+pour)\s+"
        rf"(?:pour\s+|avant\s+|le\s+)?(?:le\s+)?{_DATE}"
    ),
    _rx(
        rf"\b(?P<thing>[^,\x00]{{1,80}}?)\s+(?:doit|doivent)\s+être\s+(?:rendue?s?|livrée?s?|fini[es]*|"
        rf"terminée?s?|envoyée?s?)\s+(?:pour\s+|avant\s+|le\s+|d'ici\s+)?(?:le\s+)?{_DATE}"
    ),
]
_DUE_TRIGGER = _rx(
    rf"\b(?:by|before|no\s+later\s+than|not\s+later\s+than|pour|avant|d'ici|au\s+plus\s+tard)\s+"
    rf"(?:the\s+|le\s+|la\s+)?{_DATE}|\b(?:todo|to-do|to\s+do\s*:|à\s+faire)\b"
)
_OBLIGATION = _rx(
    r"\b(?:i|we)\s+(?:really\s+|still\s+|also\s+)?(?:need\s+to|have\s+to|must|gotta|got\s+to|'ve\s+got\s+to|"
    r"have\s+got\s+to|am\s+supposed\s+to|'m\s+supposed\s+to|are\s+supposed\s+to|promised\s+to)\b|"
    r"\b(?:je\s+dois|on\s+doit|nous\s+devons|il\s+faut|faut\s+que|je\s+vais\s+devoir|il\s+me\s+faut)\b|"
    r"\bremind\s+me\b|\brappelle-moi\b"
)
_THING_BAD = _rx(
    r"\b(?:i|we|you|have|has|need|needs|must|which|that|je|j'|tu|nous|dois|doit|faut|qui|que)\b|^(?:it|this|that|ça|"
    r"ce|c')$"
)
_SUBJECT_START_EN = _rx(r"\b(?:i|we|my|our|let's)\b")
_SUBJECT_START_FR = _rx(r"\b(?:je|j'|nous|on|mon|ma|mes)\b")


def _generic(c: _Clause, s: str) -> str:
    """The whole clause rewritten in the third person, starting at its subject when no date is lost."""
    text = _LEADING_FILLER.sub("", c.text).strip()
    m = (_SUBJECT_START_FR if c.fr else _SUBJECT_START_EN).search(text)
    if m and "\x00" not in text[: m.start()]:
        text = text[m.start() :]
    return _cap(_rewrite(_tail(text) or text, s, c.fr))


def _rule_deadline(c: _Clause, s: str) -> list[_Item]:
    if not c.dates or _blocked(c, len(c.text)):
        return []
    conf = _conf(c, 0.75)
    for rx in _DEADLINE_EN:
        m = rx.search(c.text)
        if m:
            return [_deadline_item(c, s, m, False, conf)]
    for rx in _DEADLINE_FR:
        m = rx.search(c.text)
        if m:
            return [_deadline_item(c, s, m, True, conf)]
    if _DUE_TRIGGER.search(c.text) or _OBLIGATION.search(c.text):
        return [_Item(_generic(c, s), MemoryType.TODO, _conf(c, 0.7), [c.text])]
    return []


def _deadline_item(c: _Clause, s: str, m: re.Match[str], fr: bool, conf: float) -> _Item:
    n = m.group("n")
    thing = _tail(m.groupdict().get("thing"))
    thing = _LEADING_FILLER.sub("", thing).strip()
    if thing and (_THING_BAD.search(thing) or len(thing.split()) > 8):
        return _Item(_generic(c, s), MemoryType.TODO, conf, [c.text])
    label = "Date limite" if fr else "Deadline"
    if fr and (word := m.groupdict().get("word")) and word.lower() == "échéance":
        label = "Échéance"
    if not thing:
        return _Item(f"{label}{' :' if fr else ':'} {_bare(n)}", MemoryType.TODO, conf, [])
    if re.match(r"(?i)(?:the|a|an|this|that|le|la|les|l'|ce|cette)\b", thing):
        thing = thing[:1].lower() + thing[1:]
    body = _rewrite(thing, s, fr)
    if fr:
        prep = (m.groupdict().get("prep") or "pour").lower()
        glue = "" if prep.endswith("'") else " "
        return _Item(f"Date limite {prep}{glue}{body} : {_bare(n)}", MemoryType.TODO, conf, [thing])
    return _Item(f"Deadline for {body}: {_bare(n)}", MemoryType.TODO, conf, [thing])


# --- goals

_GOAL_EN = _rx(
    r"\bi(?:\s+|(?='))(?:really\s+|also\s+|still\s+|seriously\s+|eventually\s+|finally\s+|one\s+day\s+|"
    r"someday\s+|definitely\s+)*(?P<verb>want\s+to|wanna|plan\s+to|intend\s+to|hope\s+to|aim\s+to|"
    r"dream\s+of|dream\s+about|would\s+(?:really\s+)?(?:like|love)\s+to|'d\s+(?:really\s+)?(?:like|love)\s+to|"
    r"(?:am|'m)\s+(?:really\s+|still\s+|currently\s+)?(?:trying\s+to|planning\s+to|planning\s+on|aiming\s+to|"
    r"aiming\s+for|hoping\s+to|working\s+towards?|saving\s+(?:up\s+)?for|learning|training\s+for)|"
    r"want\s+(?=(?:a|an|my|some)\s))\s*" + _X
)
_GOAL_EN_VERB = {
    "want to": "wants to", "wanna": "wants to", "plan to": "plans to", "intend to": "intends to",
    "hope to": "hopes to", "aim to": "aims to", "dream of": "dreams of", "dream about": "dreams about",
    "want": "wants",
}  # fmt: skip
_GOAL_BAD_EN = frozenset(
    """
    say tell ask know see check thank mention add point clarify understand help apologize apologise confirm
    let share remind figure remember sleep sure have hear talk
    """.split()
)
_GOAL_BAD_EN_RX = _rx(
    r"^(?:go\s+(?:to\s+bed|home|to\s+sleep|now|back)|be\s+(?:honest|clear|sure|fair|careful)|a\s+lot|"
    r"a\s+bit|so\s+much|much|more|something|nothing|things|stuff)\b"
)
_GOAL_MY_EN = _rx(
    r"\bmy\s+(?:(?:main|big|biggest|long[- ]term|short[- ]term|personal|new|current|only|ultimate|next|"
    r"real|true)\s+)*(?P<what>goal|goals|objective|aim|plan|dream|ambition|resolution|target|mission)\s+"
    r"(?:for\s+[^,]{1,30}?\s+|this\s+year\s+)?(?P<be>is|are|was)\s+(?P<to>to\s+)?" + _X
)
_GOAL_FR = _rx(
    r"\b(?P<head>je\s+(?:veux|voudrais|souhaite|souhaiterais|compte|prévois\s+d(?:e\s+|')|"
    r"vais\s+essayer\s+d(?:e\s+|')|essaie\s+d(?:e\s+|')|essaye\s+d(?:e\s+|')|rêve\s+d(?:e\s+|')|"
    r"projette\s+d(?:e\s+|')|cherche\s+à|m'entraîne\s+pour|apprends|travaille\s+sur)|"
    r"j'(?:aimerais|espère|ai\s+l'intention\s+d(?:e\s+|')|ai\s+pour\s+objectif\s+d(?:e\s+|')|apprends|"
    r"économise\s+pour))\s*" + _X
)
_GOAL_BAD_FR = frozenset(
    "sur dire bien savoir pas juste que qu' te vous t' ça voir demander remercier préciser vérifier "
    "comprendre "
    "parler rien".split()
)
_GOAL_MY_FR = _rx(
    r"\b(?P<poss>mon|ma|mes)\s+(?:(?:grand|principal|nouvel|nouveau|vrai|seul|plus\s+grand)\s+)?"
    r"(?P<what>objectif|but|rêve|projet|ambition|résolution|défi|objectifs|buts|rêves|projets)\s+"
    r"(?:principal\s+|pour\s+[^,]{1,30}?\s+|cette\s+année\s+)?(?:est|c'est|sont|,\s*c'est)\s+"
    r"(?P<de>de\s+|d')?" + _X
)


def _rule_goal(c: _Clause, s: str) -> list[_Item]:
    items: list[_Item] = []
    conf = _conf(c, 0.7)
    m = _GOAL_EN.search(c.text)
    if m and not _blocked(c, m.start()):
        x = _tail(m.group("x"))
        if x and _ok_object(x, False, _GOAL_BAD_EN) and not _GOAL_BAD_EN_RX.match(x):
            verb = " ".join(m.group("verb").lower().split())
            if verb.startswith(("'m", "am")):
                third = "is " + verb.split(" ", 1)[1]
            elif verb.startswith(("'d", "would")):
                third = "would " + verb.split(" ", 1)[1].replace("really ", "")
            else:
                third = _GOAL_EN_VERB[verb]
            items.append(_Item(f"{s} {third} {_rewrite_en(x, s, named=True)}", MemoryType.GOAL, conf, [x]))
    m = _GOAL_MY_EN.search(c.text)
    if m and not _blocked(c, m.start()):
        x = _tail(m.group("x"))
        if x and _ok_object(x, False):
            to = "to " if m.group("to") else ""
            content = f"{_poss_en(s)} {m.group('what').lower()} {m.group('be').lower()} {to}"
            items.append(_Item(content + _rewrite_en(x, s, named=True), MemoryType.GOAL, conf, [x]))
    m = _GOAL_FR.search(c.text)
    if m and not _blocked(c, m.start()):
        x = _tail(m.group("x"))
        if x and _ok_object(x, True, _GOAL_BAD_FR):
            head = " ".join(m.group("head").split())
            glue = "" if head.endswith("'") else " "
            items.append(_Item(_rewrite_fr(f"{head}{glue}{x}", s), MemoryType.GOAL, conf, [x]))
    m = _GOAL_MY_FR.search(c.text)
    if m and not _blocked(c, m.start()):
        x = _tail(m.group("x"))
        if x and _ok_object(x, True):
            poss, what = m.group("poss").lower(), m.group("what")
            be = "sont" if poss == "mes" else "est"
            de = m.group("de") or ""
            de = de.strip() + ("" if de.strip().endswith("'") or not de else " ")
            content = _cap(f"{_article(poss, what)}{what} {_de(s)} {be} {de}{_rewrite_fr(x, s, named=True)}")
            items.append(_Item(content, MemoryType.GOAL, conf, [what, x]))
    return items


# --- personal events

_EVENT_EN_VERBS = (
    r"broke|broken|fractured|sprained|injured|hurt|twisted|dislocated|tore|torn|got|gotten|started|finished|"
    r"completed|lost|won|passed|failed|moved|bought|sold|married|graduated|quit|left|joined|adopted|met|"
    r"launched|released|shipped|published|signed|received|became|become|retired|resigned|was\s+promoted|"
    r"was\s+hired|was\s+fired|was\s+laid\s+off|been\s+promoted|been\s+hired|been\s+fired|gave\s+birth|"
    r"had\s+(?:a\s+baby|surgery|an?\s+operation|an?\s+(?:car\s+)?accident|covid|the\s+flu|twins)|ran|"
    r"climbed|visited|travel(?:l)?ed|returned|came\s+back|went|flew|crashed|found|founded|built|created|"
    r"wrote|written|defended|earned|achieved|turned|celebrated|booked|rented|renovated|finally\s+got"
)
_EVENT_EN = _rx(
    r"\bi(?:'ve|\s+have|\s+just|\s+finally|\s+recently|\s+officially|\s+also|\s+actually|\s+already)*\s+"
    rf"(?P<verb>{_EVENT_EN_VERBS})\b(?P<x>.*)"
)
_EVENT_INTRANSITIVE = _rx(
    r"married|graduated|retired|resigned|quit|promoted|hired|fired|laid\s+off|gave\s+birth|had\s+|got\s+"
    r"(?:married|engaged|promoted|hired|fired|divorced)"
)
_EVENT_BAD_EN = _rx(
    r"^\s*(?:it|this|that|you|them|him|her|bored|tired|confused|lost|a\s+question|questions|an?\s+idea|"
    r"time|home|to\s+bed|back\s+to\s+you|used\s+to|stuck|distracted|caught\s+up|sidetracked|nothing|"
    r"something)(?![\w'])|^\s*(?:out|off|on|around|up|down|through|over)(?![\w'])(?!\s*\x00)"
)
_EVENT_FR: list[re.Pattern[str]] = [
    _rx(
        r"\bje\s+(?:me\s+suis|m'suis)\s+(?:\w+ment\s+)?(?P<v>cassée?|foulée?|fait\s+mal|fait\s+opérer|mariée?|"
        r"pacsée?|fiancée?|installée?|inscrite?|blessée?|fracturée?|fait\s+virer|fait\s+licencier|"
        r"lancée?\s+dans|remise?\s+(?:à|au))\b(?P<x>.*)"
    ),
    _rx(
        r"\bj'ai\s+(?:enfin\s+|récemment\s+|finalement\s+|déjà\s+|officiellement\s+)?(?P<v>obtenu|trouvé|"
        r"perdu|gagné|réussi|raté|acheté|vendu|déménagé|commencé|fini|terminé|quitté|rejoint|adopté|rencontré|"
        r"visité|lancé|publié|signé|reçu|démissionné|accouché|eu\s+(?:un\s+bébé|une\s+promotion|mon|ma|"
        r"un\s+accident|un\s+nouveau|une\s+nouvelle|des\s+jumeaux)|été\s+(?:promue?|embauchée?|licenciée?|"
        r"virée?|opérée?|acceptée?|admise?|diplômée?)|passé\s+(?:mon|ma|mes|le|la|l')|couru|fêté|écrit|"
        r"construit|créé|fondé|soutenu|cassé)\b(?P<x>.*)"
    ),
    _rx(
        r"\bje\s+suis\s+(?:enfin\s+|finalement\s+)?(?P<v>allée?|partie?|devenue?|rentrée?|revenue?|tombée?|"
        r"arrivée?|diplômée?|retraitée?)\b(?P<x>.*)"
    ),
]
_EVENT_BAD_FR = _rx(r"^\s*(?:ça|cela|ceci|te\b|toi|vous)")
_GOT_STATE = _rx(r"\s*(?:married|engaged|promoted|hired|fired|divorced)")


def _rule_event(c: _Clause, s: str) -> list[_Item]:
    items: list[_Item] = []
    conf = _conf(c, 0.65)
    m = _EVENT_EN.search(c.text)
    if m and not _blocked(c, m.start()):
        verb = " ".join(m.group("verb").lower().split())
        x = _tail(m.group("x"))
        got_state = verb == "got" and bool(_GOT_STATE.match(m.group("x")))
        ok_empty = bool(_EVENT_INTRANSITIVE.match(verb)) or got_state
        got_to = verb == "got" and re.match(r"(?i)\s*to\b", m.group("x"))  # "I got to go"
        bad = got_to or _EVENT_BAD_EN.match(m.group("x"))
        if (x or ok_empty) and not bad and _ok_object(x or "ok", False):
            body = _tail(c.text[m.start() :]) or c.text[m.start() :]
            items.append(_Item(_cap(_rewrite_en(body, s)), MemoryType.EVENT, conf, [x or verb]))
    for rx in _EVENT_FR:
        m = rx.search(c.text)
        if m and not _blocked(c, m.start()) and not _EVENT_BAD_FR.match(m.group("x")):
            body = _tail(c.text[m.start() :]) or c.text[m.start() :]
            key = m.group("x") or m.group("v")
            items.append(_Item(_cap(_rewrite_fr(body, s)), MemoryType.EVENT, conf, [key]))
            break
    return items


# --- other dated events ("my exam is on 3 June")

_EVENT_CUE = _rx(
    r"\b(?:exams?|tests?|interview|meeting|appointment|flight|trip|holidays?|vacation|party|birthday|wedding|"
    r"launch|release|demo|presentation|conference|concert|surgery|operation|call|dinner|lunch|match|game|"
    r"review|standup|retro|workshop|webinar|hackathon|ceremony|funeral|graduation|show|festival|session|"
    r"class|lesson|course|training|onboarding|kick-?off|appt|examen|partiel|contrôle|entretien|réunion|"
    r"rendez-vous|rdv|vol|voyage|vacances|fête|soirée|anniversaire|mariage|lancement|démo|présentation|"
    r"conférence|opération|appel|dîner|déjeuner|atelier|séminaire|cérémonie|soutenance|cours|formation|"
    r"déménagement|dentiste|médecin)\b"
    r"|\bi(?:'m|\s+am|'ll|\s+will)?\s+(?:fly|flying|leave|leaving|travel|travelling|traveling|move|moving|"
    r"visit|visiting|arrive|arriving|return|returning|coming\s+back|off\s+to|starting|start)\b"
    r"|\bje\s+(?:pars|rentre|reviens|déménage|commence|arrive|prends\s+l'avion|vais\s+à|serai)\b"
)


def _rule_dated_event(c: _Clause, s: str) -> list[_Item]:
    if not c.dates or not _EVENT_CUE.search(c.text) or _blocked(c, len(c.text)):
        return []
    return [_Item(_generic(c, s), MemoryType.EVENT, _conf(c, 0.6), [c.text])]


# Statement rules, in priority order; a remembered request re-runs them on its inner text.
_STATEMENT_RULES: list[_Rule] = [
    _rule_name,
    _rule_family,
    _rule_identity,
    _rule_preference,
    _rule_decision,
    _rule_deadline,
    _rule_goal,
    _rule_event,
]

# Cheap gate: clauses with none of these words cannot match any rule, so most text skips the regex battery.
_GATE = _rx(
    r"\b(?:i|i'm|i've|i'd|my|me|we|we're|we've|we'll|let's|let|our|decision|decided|deadline|due|todo|to-do|"
    r"remember|forget|note|save|remind|call|keep|bear|memori[sz]e|write|je|j'|moi|mon|ma|mes|nous|on|"
    r"c'est|décision|date|échéance|rendre|être|pour|avant|d'ici|n'oublie|n'oubliez|souviens|souvenez|"
    r"rappelle|rappelez|retiens|retenez|retenir|notez|noter|mémorise|garde|gardez|enregistre|"
    r"tu|vous|peux|pouvez|partons|allons-y|il|faut)(?![\w])|\bj'|\x00"
)


def _process_clause(c: _Clause, s: str) -> list[_Item]:
    if not _GATE.search(c.text):
        return []
    items = _rule_request(c, s)
    if items:
        return items
    for rule in _STATEMENT_RULES:
        items.extend(rule(c, s))
    if not items:
        items = _rule_dated_event(c, s)
    return items


def _finish(item: _Item, c: _Clause, s: str) -> Extracted | None:
    content, event_at = _expand(item.content, c.dates)
    content = " ".join(content.split()).strip(" ,;:-")
    if not content or not any(ch.isalnum() for ch in content):
        return None
    if len(content) > _MAX_CONTENT:
        content = content[: _MAX_CONTENT - 1].rsplit(" ", 1)[0].rstrip(" ,;:-") + "…"
    expires_at = event_at + _TODO_GRACE if item.memory_type is MemoryType.TODO and event_at else None
    subjects = _subjects(s, item.tags, item.keys)
    conf = min(1.0, max(0.0, item.confidence))
    return Extracted(
        content,
        item.memory_type,
        subjects,
        conf,
        expires_at=expires_at,
        event_at=event_at,
        given_name=item.given_name,
    )


def _extract(text: str, speaker: str, now: datetime | None) -> list[Extracted]:
    if not isinstance(text, str) or not text.strip():
        return []
    now = now or datetime.now(UTC)
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    s = _clean_speaker(speaker)
    results: list[Extracted] = []
    seen: set[str] = set()
    done: set[str] = set()
    budget = _MAX_CLAUSES
    for sentence, question in _sentences(_clean_input(text)):
        if question and not _POLITE_REQUEST.search(sentence):
            continue
        for raw, before in _clauses(sentence[: _MAX_CLAUSE * 4]):
            budget -= 1
            if budget < 0 or len(results) >= _MAX_RESULTS:
                return results
            raw = raw[:_MAX_CLAUSE]
            if raw in done:
                continue  # identical clauses give identical memories
            done.add(raw)
            fr = _looks_french(raw)
            past = bool(_PAST.search(raw))
            work, dates = _dates(raw, now, fr, past)
            clause = _Clause(work, raw, before, fr, past, dates)
            for item in _process_clause(clause, s):
                done_item = _finish(item, clause, s)
                if done_item is None:
                    continue
                key = done_item.content.casefold()
                if key not in seen:
                    seen.add(key)
                    results.append(done_item)
    return results[:_MAX_RESULTS]


def resolve_relative_dates(text: str, now: datetime) -> str:
    """`text` with each date expression written as the date it means at `now`, sentence by sentence.

    "Alice's exam is next Friday" said on 24 November 2026 reads "Alice's exam is on Friday 4
    December 2026"; "last week" becomes "in the week of Monday 16 November 2026", "le mois
    dernier" "en octobre 2026". Text that is already absolute comes back unchanged, so applying
    it twice changes nothing. Never raises: on unexpected input the text is returned as it was.
    """
    try:
        out: list[str] = []
        pos = 0
        for match in _SENTENCE_SPLIT.finditer(text):
            out.append(_resolve_sentence(text[pos : match.start()], now))
            out.append(match.group(0))
            pos = match.end()
        out.append(_resolve_sentence(text[pos:], now))
        return "".join(out)
    except Exception:  # a date rule must never cost a memory
        return text


def date_mentions(text: str, now: datetime) -> list[tuple[date, str]]:
    """Every date expression of `text` as (the day meant, or the first day of the period, and its
    unit: day, week, weekend, month or year), in order: what the rules understood."""
    found: list[tuple[date, str]] = []
    for sentence in _SENTENCE_SPLIT.split(_clean_input(text)):
        _, dates = _dates(sentence, now, _looks_french(sentence), bool(_PAST.search(sentence)))
        found.extend((when.day, when.unit) for when in dates if when.day is not None)
    return found


def _resolve_sentence(sentence: str, now: datetime) -> str:
    if not sentence or "\x00" in sentence or "\x01" in sentence:
        return sentence
    fr, past = _looks_french(sentence), bool(_PAST.search(sentence))
    work, dates = _dates(sentence, now, fr, past, relative_only=True)
    return _expand(work, dates)[0] if dates else sentence


def renamed(content: str, old_names: Sequence[str], new_name: str) -> str:
    """`content` calling its subject `new_name` where it called them by one of `old_names`: at the
    start ("Root broke…", "Root's…"), and after "de"/"d'"/"for"/"pour" ("La fille de Root…")."""
    for old in old_names:
        pattern = re.compile(
            rf"(?:(?<=^)|(?<=\bde\s)|(?<=\bd')|(?<=\bfor\s)|(?<=\bpour\s)){re.escape(old)}(?=$|[\s',.;:!?])",
            re.IGNORECASE,
        )
        content = pattern.sub(lambda _m: new_name, content)
    return content


def extract(text: str, speaker: str, now: datetime | None = None) -> list[Extracted]:
    """Memories stated in one chat message by `speaker`, rewritten in the third person.

    Pure and offline: English and French regex heuristics for identity, preferences, decisions,
    deadlines and dated events, explicit "remember that ..." requests, goals and personal events.
    Relative dates ("Friday", "demain", "12 March") are resolved against `now` (default: now, UTC).
    Never raises: on unexpected input it returns what it could extract, or nothing.
    """
    try:
        found = _extract(text, speaker, now)
        # "My name is Mickael and I broke my shoulder": the rest already says "Mickael".
        named = next((e.given_name for e in found if e.given_name), None)
        if named is None or named.casefold() == _clean_speaker(speaker).casefold():
            return found
        again = [e for e in _extract(text, named, now) if e.given_name is None]
        return [e for e in found if e.given_name is not None] + again
    except Exception:  # a heuristic must never break the write path; the LLM path still runs
        return []
