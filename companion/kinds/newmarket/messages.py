"""Every sentence of Newmarket, in English, by code (see companion.domain.messages). The reasons (``why.*``)
keep the old engine's wording, word for word: the log of a session must read as it always did."""
from companion.domain.messages import N_, NP_, define

define("newmarket", {
    "title": N_("Newmarket"),
    # why chips moved (the state's log, the hand-by-hand page, the CSV)
    "why.ante": N_("%(player)s anted %(n)s on %(card)s (deal %(deal)s)"),
    "why.ante_dealer": N_("%(player)s anted %(n)s on %(card)s (dealer) (deal %(deal)s)"),
    "why.kitty_ante": N_("%(player)s anted %(n)s to the kitty"),
    "why.pool_ante": N_("%(player)s anted %(n)s to the pool"),
    "why.dummy": N_("%(player)s bought the dummy: paid %(dealer)s %(n)s"),
    "why.exchange": N_("%(player)s took the dead hand: paid %(n)s into the pool"),
    "why.bury": N_("%(player)s swapped with the dead hand: only %(king)s was face up, so it was 'bury the "
                   "Jack' (%(jack)s): no chips"),
    "why.boodle": N_("%(player)s played %(card)s: took %(n)s"),
    "why.queen": N_("%(player)s played %(card)s: took %(n)s from %(king)s (%(king)s is now face down)"),
    "why.last_king": N_("%(player)s took the last King: the game ends, took the pool of %(n)s"),
    "why.queen_nothing": N_("%(player)s played %(card)s: %(king)s is face down, took nothing"),
    "why.paid_cards": NP_("%(out)s went out: %(player)s paid %(n)s (%(n)s card)",
                          "%(out)s went out: %(player)s paid %(n)s (%(n)s cards)", "n"),
    "why.paid_flat": N_("%(out)s went out: %(player)s paid 1 (flat)"),
    "why.out_pool": N_("%(out)s went out: took the pool of %(n)s"),
    "why.out_kitty": N_("%(out)s went out: took the kitty of %(n)s"),
    "why.shared": N_("Leftovers of %(total)s shared: %(player)s got %(n)s (%(each)s each)"),
    "why.shared_odd": N_("Leftovers of %(total)s shared: %(player)s got %(n)s (%(each)s each + 1 odd chip)"),
    # taps refused
    "game_over": N_("The game is over"),
    "already_over": N_("The game is already over"),
    "deal_in_progress": N_("Deal %(n)s is still in progress"),
    "end_deal_first": N_("Deal %(n)s is still in progress: end it (or cancel it) first"),
    "no_deal": N_("No deal in progress: start a deal first"),
    "dummy_again": N_("The dummy was already recorded for this deal"),
    "dummy_who": N_("who bought the dummy?"),
    "exchange_again": N_("%(name)s already took the dead hand"),
    "bury_jack": N_("Only %(king)s is face up: this deal has no dead-hand exchange. Bury the Jack instead "
                    "(whoever holds %(jack)s swaps his hand with the dead hand): no chips change hands, so "
                    "there is nothing to record."),
    "end_what": N_("who went out? (or blocked: nobody could)"),
    "already_out": N_("%(name)s already went out in deal %(n)s"),
    "which_deal": N_("must be the number of a recorded deal (0 = first)"),
    "no_such_deal": N_("there is no deal %(index)s (0 = first, %(count)s recorded)"),
    "later_impossible": N_("that would make a later deal impossible (%(where)s: %(why)s)"),
    "swap_what": N_("say swap, or who bought the dummy and for how much"),
    # the session file: the game
    "not_newmarket": N_("must be “newmarket”"),
    "card_text": N_("must be a card like AH or 10C, not %(value)s"),
    "pool_ante_classic": N_("pool_ante is a parlett option"),
    "four_boodles": N_("needs 4 boodle cards, not %(count)s"),
    "payout_parlett": N_("parlett has no payout option: going out takes the pool"),
    "parlett_kings": N_("in parlett the boodles are the four Kings"),
    "carry_pile": N_("%(key)s is not a pile of this game (%(piles)s)"),
    "carry_in": N_("must be what the previous Newmarket game of this session leaves on the table "
                   "(%(carried)s), not %(given)s: leave carry_in out, the app works it out"),
    "seed_card": NP_("the previous Newmarket game of this session left %(chips)s chip on %(card)s, which is "
                     "not a boodle card of this game (%(boodles)s): choose the same boodle cards",
                     "the previous Newmarket game of this session left %(chips)s chips on %(card)s, which is "
                     "not a boodle card of this game (%(boodles)s): choose the same boodle cards", "chips"),
    "seed_pool": NP_("the previous Newmarket game of this session left a pool of %(chips)s chip: only "
                     "parlett has a pool",
                     "the previous Newmarket game of this session left a pool of %(chips)s chips: only "
                     "parlett has a pool", "chips"),
    "seed_value": NP_("the previous Newmarket game of this session left %(chips)s chip worth %(value)s each "
                      "on the table: this game's chips must be worth the same (not %(given)s)",
                      "the previous Newmarket game of this session left %(chips)s chips worth %(value)s each "
                      "on the table: this game's chips must be worth the same (not %(given)s)", "chips"),
    "open_ended": N_("a deal in progress in an ended game: finish it first"),
    # the session file: a deal
    "free_missing": NP_("%(name)s must place exactly %(n)s chip (missing)",
                        "%(name)s must place exactly %(n)s chips (missing)", "n"),
    "free_placed": NP_("%(name)s must place exactly %(n)s chip (placed %(placed)s)",
                       "%(name)s must place exactly %(n)s chips (placed %(placed)s)", "n"),
    "free_where": NP_("free ante: where each player put his %(n)s chip",
                      "free ante: where each player put his %(n)s chips", "n"),
    "antes_free_only": N_("antes are only recorded with free_ante"),
    "not_boodle": N_("%(card)s is not a boodle card"),
    "face_down_ante": N_("%(card)s is face down: no more antes go to it"),
    "dummy_both": N_("either the dealer swapped or the dummy was sold, not both"),
    "dummy_swap_true": N_("must be true (leave the dummy out when nothing happened)"),
    "dummy_what": N_("give swap: true, or sold_to and price"),
    "dummy_dealer": N_("%(name)s is the dealer: he swaps, he does not buy"),
    "dummy_parlett": N_("parlett has an exchange, not a dummy"),
    "exchange_classic": N_("exchange is a parlett rule (classic has the dummy)"),
    "not_queen": N_("%(card)s is not a Queen (in parlett a Queen takes her King's chips)"),
    "played_twice": N_("%(card)s was already played in this deal"),
    "blocked_out": N_("a blocked deal has nobody out"),
    "one_out": N_("only one player goes out in a deal"),
    "cards_left_missing": N_("missing: how many cards each other player still holds"),
    "out_has_none": N_("%(name)s went out: he has no cards left"),
    "cards_of_missing": N_("missing: how many cards %(name)s still holds"),
    "no_cards_parlett": N_("parlett: cards left are not counted"),
    "no_cards_flat": N_("flat payout: cards left are not counted"),
    "cards_without_out": N_("cards left without anybody going out"),
    "no_more_deals": N_("the game ended when the last King was taken: no more deals"),
    "ended_by_king": N_("the game ended when the last King was taken"),
    "end_with_king": N_("the deal ended with the game when the last King was taken"),
    "king_last_deal": N_("the game ended in this deal (last King taken): no deals after it"),
    "only_last_open": N_("only the last deal can be in progress"),
    "open_no_end": N_("a deal in progress has no end yet"),
    "deal_no_end": N_("a finished deal needs out (who went out) or blocked: true"),
    # one line of a game
    "sum.ahead": NP_("%(name)s +%(n)s chip", "%(name)s +%(n)s chips", "n"),
    "sum.nobody": N_("nobody ahead"),
    "sum.not_ended": N_("%(base)s (not ended)"),
    "head.classic": N_("Classic"),
    "head.parlett": N_("Parlett"),
    "head.ended": N_("ended"),
    "head.in_play": N_("deal %(n)s in play"),
    "head.next": N_("deal %(n)s next"),
    "head.chips": N_("%(name)s %(n)s"),
    "head.plus": N_("%(name)s +%(n)s"),
    "head.minus": N_("%(name)s −%(n)s"),
    "head.even": N_("%(name)s 0"),
    # settling the night
    "note.carry": NP_("%(n)s chip stays on the table for the next Newmarket game of this session",
                      "%(n)s chips stay on the table for the next Newmarket game of this session", "n"),
    # the hand-by-hand page and its chart
    "hist.deal": N_("Deal %(n)s"),
    "hist.end": N_("End of the game"),
    "hist.d": N_("D%(n)s"),
    "hist.dealer": N_("dealer %(name)s"),
    "hist.open": N_("in play"),
    "hist.bury": N_("one King face up: bury the Jack"),
    "hist.out": N_("%(name)s went out"),
    "hist.blocked": N_("blocked: nobody went out"),
    "hist.last_king": N_("%(name)s took the last King: the game is over"),
    "hist.shared": NP_("%(total)s chip left on the table, shared", "%(total)s chips left on the table, shared",
                       "total"),
    "hist.carried": NP_("%(total)s chip left on the table for the next Newmarket game",
                        "%(total)s chips left on the table for the next Newmarket game", "total"),
    "chart.title": N_("Chips in hand, deal by deal"),
    "unit": N_("chips"),
})

# the table's page
define("newmarket", {
    "line.swap": N_("%(name)s swapped with the dummy"),
    "line.sold": N_("%(name)s bought the dummy for %(price)s"),
    "line.exchange": N_("%(name)s took the dead hand"),
    "line.bury": N_("one King face up: %(name)s buried the Jack"),
    "line.queen": N_("%(name)s played %(card)s: took %(n)s from %(king)s"),
    "line.boodle": N_("%(name)s played %(card)s: took %(n)s"),
    "line.last_king": N_("Last King taken: the game is over (%(name)s took the pool of %(n)s)"),
    "line.out_pool": N_("%(name)s went out: took the pool of %(n)s"),
    "line.out_paid": N_("%(name)s went out: collected %(n)s"),
    "line.out_paid_by": N_("%(name)s went out: collected %(n)s (%(items)s)"),
    "line.and_kitty": N_("%(base)s and the kitty of %(n)s"),
    "line.blocked": N_("Blocked: nobody went out"),
    "line.blocked_pool": N_("Blocked: nobody went out (the pool carries)"),
    # what a carry hands on, beside the cards: the kitty (a table word, kept as the table says it), the pool
    "pile.kitty": N_("kitty"),
    "pile.pool": N_("pool"),
})

# the one line under the score after a tap (the toast): short, a phone is 320 px wide
define("newmarket", {
    "toast.start": NP_("Deal %(n)s started: %(antes)s chip anted", "Deal %(n)s started: %(antes)s chips anted",
                       "antes"),
    "toast.swap": N_("%(name)s swapped with the dummy"),
    "toast.sold": N_("%(name)s bought the dummy for %(price)s"),
    "toast.exchange": N_("%(name)s took the dead hand"),
    "toast.bury": N_("%(name)s buried the Jack"),
    "toast.boodle": N_("%(name)s played %(card)s: +%(k)s"),
    "toast.out": N_("Deal %(n)s ended: %(name)s out, +%(k)s"),
    "toast.blocked": N_("Deal %(n)s blocked: nobody went out"),
    "toast.blocked_pool": N_("Deal %(n)s blocked: the pool carries"),
    "toast.last_king": N_("%(name)s took the last King: game over"),
    "toast.cancel": N_("Deal %(n)s cancelled: antes back"),
    "toast.over": N_("Game over"),
    "toast.over_shared": NP_("Game over: %(n)s chip shared", "Game over: %(n)s chips shared", "n"),
    "toast.over_carried": NP_("Game over: %(n)s chip carried over", "Game over: %(n)s chips carried over", "n"),
    "toast.fixed": N_("Deal %(n)s corrected"),
})

# its forms
define("newmarket", {
    "form.who_bought": N_("Who bought the dummy?"),
    "form.out_no_cards": N_("%(name)s went out: he has no cards left."),
    "form.how_many": N_("How many cards does %(name)s still hold?"),
    "form.tap_out": N_("Tap who went out."),
    "form.one_out": N_("Only one player goes out in a deal."),
    "form.one_end": N_("Choose one ending of the deal."),
    "form.blocked_once": N_("Tap Blocked once."),
    "form.carry_piles": N_("The chips carried from game %(game)s lie on piles this game does not have "
                           "(%(what)s): choose the same variant and boodle cards."),
    "form.carry_card": N_("%(n)s on %(card)s"),
    "form.carry_pool": N_("a pool of %(n)s"),
    "form.carry_value": N_("The chips carried from game %(game)s are worth %(value)s each: this game's chips "
                           "must be worth the same."),
})
