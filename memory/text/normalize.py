"""Cleans raw chat text before any rule reads it, and tells French from English."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["MAX_INPUT_CHARS", "clean_speaker", "clean_text", "looks_french", "regex"]

# Chat messages are short; a pasted document is not a statement, so only its start is read.
MAX_INPUT_CHARS = 200_000
_MAX_SPEAKER_CHARS = 64


def regex(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled case-insensitively: every rule reads chat, where case means little."""
    return re.compile(pattern, re.IGNORECASE)


_SURROGATES = re.compile("[\ud800-\udfff]")
# Control, zero-width and bidi-override characters would leak into stored text and confuse the regexes;
# NUL/SOH are also reserved as date placeholders (see dates.py), so they must never survive cleanup.
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]"
)
_TYPOGRAPHIC_QUOTES = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "}
)
_BLANK_RUNS = re.compile(r"[^\S\n]+")


def clean_text(text: str) -> str:
    """`text` bounded, without invisible characters, NFC, straight quotes, one space per blank run."""
    text = _SURROGATES.sub(" ", text[:MAX_INPUT_CHARS])
    text = _INVISIBLE.sub(" ", text)
    text = unicodedata.normalize("NFC", text).translate(_TYPOGRAPHIC_QUOTES).replace("\r", "\n")
    # One space per run: later patterns like "\s*,?\s+" would otherwise backtrack over long blank runs.
    return _BLANK_RUNS.sub(" ", text)


def clean_speaker(speaker: object) -> str:
    """The name memories call the speaker by: printable, one line, no leading @; "User" when empty."""
    name = speaker if isinstance(speaker, str) else ""
    name = " ".join(_INVISIBLE.sub(" ", _SURROGATES.sub(" ", name)).split())[:_MAX_SPEAKER_CHARS]
    name = name.lstrip("@").strip()
    return name or "User"


_FRENCH_WORDS = regex(
    r"\b(?:je|j'|tu|il|elle|nous|vous|ils|le|la|les|un|une|des|du|de|et|est|suis|sont|pour|avant|dans|avec|"
    r"que|qui|pas|mon|ma|mes|c'est|au|aux|demain|aujourd'hui|hier|lundi|mardi|mercredi|jeudi|vendredi|"
    r"samedi|dimanche|janvier|février|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre|"
    # Not "a": English says it more often than French ("I adopted a dog a while ago").
    r"on|ai|ça|très|bien|aussi|mais|ou|sur|chez|moi|m'|n'|l'|d'|qu'|ce|cet|cette|ces|nos|vos|notre|votre|en)(?![\w])"
)
_ENGLISH_WORDS = regex(
    r"\b(?:i|i'm|i've|i'll|you|he|she|we|they|the|an|and|is|am|are|was|for|by|before|in|with|that|who|not|"
    r"my|it's|tomorrow|today|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|"
    r"february|march|april|may|june|july|august|september|october|november|december|to|of|on|it|me|have|"
    r"do|don't|be|this|next|our|us|at|from|like|love)\b"
)
_FRENCH_LETTERS = "éèêàùçâîôœ"


def looks_french(text: str) -> bool:
    """Whether `text` reads as French rather than English: more French function words and accents."""
    french = len(_FRENCH_WORDS.findall(text)) + sum(ch in _FRENCH_LETTERS for ch in text)
    return french > len(_ENGLISH_WORDS.findall(text))
