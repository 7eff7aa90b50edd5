"""Session files and archives read in bounded memory and time.

A request's cost stays proportional to its size. Bytes are not enough: 25 KB of zip inflate to an 8 MB
file of 466,021 hands, and parsing and replaying those costs seconds and a gigabyte. So work is limited
too, and counted before anything is parsed: every JSON object (``{``) is an entry (a hand, a deal, a
game, a payment, or something inside one); ``bytes.count`` finds them at memory speed.

- one session file: at most ``MAX_ENTRIES_PER_FILE`` entries, ``MAX_GAMES_PER_SESSION`` games,
  ``MAX_HANDS_PER_GAME`` hands (or deals) in a game and ``MAX_HANDS_PER_SESSION`` in all;
- an archive: at most ``ENTRIES_FREE + ENTRIES_PER_BYTE`` × (its size in bytes) entries in all (an export
  of Companion holds far fewer per byte: its indented JSON compresses about as well as it repeats), and
  at most ``MAX_ARCHIVE_ENTRIES``.

An archive is read twice, one file at a time: first only inflated and counted (nothing parsed), then each
file is parsed, checked, stored and dropped in turn, all inside one transaction (``service.create_many``
takes the sessions as they come): a bad file anywhere leaves nothing imported.
"""
from __future__ import annotations

import zipfile
import zlib
from collections.abc import Iterator
from typing import BinaryIO

from companion.domain.errors import RuleError
from companion.domain.messages import N_, NP_, define, msg
from companion.record.session import Session, load

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_ARCHIVE_FILES = 10_000
MAX_ARCHIVE_BYTES = 256 * 1024 * 1024
MAX_HANDS_PER_GAME = 5_000             # a long night of one game is a few hundred
MAX_GAMES_PER_SESSION = 200
MAX_GAMES_CLUB = 2_000                 # a session with ``club`` (rules/tournament.md, "Scale")
MAX_HANDS_PER_SESSION = 20_000
MAX_ENTRIES_PER_FILE = 45_000          # a full session: 20,000 hands, each holding an object or two
ENTRIES_FREE = 25_000                  # an archive may always hold a few long nights ...
ENTRIES_PER_BYTE = 4                   # ... and 4 entries per byte of zip (an export: ~1; 466,021 hands in 14 KB: 33)
MAX_ARCHIVE_ENTRIES = 5_000_000
ITEM_LISTS = ("hands", "deals")
CHUNK = 256 * 1024        # what each kind's game object calls its list of items

define("limits", {
    "entries": N_("the file holds %(count)s entries, at most %(max)s: this is not a session of one night"),
    "games": N_("a session holds at most %(max)s games (%(count)s given)"),
    "hands_game": N_("a game holds at most %(max)s hands or deals (%(count)s given)"),
    "hands_session": N_("a session holds at most %(max)s hands or deals in all (%(count)s given)"),
})
define("archive", {
    "not_zip": N_("This is not a zip file."),
    "empty": N_("The zip holds no session file."),
    "too_many": NP_("The zip holds %(n)s file: at most %(max)s at once.",
                    "The zip holds %(n)s files: at most %(max)s at once.", "n"),
    "not_json": N_("%(name)s: not a session file (.json expected)."),
    "too_large": N_("%(name)s: too large."),
    "damaged": N_("%(name)s: cannot be read, the zip is damaged."),
    "bad_file": N_("%(name)s: %(path)s: %(why)s"),
    "work": N_("%(name)s: the archive unpacks to more entries than its size allows (more than %(max)s): "
               "this is not an export of Companion, or import it in smaller parts."),
})


# ----------------------------------------------------------------------------------------------------
# one session file

def count_entries(data: bytes) -> int:
    """An upper bound of the JSON objects in ``data`` (a ``{`` inside a string counts too)."""
    return data.count(b"{")


def check_work(doc) -> int:
    """Games and hands of a parsed session file within the limits (before any game is played); returns
    the number of hands and deals. RuleError names the JSON path."""
    games = doc.get("games") if isinstance(doc, dict) else None
    if not isinstance(games, list):
        return 0                                     # load() says what is wrong with it
    most = MAX_GAMES_CLUB if doc.get("club") is not None else MAX_GAMES_PER_SESSION
    if len(games) > most:
        raise RuleError("limits.games", "games", max=most, count=len(games))
    total = 0
    for gi, game in enumerate(games):
        if not isinstance(game, dict):
            continue
        for key in ITEM_LISTS:
            items = game.get(key)
            if isinstance(items, list):
                if len(items) > MAX_HANDS_PER_GAME:
                    raise RuleError("limits.hands_game", f"games[{gi}].{key}", max=MAX_HANDS_PER_GAME,
                                    count=len(items))
                total += len(items)
    if total > MAX_HANDS_PER_SESSION:
        raise RuleError("limits.hands_session", "games", max=MAX_HANDS_PER_SESSION, count=total)
    return total


def read_session(data: bytes | str) -> Session:
    """A session file's bytes, parsed, limited and checked (web import, archive, command line): the one
    reader, ``session.read_file``, with the work limits first."""
    from companion.domain.jsonparse import parse_document

    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    entries = count_entries(raw)
    if entries > MAX_ENTRIES_PER_FILE:
        raise RuleError("limits.entries", "$", count=entries, max=MAX_ENTRIES_PER_FILE)
    doc = parse_document(data)
    check_work(doc)
    return load(doc)


# ----------------------------------------------------------------------------------------------------
# an archive (a zip of session files)

class ArchiveError(ValueError):
    """The archive is refused: ``msg`` says why (naming the file)."""

    def __init__(self, m: dict):
        super().__init__(m["code"])
        self.msg = m


_DAMAGED = (zipfile.BadZipFile, RuntimeError, NotImplementedError, zlib.error, EOFError, OSError, ValueError)


def _members(zf: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    infos = [i for i in zf.infolist()
             if not i.is_dir() and not i.filename.startswith("__MACOSX/")
             and not i.filename.rsplit("/", 1)[-1].startswith(".")]
    if not infos:
        raise ArchiveError(msg("archive.empty"))
    if len(infos) > MAX_ARCHIVE_FILES:
        raise ArchiveError(msg("archive.too_many", n=len(infos), max=MAX_ARCHIVE_FILES))
    declared = 0
    for info in infos:
        name = info.filename[:200]
        if not name.lower().endswith(".json"):
            raise ArchiveError(msg("archive.not_json", name=name))
        declared += info.file_size
        if info.file_size > MAX_FILE_BYTES or declared > MAX_ARCHIVE_BYTES:
            raise ArchiveError(msg("archive.too_large", name=name))
    return infos


def _read(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """One member's bytes, never more than MAX_FILE_BYTES (the declared size may lie)."""
    name = info.filename[:200]
    try:
        with zf.open(info) as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    # a damaged zip fails inside the decompressor (zlib.error, EOFError), not only as BadZipFile;
    # zipfile raises NotImplementedError for a compression method it does not know
    except _DAMAGED:
        raise ArchiveError(msg("archive.damaged", name=name)) from None
    if len(data) > MAX_FILE_BYTES:
        raise ArchiveError(msg("archive.too_large", name=name))
    return data


def budget(size: int) -> int:
    """The entries an archive of ``size`` bytes may hold."""
    return min(MAX_ARCHIVE_ENTRIES, ENTRIES_FREE + ENTRIES_PER_BYTE * max(0, size))


def _count(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[int, int]:
    """(bytes, entries) of one member, inflated a chunk at a time: never held whole."""
    name = info.filename[:200]
    size = entries = 0
    try:
        with zf.open(info) as fh:
            while chunk := fh.read(CHUNK):
                size += len(chunk)
                entries += count_entries(chunk)
                if size > MAX_FILE_BYTES:
                    raise ArchiveError(msg("archive.too_large", name=name))
    except _DAMAGED:
        raise ArchiveError(msg("archive.damaged", name=name)) from None
    return size, entries


def _measure(zf: zipfile.ZipFile, infos: list[zipfile.ZipInfo], size: int) -> None:
    """First pass: every file inflated and its entries counted, a chunk at a time; nothing parsed."""
    allowed, total, inflated = budget(size), 0, 0
    for info in infos:
        name = info.filename[:200]
        nbytes, entries = _count(zf, info)
        inflated += nbytes
        if inflated > MAX_ARCHIVE_BYTES:
            raise ArchiveError(msg("archive.too_large", name=name))
        if entries > MAX_ENTRIES_PER_FILE:
            why = msg("limits.entries", count=entries, max=MAX_ENTRIES_PER_FILE)
            raise ArchiveError(msg("archive.bad_file", name=name, path="$", why=why))
        total += entries
        if total > allowed:
            raise ArchiveError(msg("archive.work", name=name, max=allowed))


def sessions_of(zf: zipfile.ZipFile, infos: list[zipfile.ZipInfo]) -> Iterator[Session]:
    """Second pass: each file parsed and checked as it is needed, then dropped."""
    for info in infos:
        name = info.filename[:200]
        data = _read(zf, info)
        try:
            sess = read_session(data)
        except RuleError as err:
            raise ArchiveError(msg("archive.bad_file", name=name, path=err.path or "$", why=err.msg)) from None
        del data
        yield sess


def open_zip(stream: BinaryIO) -> tuple[zipfile.ZipFile, list[zipfile.ZipInfo], int]:
    """The zip in ``stream`` (seekable: an upload is spooled to disk), its session files, its size."""
    stream.seek(0, 2)
    size = stream.tell()
    stream.seek(0)
    try:
        zf = zipfile.ZipFile(stream)
    except (zipfile.BadZipFile, OSError, ValueError):
        raise ArchiveError(msg("archive.not_zip")) from None
    try:
        return zf, _members(zf), size
    except ArchiveError:
        zf.close()
        raise


def import_zip(db, stream: BinaryIO, *, browser: str, key: str | None) -> int:
    """Import every session of the zip in ``stream`` in one transaction, or none (ArchiveError says why).
    Returns how many sessions the zip holds (a retry with the same ``key`` imports nothing more)."""
    from companion import service    # not at the top: the command line's ``state`` reads files without SQLite

    zf, infos, size = open_zip(stream)
    with zf:
        _measure(zf, infos, size)
        service.create_many(db, sessions_of(zf, infos), key=key, browser=browser)
    return len(infos)
