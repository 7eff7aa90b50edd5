"""A club night, pure (no Flask, no SQLite): the result of a round's match (``results``), the standings
with every tie-break of ``rules/club.md`` (``standings``), the round proposals (``proposals``), the session
file's ``club`` object (``shape``) and what the state says of the night (``night``).

A tournament in stages (``rules/tournament.md``): the plan and each stage read from its games (``stages``),
groups (``groups``), brackets (``knockout``), the night's classification (``classification``), the state
(``tournament``), the proposals of a stage (``stage_proposals``) and the organizer's setup (``setup``)."""
