"""A club night, pure (no Flask, no SQLite): the result of a round's match (``results``), the standings
with every tie-break of ``rules/club.md`` (``standings``), the round proposals (``proposals``), the session
file's ``club`` object (``shape``) and what the state says of the night (``night``)."""
