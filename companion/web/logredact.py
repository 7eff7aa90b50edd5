"""Capability links never reach a log: a token in a logged path (``/s/<token>/...``) or an admin token in a
query string is replaced before the line is written (a server log is read by people who must not score)."""
from __future__ import annotations

import logging
import re

TOKEN = re.compile(r"(/s/)[A-Za-z0-9_\-]{8,}|((?:\?|&)token=)[^\s&]+")


def redact(text: str) -> str:
    return TOKEN.sub(lambda m: (m.group(1) or m.group(2)) + "…", text)


class Redact(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def install(*loggers: logging.Logger) -> None:
    for logger in loggers:
        if not any(isinstance(f, Redact) for f in logger.filters):
            logger.addFilter(Redact())
