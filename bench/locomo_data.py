"""The LoCoMo file format: a sample's sessions as timed turns, its scored questions and their evidence ids."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

CATEGORIES = (1, 2, 3, 4)
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
# Turns of one session are this far apart, from the session's date: they keep their order.
TURN_STEP_SECONDS = 15.0

_DATE = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$", re.I)
_MONTHS = {
    name: n
    for n, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_EVIDENCE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)", re.I)


def parse_session_date(text: str) -> datetime:
    """'1:47 pm on 18 May, 2023' -> that minute, in UTC."""
    match = _DATE.match(text)
    if match is None:
        raise ValueError(f"unrecognised LoCoMo session date {text!r}")
    hour, minute, half, day, month, year = match.groups()
    month_number = _MONTHS.get(month.casefold())
    if month_number is None:
        raise ValueError(f"unrecognised month in {text!r}")
    hour_24 = int(hour) % 12 + (12 if half.casefold() == "pm" else 0)
    return datetime(int(year), month_number, int(day), hour_24, int(minute), tzinfo=UTC)


def normalize_evidence(raw: Sequence[str], known: set[str] | None = None) -> list[str]:
    """Evidence ids as "D<session>:<turn>", split and repaired, unique, in order; unknown ones dropped."""
    found: list[str] = []
    for entry in raw:
        for session, turn in _EVIDENCE.findall(str(entry)):
            dia_id = f"D{int(session)}:{int(turn)}"
            if (known is None or dia_id in known) and dia_id not in found:
                found.append(dia_id)
    return found


@dataclass(frozen=True, slots=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    timestamp: float


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    category: int
    evidence: tuple[str, ...]
    # The gold answer ("" when the file has none): `answer_in_block` checks the block shows it.
    answer: str = ""


@dataclass(slots=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    turns: list[Turn]
    questions: list[Question]
    skipped_questions: int = 0


def _session_numbers(conversation: dict[str, Any]) -> list[int]:
    numbers = []
    for key, value in conversation.items():
        match = re.fullmatch(r"session_(\d+)", key)
        if match and isinstance(value, list) and value:
            numbers.append(int(match.group(1)))
    return sorted(numbers)


def parse_conversation(sample: dict[str, Any]) -> Conversation:
    """One LoCoMo sample: its turns in order with times, and its scored questions."""
    conv = sample["conversation"]
    speakers = (str(conv["speaker_a"]), str(conv["speaker_b"]))
    turns: list[Turn] = []
    for number in _session_numbers(conv):
        start = parse_session_date(conv[f"session_{number}_date_time"]).timestamp()
        for n, raw in enumerate(conv[f"session_{number}"]):
            text = str(raw.get("text", "")).strip()
            caption = raw.get("blip_caption")
            if caption:
                text = f"{text} [shares a photo: {caption}]".strip()
            turns.append(Turn(str(raw["dia_id"]), str(raw["speaker"]), text, start + n * TURN_STEP_SECONDS))
    known = {t.dia_id for t in turns}
    questions: list[Question] = []
    skipped = 0
    for qa in sample.get("qa", []):
        category = int(qa.get("category", 0))
        if category not in CATEGORIES:
            continue
        evidence = normalize_evidence(qa.get("evidence", []), known)
        if not evidence:
            skipped += 1
            continue
        answer = qa.get("answer")
        questions.append(
            Question(str(qa["question"]), category, tuple(evidence), "" if answer is None else str(answer))
        )
    return Conversation(str(sample.get("sample_id", "")), speakers, turns, questions, skipped)


def load_conversations(path: Path) -> list[Conversation]:
    """Every sample of a LoCoMo-format JSON file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [parse_conversation(sample) for sample in data]
