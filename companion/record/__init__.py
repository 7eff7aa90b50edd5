"""The record of a night: the session document and its reader, the events and their replay, the
summary and the CSV (above the kinds and the club, which they call)."""
