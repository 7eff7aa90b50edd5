"""Properties of the Mus kind over random legal tap sequences (hypothesis), and of hands without cards
nor showdown that end the game in the bidding.

The taps are chosen among the moves the scoring screen offers (``view.page``'s ``ui["types"]``, its teams,
bets and raises), with random declarations and showdowns (the cards, or the winners), and between hands
tally hands, adjustments, hands typed from notes and corrections. After every tap: undo is the exact
inverse (``apply_change(new, inverse)`` gives back the same document, state and results), the record
equals ``KIND.build(KIND.to_doc(rec))`` (replay = cache), the position changes, nothing the tap was given
is mutated, a refused tap changes nothing. At the end: the actions, stored as JSON and read back, replay
to the same record; the log agrees with every hand's points and with the scores."""
import copy
import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.kinds.base import action_from_json, apply_change
from companion.kinds.mus import KIND
from companion.kinds.mus import actions as A
from companion.kinds.mus.options import effective
from mus_helpers import PLAYERS, SEATS, RuleError, bet, call, doc, fold, game, hand, ordago, page, results, rz

DECK = "RRRRCCCCSSSS777766665555444433332222AAAA"
PARES = ("pareja", "medias", "duples")
JUEGO = (31, 32, 33, 34, 35, 36, 37, 40, "other")
TALLY_LANCES = ("grande", "chica", "pares", "juego", "punto")
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def snapshot(rec):
    """Everything a tap could change, as plain data."""
    return copy.deepcopy((doc(rec), rec.state, [item.result for item in rec.items],
                          [item.before for item in rec.items]))


def deal(data):
    cards = data.draw(st.permutations(DECK), label="deck")
    return {n: "".join(cards[4 * i:4 * i + 4]) for i, n in enumerate(SEATS)}


def maybe(data, strategy, label):
    return data.draw(st.one_of(st.none(), strategy), label=label)


def answer_team(data, ui):
    return data.draw(st.sampled_from([None, ui["to_answer"]]), label="answer team")


def candidate(data, rec):
    """One tap the screen offers now (or a tally / an adjustment between hands); None after the match."""
    p = page(rec)
    ui, status = p["ui"], p["st"]["status"]
    kinds = sorted(ui["types"])
    if status == "ready":
        kinds += ["tally", "adjust", "add_hand"]
    closed = [i for i, item in enumerate(rec.items) if item.result is not None]
    if closed:
        kinds.append("replace_hand")
    if not kinds:
        return None
    kind = data.draw(st.sampled_from(kinds), label="kind")
    if kind == "start_hand":
        cards = deal(data) if data.draw(st.booleans(), label="with cards") else None
        return A.StartHand(mano=maybe(data, st.sampled_from(SEATS), "mano"), cards=cards)
    if kind == "pass":
        return A.Pass()
    if kind == "bet":
        return A.Bet(team=data.draw(st.sampled_from(ui["open_teams"]), label="team"),
                     amount=data.draw(st.sampled_from([None, *ui["bets"], 7]), label="amount"))
    if kind == "ordago":
        if ui["to_answer"]:
            return A.Ordago(team=answer_team(data, ui))
        return A.Ordago(team=data.draw(st.sampled_from(ui["ordago_teams"]), label="team"))
    if kind == "raise":
        r = data.draw(st.sampled_from(ui["raises"]), label="raise")
        if data.draw(st.booleans(), label="raise to"):
            return A.Raise(to=r["to"], team=answer_team(data, ui))
        return A.Raise(more=r["more"], team=answer_team(data, ui))
    if kind in ("call", "fold"):
        return A.ACTIONS[kind](team=answer_team(data, ui))
    if kind == "declare":
        said = {}
        for key in ui["declare"]:
            values = PARES if key == "pares" else JUEGO
            said[key] = data.draw(st.dictionaries(st.sampled_from(SEATS), st.sampled_from(values), max_size=4),
                                  label=key)
        return A.Declare(**said)
    if kind == "showdown":
        if not ui["cards_known"] and data.draw(st.booleans(), label="showdown with cards"):
            return A.Showdown(cards=deal(data))
        return A.Showdown(**{n["lance"]: data.draw(st.sampled_from("AB"), label="winner") for n in ui["needs"]})
    if kind in ("add_hand", "replace_hand"):
        # a dealt hand typed from notes, with its cards: always a possible hand by itself
        h = {"cards": deal(data)}
        if data.draw(st.booleans(), label="a fold at grande"):
            t = data.draw(st.sampled_from("AB"), label="team")
            h["grande"] = [bet(t, 2), fold("B" if t == "A" else "A")]
        if kind == "add_hand":
            return A.AddHand(hand=h)
        return A.ReplaceHand(index=data.draw(st.sampled_from(closed), label="index"), hand=h)
    R = effective(rec.head["rules"])
    if kind == "tally":
        awards = data.draw(st.lists(st.fixed_dictionaries(
            {"team": st.sampled_from("AB"), "points": st.integers(1, R["target"])},
            optional={"lance": st.sampled_from(TALLY_LANCES), "why": st.sampled_from(["duples", "31", " x "])}),
            min_size=1, max_size=4), label="awards")
        return A.Tally(awards=awards, mano=maybe(data, st.sampled_from(SEATS), "mano"))
    team = data.draw(st.sampled_from("AB"), label="team")
    points = data.draw(st.sampled_from([-5, -2, -1, 1, 2, 3, 8]), label="points")
    return A.Adjust(team=team, points=points, why=maybe(data, st.sampled_from(["miscounted", "hand 3"]), "why"))


def showdown_options(rec):
    """Every way of naming the winners the showdown needs (a refused pick is retried with another)."""
    needs = [n["lance"] for n in page(rec)["ui"]["needs"]]
    for k in range(2 ** len(needs)):
        yield A.Showdown(**{L: "AB"[(k >> i) & 1] for i, L in enumerate(needs)})


def check_tap(old, act):
    """Apply one tap and check undo, replay and position. Returns the new record (or None: refused)."""
    before = snapshot(old)
    act_before = copy.deepcopy(act.to_json())
    try:
        change = KIND.apply(old, act)
    except RuleError as err:
        assert snapshot(old) == before             # a refused tap changes nothing
        assert err.path                            # and says where
        return None
    new, inverse = apply_change(old, change)
    assert snapshot(old) == before and act.to_json() == act_before    # nothing given is mutated
    # undo is the exact inverse
    back, redo = apply_change(new, inverse)
    assert back == old
    assert doc(back) == doc(old) and back.state == old.state
    assert [i.result for i in back.items] == [i.result for i in old.items]
    assert apply_change(back, redo)[0] == new
    # replay = cache
    assert KIND.build(doc(new), PLAYERS) == new
    assert KIND.build(json.loads(json.dumps(doc(new))), PLAYERS) == new
    # every tap moves the position (a correction of an earlier hand does not: see
    # test_kind_mus_apply.py::test_position_changes_when_an_earlier_hand_is_corrected)
    if not isinstance(act, A.ReplaceHand):
        assert KIND.position(new) != KIND.position(old)
    # the state is JSON, and so is every result
    st_new = KIND.state(new)
    assert json.loads(json.dumps(st_new)) == st_new
    return new


def check_consistency(rec):
    R = effective(rec.head["rules"])
    st_ = KIND.state(rec)
    done = results(rec)
    # the log is every award of every closed hand (then of the hand in progress), in order
    _current, play = KIND.current(rec)
    shown = done + ([play.result] if play is not None else [])
    assert [(e["hand"], e["game"], e["lance"], e["team"], e["points"]) for e in st_["log"]] == [
        (r["hand"], a["game"], a["lance"], a["team"], a["points"]) for r in shown for a in r["awards"]]
    for r in shown:
        for t in "AB":
            assert sum(a["points"] for a in r["awards"] if a["team"] == t) == r["points"][t]
    # hands are numbered 1, 2, ... (an adjustment carries the last dealt hand's number)
    dealt = [r["hand"] for r in done if r.get("kind") != "adjust"]
    assert dealt == list(range(1, len(dealt) + 1))
    # each game ended by órdago or with the winner at the target
    for g in st_["games"]:
        assert g["by"] == "ordago" or g["score"][g["winner"]] >= R["target"] > g["score"]["B" if g["winner"] == "A"
                                                                                      else "A"]
    assert st_["games_won"] == {t: sum(g["winner"] == t for g in st_["games"]) for t in "AB"}
    assert (st_["match_winner"] is None) == (max(st_["games_won"].values()) < R["games_to_win"])
    assert (st_["next_mano"] is None) == (st_["match_winner"] is not None)
    # the score of the game in progress is the sum of its log
    if st_["match_winner"] is None:
        game_no = len(st_["games"]) + 1
        for t in "AB":
            assert st_["score"][t] == sum(e["points"] for e in st_["log"] if e["game"] == game_no and e["team"] == t)
            assert 0 <= st_["score"][t] < R["target"]
    else:
        assert st_["score"] == {"A": 0, "B": 0}


@FAST
@given(data=st.data(), preset=st.sampled_from(["pagat", "spanish"]), target=st.sampled_from([10, 15, 40]),
       games_to_win=st.sampled_from([1, 2, 3]), kings=st.sampled_from([4, 8]), n=st.integers(1, 40))
def test_random_taps(data, preset, target, games_to_win, kings, n):
    rec = game([], preset, target=target, games_to_win=games_to_win, kings=kings)
    start = rec
    taken = []
    for _ in range(n):
        act = candidate(data, rec)
        if act is None:
            break
        new = check_tap(rec, act)
        if new is None and isinstance(act, A.Showdown):
            # the pick contradicted what was held: another pick (or the cards) must finish the hand
            for alt in showdown_options(rec):
                new = check_tap(rec, alt)
                if new is not None:
                    act = alt
                    break
            assert new is not None, "a hand at the showdown that no showdown can finish"
        if new is None:
            continue
        # scores never go down within a game, but by an adjustment (or a corrected hand)
        was, now = KIND.state(rec), KIND.state(new)
        if len(now["games"]) == len(was["games"]) and not isinstance(act, (A.Adjust, A.ReplaceHand)):
            assert now["score"]["A"] >= was["score"]["A"] and now["score"]["B"] >= was["score"]["B"]
        taken.append(act)
        rec = new
    check_consistency(rec)
    final = KIND.state(rec)
    event(f"taps taken: {len(taken) // 10 * 10}+")
    event(f"games finished: {len(final['games'])}" + (", match decided" if final["match_winner"] else ""))
    for act in taken:
        event(f"tap {act.TYPE}")
    # the actions, stored as events and read back, replay to the same record
    again = start
    for act in taken:
        stored = json.loads(json.dumps(act.to_json()))
        again, _ = apply_change(again, KIND.apply(again, action_from_json(KIND.actions, stored)))
    assert again == rec


# ---------------------------------------------------------------- no showdown, game over in the bidding

@st.composite
def bidding_to_fold(draw):
    """Steps of a lance ending with a fold, the team that wins it and the fold points."""
    first = draw(st.sampled_from("AB"))
    team, other = first, "B" if first == "A" else "A"
    total = draw(st.integers(2, 5))
    steps, totals = [bet(team, total)], [total]
    if draw(st.booleans()):
        steps[0] = ordago(team)
        totals = [0]
    for _ in range(draw(st.integers(0, 3)) if "bet" in steps[0] else 0):
        team, other = other, team
        if draw(st.integers(0, 4)) == 0:
            steps.append(ordago(team))
            totals.append(totals[-1])
            break
        total += draw(st.integers(2, 6))
        steps.append(rz(team, total))
        totals.append(total)
    steps.append(fold(other))
    points = 1 if len(totals) == 1 else totals[-2]
    return steps, team, points


@st.composite
def ends_in_bidding(draw):
    """A game with a tally hand then a hand without cards nor showdown that ends the game in Pares (or
    Juego) bidding: by a fold reaching the target, or by a called órdago named by the lance's winner only."""
    lance = draw(st.sampled_from(["pares", "juego"]))
    target = draw(st.sampled_from([10, 20, 40]))
    h = hand()
    early = {"A": 0, "B": 0}
    for L in ("grande", "chica") + (("pares",) if lance == "juego" else ()):
        how = draw(st.sampled_from(["passed", "called", "folded"]))
        t = draw(st.sampled_from("AB"))
        if how == "called":
            h[L] = [bet(t, draw(st.integers(2, 9))), call("B" if t == "A" else "A")]
        elif how == "folded":
            h[L] = [bet(t, 2), fold("B" if t == "A" else "A")]
            early[t] += 1
    if draw(st.booleans()):
        steps, winner, points = draw(bidding_to_fold())
        showdown = None
    else:
        t = draw(st.sampled_from("AB"))
        o = "B" if t == "A" else "A"
        steps = draw(st.sampled_from([[ordago(t), call(o)], [bet(t, 2), ordago(o), call(t)],
                                      [bet(t, 2), rz(o, 5), ordago(t), call(o)]]))
        winner, points = draw(st.sampled_from("AB")), 0
        showdown = {lance: winner}
    h[lance] = steps
    if showdown:
        h["showdown"] = showdown
    loser = "B" if winner == "A" else "A"
    # scores before the hand: nobody reaches the target before the lance; the fold reaches it
    if points:
        low = max(0, target - points - early[winner])
        s_w = draw(st.integers(low, target - 1 - early[winner]))
    else:
        s_w = draw(st.integers(0, target - 1 - early[winner]))
    s_l = draw(st.integers(0, target - 1 - early[loser]))
    before = {"tally": [{"team": t, "points": s} for t, s in ((winner, s_w), (loser, s_l)) if s]}
    hands = [before] if before["tally"] else []
    preset = draw(st.sampled_from(["pagat", "spanish"]))
    return preset, target, hands, h, winner, "points" if points else "ordago"


@settings(max_examples=60, deadline=None)
@given(case=ends_in_bidding())
def test_no_showdown_hand_ending_the_game_replays_and_undoes(case):
    preset, target, hands, h, winner, by = case
    rec = game(hands, preset, target=target)
    # recorded from paper notes, as a whole hand
    new = check_tap(rec, A.AddHand(hand=h))
    assert new is not None
    st_ = KIND.state(new)
    assert st_["games"][0]["winner"] == winner and st_["games"][0]["by"] == by
    assert doc(new)["hands"][-1] == h                 # kept as written: no showdown invented
    # the same hand in a session file
    assert game(hands + [h], preset, target=target) == new
    # corrected by itself: the same record; the correction undoes exactly
    same = check_tap_same(new, A.ReplaceHand(index=len(hands), hand=h))
    assert same == new
    # the taps after it start the next game
    nxt = check_tap(new, A.Pass())
    assert nxt is not None and results(nxt) == results(new)
    assert page(nxt)["ui"]["game"] == 2


def check_tap_same(old, act):
    change = KIND.apply(old, act)
    new, inverse = apply_change(old, change)
    assert apply_change(new, inverse)[0] == old
    assert KIND.build(doc(new), PLAYERS) == new
    return new
