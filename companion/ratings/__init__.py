"""Ratings and statistics over the whole history: who plays best (Weng-Lin ratings through the
``openskill`` library), partners and rivals, and the figures of a kind played by pairs.

- ``contests``: what a session gives (pure): its finished contests (a match between two pairs, any other
  kind's ended game ranking its players by net), as each kind says (``Kind.contest``, ``Kind.rated_pairs``).
- ``rating``: the rating model and the replay of contests in date order (pure).
- ``tally``: partners, opponent pairs, head-to-head and the pairs' figures summed over contests (pure).
- ``derived``: what the derived tables hold, worked out (pure): a session's share, what changed, the
  ratings replayed over a run of contests. ``companion.storage.ratings_store`` keeps the tables up to date
  with it (and ``storage.ratings_tables`` holds their SQL): nothing here touches the database.
"""
