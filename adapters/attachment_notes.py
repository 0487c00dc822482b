"""What a message's attachments add to its text: "[image: a dog on the couch]", "[attachment: notes.pdf]"."""

from __future__ import annotations

import re

__all__ = ["MAX_NOTE", "attachment_note", "with_notes"]

# An alt text may run to a few thousand characters on either platform; what a picture shows is said
# in its first words, and the note is part of a turn that is searched and shown to the model.
MAX_NOTE = 300
_SPACES = re.compile(r"\s+")
_IMAGE_NAME = re.compile(r"\.(?:png|jpe?g|gif|webp|heic|heif|bmp|avif)$", re.IGNORECASE)


def _plain(value: object) -> str:
    """A field as one line of text ("" when missing or malformed); its brackets cannot close the note."""
    if not isinstance(value, str):
        return ""
    text = _SPACES.sub(" ", value).strip().replace("[", "(").replace("]", ")")
    if len(text) > MAX_NOTE:
        text = text[: MAX_NOTE - 1].rstrip() + "…"
    return text


def attachment_note(name: object, description: object = None, content_type: object = None) -> str | None:
    """The note for one attachment, or None when it says nothing readable.

    A described image is what its description says (the alt text people write for those who cannot
    see it: it is what a later question about the picture will use); any other file is its name,
    with its description when it has one. Fields are read defensively: a payload may hold anything.
    """
    file_name, said = _plain(name), _plain(description)
    if said and (
        (isinstance(content_type, str) and content_type.lower().startswith("image/"))
        or _IMAGE_NAME.search(file_name)
    ):
        return f"[image: {said}]"
    if file_name and said and said != file_name:
        return f"[attachment: {file_name} ({said})]"
    if file_name or said:
        return f"[attachment: {file_name or said}]"
    return None


def with_notes(text: str, notes: list[str]) -> str:
    """`text` with one note per line after it (the text alone when there is none)."""
    return "\n".join([text.strip(), *notes]).strip() if notes else text
