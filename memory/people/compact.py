"""The compact profile line for the prompt: the most telling values of a profile within a budget."""

from __future__ import annotations

from .profile import FIELDS, Profile, ProfileSection, merged_section, value_key

COMPACT_MAX_CHARS = 300

_PRIORITY = ("location", "job", "like", "dislike", "workplace", "family", "origin", "age", "timezone",
             "relationship", "languages", "diet", "studies", "about")  # fmt: skip
_LISTS = ("like", "dislike", "family", "about")


def _head(section: ProfileSection, profile: Profile, display_name: str | None) -> str:
    fields = section.fields
    name = fields["name"].value if "name" in fields else (display_name or profile.display_name)
    name = name or profile.user_id
    head = name
    nick = fields.get("nickname")
    if nick is not None and value_key(nick.value) != value_key(name):
        head += f' "{nick.value}"'
    if "pronouns" in fields:
        head += f" ({fields['pronouns'].value})"
    return head


def _render(head: str, chosen: dict[str, list[str]]) -> str:
    parts: list[str] = []
    order = ("location", "timezone", "job", "workplace", "origin", "age", "relationship", "languages",
             "studies", "diet", "family", "about", "like", "dislike")  # fmt: skip
    for part in order:
        items = chosen.get(part)
        if not items:
            continue
        if part == "like":
            parts.append("likes " + ", ".join(items))
        elif part == "dislike":
            parts.append("dislikes " + ", ".join(items))
        elif part == "family":
            parts.append("family: " + ", ".join(items))
        elif part == "timezone":
            parts.append("time zone " + items[0])
        else:
            parts.extend(items)
    return f"{head} — {'; '.join(parts)}" if parts else head


def compact(
    profile: Profile | None,
    include_private: bool = False,
    *,
    display_name: str | None = None,
    max_chars: int = COMPACT_MAX_CHARS,
) -> str:
    """One line for the prompt, at most `max_chars` long; "" when nothing is known.

    `include_private` adds what the user said in their DMs: pass True only when the
    conversation is a DM with this very user. `display_name` names the user when no memory
    gave their name. Values are picked by importance (where they live and work, then likes
    and dislikes) until the budget is spent.
    """
    if profile is None:
        return ""
    section = merged_section(profile, include_private)
    if section.is_empty():
        return ""
    head = _head(section, profile, display_name)
    if len(head) >= max_chars:
        return head[: max(0, max_chars - 1)] + "…" if max_chars > 0 else ""
    candidates: dict[str, list[str]] = {
        "like": [e.value for e in section.likes],
        "dislike": [e.value for e in section.dislikes],
        "family": [e.value for e in sorted(section.family.values(), key=lambda e: e.at, reverse=True)],
        "about": [e.value for e in section.about],
    }
    for key in FIELDS:
        if key in section.fields and key not in ("name", "nickname", "pronouns"):
            candidates[key] = [section.fields[key].value]
    chosen: dict[str, list[str]] = {}
    for part in _PRIORITY:
        for item in candidates.get(part, []):
            chosen.setdefault(part, []).append(item)
            if len(_render(head, chosen)) > max_chars:
                chosen[part].pop()
                if part not in _LISTS:
                    break
    return _render(head, chosen)
