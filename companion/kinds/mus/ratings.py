"""Mus in the ratings (``Kind.rated_pairs``): a match is between two pairs, each pair rated as one side too
(partners, opponent pairs, the pairs' board), and its hands recorded with their bids give the figures of
"Mus by the numbers", per team. The ratings pages say it in the words below (message templates marked for
the catalogs; the pages translate them)."""
from __future__ import annotations

from companion.domain.messages import N_
from companion.kinds.base import GameRec
from companion.kinds.mus.options import effective

LANCES = ("grande", "chica", "pares", "juego")      # the lances bid ("punto" is counted with juego)

# the ratings pages' sentences about Mus, by role (companion/web/ratings.py, templates/ratings*.html)
WORDS = {
    "pairs": N_("Mus pairs"),
    "pairs_caption": N_("Mus pairs by rating, best first"),
    "as_partners": N_("Mus, as partners"),
    "best_partner": N_("Best partner: %(name)s, %(won)s of %(played)s Mus matches won together."),
    "no_partner": N_("Best partner: nobody yet with %(n)s Mus matches together."),
    "toughest": N_("Toughest opponents: %(name)s, %(lost)s of %(played)s Mus matches lost against them."),
    "partners_caption": N_("Mus matches with each partner"),
    "numbers": N_("Mus by the numbers"),
    "no_numbers": N_("No Mus hand recorded with bids yet."),
}


class MusRatings:
    words = WORDS

    def numbers(self, rec: GameRec) -> dict[str, dict[str, int]]:
        return numbers(rec)


NUMBERS = ("hands", "envites", "envites_seen", "faced", "accepted", "folds", "ordagos", "ordagos_accepted",
           "ordagos_seen", "ordagos_won", "pts_grande", "pts_chica", "pts_pares", "pts_juego", "games",
           "games_from_dentro", "full_games", "full_game_hands")


def numbers(rec: GameRec) -> dict[str, dict[str, int]]:
    """{"A": {figure: count}, "B": ...} for one Mus game (a match), over its closed hands.

    - hands: closed hands recorded with their bids (tally hands and adjustments are results only);
    - envites / envites_seen: the team's bets and raises, and how many of them the other team called;
    - faced / accepted / folds: the other team's bets and raises the team answered, called, folded to;
    - ordagos / ordagos_accepted: órdagos the team called / accepted; ordagos_seen: órdagos played out
      (accepted by either side) with the team in them, ordagos_won: of those, the ones it won;
    - pts_<lance>: points the team scored in that lance (juego includes punto);
    - games / games_from_dentro: finished games the team won, and of those the ones won after the other
      team was "dentro" (within 5 points of the target);
    - full_games / full_game_hands: finished games in which every hand had its bids, and their hands
      (the average hands per game rests on these)."""
    out = {t: dict.fromkeys(NUMBERS, 0) for t in ("A", "B")}
    target = effective(rec.head["rules"])["target"]
    high = {"A": 0, "B": 0}          # the highest score of each team in the game being played
    game_hands, game_tally = 0, False
    for item in rec.items:
        body, result = item.body, item.result
        if result is None or "open" in body:
            continue
        is_adjust = "adjust" in body
        bids = not is_adjust and "tally" not in body
        if not is_adjust:
            game_hands += 1
            game_tally = game_tally or not bids
        if bids:
            for t in ("A", "B"):
                out[t]["hands"] += 1
            _bids(body, result, out)
        score = dict(result["score_before"])
        for aw in result["awards"]:
            if bids and aw["lance"] in ("grande", "chica", "pares", "juego", "punto"):
                lance = "juego" if aw["lance"] == "punto" else aw["lance"]
                out[aw["team"]][f"pts_{lance}"] += aw["points"]
            score[aw["team"]] = max(0, score[aw["team"]] + aw["points"])
            high[aw["team"]] = max(high[aw["team"]], score[aw["team"]])
        ended = result.get("ended_game")
        if ended:
            w = ended["winner"]
            lost = "B" if w == "A" else "A"
            out[w]["games"] += 1
            if high[lost] >= target - 5:
                out[w]["games_from_dentro"] += 1
            if not game_tally:
                for t in ("A", "B"):
                    out[t]["full_games"] += 1
                    out[t]["full_game_hands"] += game_hands
            high = {"A": 0, "B": 0}
            game_hands, game_tally = 0, False
    return out


def _bids(body: dict, result: dict, out: dict) -> None:
    for lance in LANCES:
        steps = body.get(lance) or []
        for i, step in enumerate(steps):
            t = step["team"]
            o = "B" if t == "A" else "A"
            answer = steps[i + 1] if i + 1 < len(steps) else None
            if "bet" in step or "raise" in step:
                out[t]["envites"] += 1
                if answer is not None:
                    out[o]["faced"] += 1
                    if "call" in answer:
                        out[t]["envites_seen"] += 1
                        out[o]["accepted"] += 1
            elif "ordago" in step:
                out[t]["ordagos"] += 1
                if answer is not None and "call" in answer:
                    out[o]["ordagos_accepted"] += 1
                    out[t]["ordagos_seen"] += 1
                    out[o]["ordagos_seen"] += 1
            elif "fold" in step:
                out[t]["folds"] += 1
    ended = result.get("ended_game")
    if ended and ended["by"] == "ordago":
        out[ended["winner"]]["ordagos_won"] += 1


RATED_PAIRS = MusRatings()
