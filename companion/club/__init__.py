"""A club night, pure (no Flask, no SQLite): the result of a round's match, the standings with every
tie-break of ``rules/club.md``, and the round proposals (round robin, Swiss, rotating partners)."""
from .results import match_result, round_matches
from .standings import standings
from .proposals import Proposal, propose

__all__ = ["match_result", "round_matches", "standings", "Proposal", "propose"]
