"""Settling up a night: who pays whom (``shared/rules/settle.md``).

Pure Python: plain dicts in, plain dicts out. All amounts are ints in the session currency's minor units.

Public API
----------
``settle(players, game_results, banker=None, exact_limit=15) -> dict``
    The state's ``settle`` object (``net``, ``method``, ``on_table``, ``payments``) plus ``by_game``.
``fewest_payments(nets) -> list[payment]``
    Exact minimum number of payments (dynamic programming over subsets).
``greedy_payments(nets) -> list[payment]``
    Largest debtor pays largest creditor, repeatedly.
``banker_payments(nets, banker) -> list[payment]``
    Everyone pays to, or is paid by, the banker.

A payment is ``{"from": debtor, "to": creditor, "amount": int > 0}``. ``nets`` dicts are read in their
insertion order, which callers keep as the session order: every tie is broken by that order, never by
names, so the same nets in the same order always give the same plan.

How the exact plan is chosen
----------------------------
A plan with the fewest payments is a forest: with n players not at zero and m connected components in
the payment graph, at least n - m payments are needed, each component's nets must sum to zero, so the
minimum is n - m for the largest m such that the players split into m zero-sum groups, each settled by
a tree of (size - 1) payments.

Least money moved: any plan moves at least the sum of the credits (every creditor must receive their
net), and a plan moves exactly that much iff nobody both pays and receives. Settling each group by
"largest debtor pays largest creditor" never makes anyone an intermediary and uses at most
(size - 1) payments (each payment zeroes somebody, the last one two people), and exactly that many in a
group with no smaller zero-sum part. So *every* partition we might choose gives the same, least
possible, total: the money tie-break only rules out plans that route money through a third person
(e.g. A -3, B +1, C +2 settled as A -> B 3, B -> C 2: also two payments, but 5 moved instead of 3).
Different maximal partitions cannot differ in money moved, so we pick one canonically: going through
the players in session order, the group of the first player still unsettled is the smallest possible
one (fewest members, then the earliest members in session order) that still leaves a maximal
partition of the rest.

Output order of the exact plan: groups in the order of their first payer (in session order), and
inside a group payments sorted by payer then payee (session order). The greedy plan keeps the order in
which the payments were made.
"""

from __future__ import annotations

from functools import lru_cache

from companion.domain.errors import RuleError
from companion.domain.messages import N_, define

define("settle", {
    "net_int": N_("a net must be a whole number of minor units, not %(value)s"),
    "not_zero": N_("nets do not sum to zero (they sum to %(total)s)"),
    "too_many": N_("too many players for the exact plan (%(count)s > %(limit)s)"),
    "twice": N_("a player appears twice in the session"),
})

__all__ = ["settle", "fewest_payments", "greedy_payments", "banker_payments", "EXACT_LIMIT"]

EXACT_LIMIT = 15  # players not at zero settled exactly; beyond this the greedy plan is used
_HARD_LIMIT = 20  # fewest_payments refuses more (2^n subsets: time and memory)


def _payment(debtor: str, creditor: str, amount: int) -> dict:
    return {"from": debtor, "to": creditor, "amount": amount}


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_nets(nets: dict) -> None:
    for player, value in nets.items():
        if not _is_int(value):
            raise RuleError("settle.net_int", str(player), value=repr(value)[:40])
    total = sum(nets.values())
    if total != 0:
        raise RuleError("settle.not_zero", "", total=total)


def greedy_payments(nets: dict[str, int]) -> list[dict]:
    """Largest debtor pays largest creditor until everybody is at zero.

    Ties (equal amounts still owed / due) go to the player whose whole net is larger, then to the one
    earlier in ``nets`` order (this reproduces the example of settle.md). Payments are listed in the
    order they are made. At most (players not at zero - 1) payments; nobody both pays and receives.
    """
    _check_nets(nets)
    order = {player: i for i, player in enumerate(nets)}
    balance = {player: value for player, value in nets.items() if value}
    payments: list[dict] = []
    while balance:
        debtor = min((p for p in balance if balance[p] < 0),
                     key=lambda p: (balance[p], nets[p], order[p]))
        creditor = min((p for p in balance if balance[p] > 0),
                       key=lambda p: (-balance[p], -nets[p], order[p]))
        amount = min(-balance[debtor], balance[creditor])
        payments.append(_payment(debtor, creditor, amount))
        for player, change in ((debtor, amount), (creditor, -amount)):
            balance[player] += change
            if balance[player] == 0:
                del balance[player]
    return payments


def banker_payments(nets: dict[str, int], banker: str) -> list[dict]:
    """Everyone not at zero pays the banker what they lost, or is paid by the banker what they won.

    Payments in ``nets`` order; the banker's own net is settled by the others' payments.
    """
    _check_nets(nets)
    if banker not in nets:
        raise RuleError("v.not_player", "settle.banker", name=banker)
    payments = []
    for player, value in nets.items():
        if player == banker or value == 0:
            continue
        if value < 0:
            payments.append(_payment(player, banker, -value))
        else:
            payments.append(_payment(banker, player, value))
    return payments


def _zero_sum_groups(values: list[int]) -> list[int]:
    """Split indices 0..n-1 (values summing to zero, none zero) into the most zero-sum groups.

    Returns the groups as bitmasks, chosen canonically (see the module docstring).
    """
    n = len(values)
    size = 1 << n
    sums = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
    # most[mask] = the largest number of zero-sum prefixes over orderings of mask; for a zero-sum mask
    # that is the largest number of zero-sum groups it splits into.
    most = [0] * size
    for mask in range(1, size):
        best = 0
        rest = mask
        while rest:
            low = rest & -rest
            value = most[mask ^ low]
            if value > best:
                best = value
            rest ^= low
        most[mask] = best + (sums[mask] == 0)

    groups = []
    remaining = size - 1
    while remaining:
        wanted = most[remaining] - 1
        first = remaining & -remaining
        others = remaining ^ first
        best_group, best_key = 0, None
        sub = others
        while True:
            group = sub | first
            if sums[group] == 0 and most[remaining ^ group] == wanted:
                key = (group.bit_count(), [i for i in range(n) if group >> i & 1])
                if best_key is None or key < best_key:
                    best_group, best_key = group, key
            if sub == 0:
                break
            sub = (sub - 1) & others
        groups.append(best_group)
        remaining ^= best_group
    return groups


def fewest_payments(nets: dict[str, int]) -> list[dict]:
    """A plan with the fewest payments possible, moving the least money, in a deterministic order.

    Exact (dynamic programming over the 2^n subsets of the n players not at zero): fast for a table
    (n = 15 well under a second); refuses n > 20. See the module docstring for the tie-breaks.
    """
    _check_nets(nets)
    order = {player: i for i, player in enumerate(nets)}
    players = [player for player, value in nets.items() if value]
    if len(players) > _HARD_LIMIT:
        raise RuleError("settle.too_many", "", count=len(players), limit=_HARD_LIMIT)
    if not players:
        return []
    plans = []
    for group in _zero_sum_groups([nets[p] for p in players]):
        members = {p: nets[p] for i, p in enumerate(players) if group >> i & 1}
        plan = greedy_payments(members)
        plan.sort(key=lambda pay: (order[pay["from"]], order[pay["to"]]))
        plans.append(plan)
    plans.sort(key=lambda plan: (order[plan[0]["from"]], order[plan[0]["to"]]))
    return [payment for plan in plans for payment in plan]


@lru_cache(maxsize=256)
def _fewest_cached(nets: tuple) -> tuple:
    """The exact plan costs 2**n steps for n players not at zero: every page and every write of a night
    asks for it with the same nets until a chip moves."""
    return tuple(fewest_payments(dict(nets)))


def settle(players: list[str], game_results: list[dict], banker: str | None = None,
           exact_limit: int = EXACT_LIMIT) -> dict:
    """The state's ``settle`` object for a night.

    ``players``: the session's players in session order. ``game_results``: one
    ``{"net": {player: minor_units}, "on_table": minor_units}`` per game (``settlement(game, state)``
    of its game kind). ``banker``: the session's banker for banker mode, or None.

    Returns ``{"net": {every player, session order: int}, "method": "exact" | "greedy" | "banker" |
    "unbalanced", "on_table": int, "payments": [...], "by_game": [{every player: int} per game]}``.
    When money is still on the table (or the nets do not sum to zero) the method is ``unbalanced`` and
    there are no payments.
    """
    if len(set(players)) != len(players):
        raise RuleError("settle.twice", "players")
    if banker is not None and banker not in players:
        raise RuleError("v.not_player", "settle.banker", name=banker)
    net = {player: 0 for player in players}
    by_game = []
    on_table = 0
    for number, result in enumerate(game_results):
        where = f"games[{number}]"
        row = {player: 0 for player in players}
        for player, value in result.get("net", {}).items():
            if player not in row:
                raise RuleError("v.not_player", f"{where}.net", name=player)
            if not _is_int(value):
                raise RuleError("settle.net_int", f"{where}.net.{player}", value=repr(value)[:40])
            row[player] += value
            net[player] += value
        left = result.get("on_table", 0)
        if not _is_int(left):
            raise RuleError("settle.net_int", f"{where}.on_table", value=repr(left)[:40])
        on_table += left
        by_game.append(row)

    if on_table != 0 or sum(net.values()) != 0:
        method, payments = "unbalanced", []
    elif banker is not None:
        method, payments = "banker", banker_payments(net, banker)
    elif sum(1 for value in net.values() if value) <= min(exact_limit, _HARD_LIMIT):
        method, payments = "exact", [dict(p) for p in _fewest_cached(tuple(net.items()))]
    else:
        method, payments = "greedy", greedy_payments(net)
    return {"net": net, "method": method, "on_table": on_table, "payments": payments,
            "by_game": by_game}
