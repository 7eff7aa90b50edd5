"""Every sentence of Desmoche (and Conquián), in English, by code (see companion.domain.messages).

The reasons (``why.*``) keep the old engine's wording word for word; the game's words stay Spanish (mico,
arriba del palo, peladilla, doble, triple...). Side games and automatic wins are named by codes whose
English is what the old engine wrote (``par_rojo``, ``cuatro cuerpos``), so that a translation may
write them its own way.
"""
from companion.domain.messages import N_, NP_, define

define("desmoche", {
    "title": N_("Desmoche"),
    "variant.desmoche": N_("Desmoche"),
    "variant.conquian": N_("Conquián"),
    "unit": N_("units"),
    # the pot's multiple in words (rounds of stakes in it)
    "mult.1": N_("1×"), "mult.2": N_("doble"), "mult.3": N_("triple"), "mult.4": N_("cuádruple"),
    "mult.5": N_("quíntuple"), "mult.6": N_("séxtuple"), "mult.7": N_("séptuple"), "mult.8": N_("óctuple"),
    "mult.9": N_("nónuple"), "mult.10": N_("décuple"), "mult.n": N_("%(n)s×"),
    # automatic wins, inside a reason ("Ane won (cuatro cuerpos): ...") and as a label
    "auto.peladilla": N_("peladilla"), "auto.cuatro_cuerpos": N_("cuatro cuerpos"), "auto.color": N_("color"),
    "auto_label.peladilla": N_("Peladilla"), "auto_label.cuatro_cuerpos": N_("Cuatro cuerpos"),
    "auto_label.color": N_("Color"),
    # side games: as the old reasons wrote them, as a label, and what wins each
    "side.oro": N_("oro"), "side.corazon": N_("corazon"), "side.flor": N_("flor"),
    "side.corazon_negro": N_("corazon_negro"), "side.par_rojo": N_("par_rojo"), "side.par_negro": N_("par_negro"),
    "side.dos_par_rojo": N_("dos_par_rojo"), "side.dos_par_negro": N_("dos_par_negro"),
    "side.tres_cuerpos": N_("tres_cuerpos"), "side.escalera": N_("escalera"),
    "side_label.oro": N_("Oro"), "side_label.corazon": N_("Corazón"), "side_label.flor": N_("Flor"),
    "side_label.corazon_negro": N_("Corazón negro"), "side_label.par_rojo": N_("Par rojo"),
    "side_label.par_negro": N_("Par negro"), "side_label.dos_par_rojo": N_("Dos pares rojos"),
    "side_label.dos_par_negro": N_("Dos pares negros"), "side_label.tres_cuerpos": N_("Tres cuerpos"),
    "side_label.escalera": N_("Escalera"),
    "side_what.oro": N_("highest ♦"), "side_what.corazon": N_("highest ♥"), "side_what.flor": N_("highest ♣"),
    "side_what.corazon_negro": N_("highest ♠"), "side_what.par_rojo": N_("highest red pair"),
    "side_what.par_negro": N_("highest black pair"), "side_what.dos_par_rojo": N_("best two red pairs"),
    "side_what.dos_par_negro": N_("best two black pairs"), "side_what.tres_cuerpos": N_("best three of a kind"),
    "side_what.escalera": N_("best run of 3+ in a suit"),
    # why each movement was made (the log): the old engine's words
    "why.stake_changed": N_("Stake changed from %(old)s to %(new)s"),
    "why.ante": N_("%(player)s put %(n)s in the pot"),
    "why.joined": N_("%(player)s joined %(game)s: put %(n)s in"),
    "why.rollover": N_("No winner: the pot of %(pot)s rolls over (%(next)s)"),
    "why.won": N_("%(winner)s won: took the pot of %(pot)s"),
    "why.won_auto": N_("%(winner)s won (%(how)s): took the pot of %(pot)s"),
    "why.mico": N_("%(player)s paid %(winner)s %(n)s (mico)"),
    "why.micos": NP_("%(player)s paid %(winner)s %(n)s (%(count)s mico)",
                     "%(player)s paid %(winner)s %(n)s (%(count)s micos)", "count"),
    "why.same_suit": N_("%(player)s paid %(winner)s %(n)s (same suit)"),
    "why.arriba": N_("%(player)s paid %(winner)s %(n)s (arriba del palo)"),
    "why.side_won": N_("%(winner)s won %(game)s: took %(n)s"),
    "why.side_returned": N_("Nobody qualified for %(game)s: %(player)s got %(n)s back"),
    "why.side_carried": N_("Nobody qualified for %(game)s: its pot of %(pot)s carries over"),
    "why.end_pot": N_("Series ended: %(player)s got back %(n)s from the unwon pot"),
    "why.end_side": N_("Series ended: %(player)s got back %(n)s from the %(game)s pot"),
    # one line of a series (history list) and the session page's headline
    "sum.ahead": NP_("%(player)s +%(n)s unit", "%(player)s +%(n)s units", "n"),
    "sum.nobody": N_("nobody ahead"),
    "sum.not_ended": N_("%(line)s (not ended)"),
    "head.over": N_("series over"),
    "head.hand": N_("hand %(n)s"),
    "head.pot": N_("pot %(pot)s, next %(next)s"),
    "head.pot_empty": N_("pot empty"),
    "head.up": N_("%(player)s +%(n)s"),
    "head.down": N_("%(player)s −%(n)s"),
    "head.even": N_("%(player)s 0"),
    # the hand-by-hand page and its chart
    "hist.hand": N_("Hand %(n)s"),
    "hist.end": N_("End of the game"),
    "hist.h": N_("H%(n)s"),
    "hist.dealer": N_("dealer %(name)s"),
    "hist.stake": N_("stake %(n)s"),
    "hist.pot": N_("pot %(pot)s (%(multiple)s)"),
    "chart.title": N_("Units won or lost, hand by hand"),
    # the session file: shape
    "not_desmoche": N_("must be “desmoche”"),
    "stake_missing": N_("missing: the stake each player puts in every hand"),
    "stake_same": N_("the stake is already %(stake)s"),
    "conquian_bonuses": N_("Conquián has no bonuses"),
    "conquian_auto": N_("Conquián has no automatic wins"),
    "not_side_game": N_("%(name)s is not a side game (%(known)s)"),
    "conquian_side": N_("Conquián plays only the oro side game, not %(name)s"),
    "winner_missing": N_("missing (null when nobody won the hand)"),
    "winner_disqualified": N_("%(name)s was disqualified: he cannot win the hand"),
    "color_off": N_("color is not an automatic win at this table (color_wins is off)"),
    "auto_needs_winner": N_("an automatic win needs a winner"),
    "bonus_no_winner": N_("no bonus without a winner"),
    "bonuses_off": N_("bonuses are off at this table (bonuses: false)"),
    "auto_no_melds": N_("an automatic win (%(auto)s) has no melds: no %(key)s"),
    "arriba_winner": N_("%(name)s won the hand: only losers can be arriba del palo"),
    "arriba_disqualified": N_("%(name)s was disqualified: he pays no bonus"),
    "side_not_played": N_("%(name)s is not a side game of this table"),
    "side_winner_missing": N_("missing (null when no player who joined qualifies)"),
    "side_not_joined": N_("%(name)s did not join %(game)s"),
    "next_stake_ended": N_("the series is over: no next hand"),
    "too_large": N_("amounts this large cannot be recorded: the units in play (%(units)s) times the unit "
                    "value (%(value)s) would pass %(max)s minor units"),
    # taps refused
    "series_over": N_("The series is over"),
    "which_hand": N_("must be the number of a recorded hand (0 = first)"),
    "no_such_hand": N_("there is no hand %(index)s (0 = first, %(count)s recorded)"),
    "later_impossible": N_("that would make a later hand impossible (hand %(hand)s: %(why)s)"),
})

SIDE_LABELS = {
    "oro": (N_("Oro"), N_("highest ♦")), "corazon": (N_("Corazón"), N_("highest ♥")),
    "flor": (N_("Flor"), N_("highest ♣")), "corazon_negro": (N_("Corazón negro"), N_("highest ♠")),
    "par_rojo": (N_("Par rojo"), N_("highest red pair")), "par_negro": (N_("Par negro"), N_("highest black pair")),
    "dos_par_rojo": (N_("Dos pares rojos"), N_("best two red pairs")),
    "dos_par_negro": (N_("Dos pares negros"), N_("best two black pairs")),
    "tres_cuerpos": (N_("Tres cuerpos"), N_("best three of a kind")),
    "escalera": (N_("Escalera"), N_("best run of 3+ in a suit")),
}
AUTO_LABELS = {"peladilla": N_("Peladilla"), "cuatro_cuerpos": N_("Cuatro cuerpos"), "color": N_("Color")}

# the table's page
define("desmoche", {
    **{f"label.{k}": v[0] for k, v in SIDE_LABELS.items()},
    **{f"what.{k}": v[1] for k, v in SIDE_LABELS.items()},
    **{f"autolabel.{k}": v for k, v in AUTO_LABELS.items()},
    "line.no_winner": N_("No winner: the pot of %(pot)s rolled over"),
    "line.won": N_("%(name)s won: pot of %(pot)s"),
    "line.won_how": N_("%(name)s won (%(how)s): pot of %(pot)s"),
    "line.won_mult": N_("%(base)s, %(mult)s"),
    "line.bonuses": N_("Bonuses: %(items)s"),
    "line.paid": N_("%(name)s paid %(n)s"),
    "line.side_won": N_("%(side)s: %(name)s took %(pot)s"),
    "line.side_back": N_("%(side)s: nobody qualified, stakes back"),
    "line.side_carry": N_("%(side)s: nobody qualified, %(pot)s carries"),
})

# the one line under the score after a tap (the toast)
define("desmoche", {
    "toast.won": N_("Hand %(n)s: %(name)s won %(pot)s"),
    "toast.won_how": N_("Hand %(n)s: %(name)s won %(pot)s, %(how)s"),
    "toast.bonuses": NP_("%(base)s +%(k)s bonus", "%(base)s +%(k)s bonuses", "k"),
    "toast.no_winner": N_("Hand %(n)s: no winner, %(pot)s rolls over"),
    "toast.stake": N_("Stake %(stake)s from hand %(n)s"),
    "toast.over": N_("Series over"),
    "toast.fixed": N_("Hand %(n)s corrected"),
})

# its forms
define("desmoche", {
    "form.who_won": N_("Who won the hand? (or No winner: the pot rolls over)"),
    "form.nobody_joined": N_("%(name)s won %(side)s, but nobody joined it: tick who joined."),
    "form.side_stake": N_("How much does each player put in for %(side)s?"),
    "form.one_winner": N_("Choose one winner."),
    "form.one_auto": N_("Choose one kind of automatic win."),
})
