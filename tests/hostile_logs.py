"""What every hostile-input test checks in the log: no traceback and no message body at INFO or above."""

from __future__ import annotations

import logging

# In every text a hostile payload carries: a log line at INFO or above that holds it leaked a body.
MARKER = "hostilebody4242"


def assert_clean_logs(records: list[logging.LogRecord], where: str) -> None:
    """No traceback and no message body in a line at INFO or above (a traceback may still be
    had at DEBUG, for whoever asks for it)."""
    for record in records:
        text = record.getMessage() + " " + " ".join(str(v) for v in record.__dict__.values())
        if record.levelno >= logging.INFO:
            assert record.exc_info is None and record.exc_text is None, f"{where}: traceback in {record.name}"
            assert "Traceback" not in text, f"{where}: traceback text in {record.name}"
            assert MARKER not in text, f"{where}: body in an {record.levelname} line of {record.name}"
            assert "Suggestion" not in record.getMessage(), f"{where}: bolt's suggestion text"
