"""What a text heuristic that raised leaves in the logs: its kind and where it raised, never the text."""

from __future__ import annotations

import logging
import sys
import traceback

log = logging.getLogger("memory.text")


def log_heuristic_failure(heuristic: str) -> None:
    """Log the exception being handled as a failed `heuristic` ("extraction", "aliases", "dates").

    The heuristics never raise to their callers (a turn must go on), so this is the only trace a
    broken rule leaves. The exception's message may quote the message read, so it is left out:
    its type and the line that raised say which rule to look at.
    """
    error = sys.exc_info()[1]
    if error is None:
        return
    frames = traceback.extract_tb(error.__traceback__)
    where = f"{frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}" if frames else ""
    log.warning(
        "text heuristic failed", extra={"heuristic": heuristic, "error": type(error).__name__, "where": where}
    )
