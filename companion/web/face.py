"""The web layer's side of ``companion.kinds.face``: the one object a kind's routes reach the app through."""
from __future__ import annotations

from types import SimpleNamespace

from companion.kinds.face import Face, install

from companion.web import common, forms, games, i18n


def make() -> Face:
    return SimpleNamespace(
        FormError=common.FormError, open_session=common.open_session, require_edit=common.require_edit,
        render=common.render, see_other=common.see_other, unchanged_poll=common.unchanged_poll,
        perform=common.perform, refusal=common.refusal,
        show=games.show, new_game=games.new_game, record=games.record, correction=games.correction,
        at_of=games.at_of, done_toast=games.done_toast, priced=games.priced,
        read_int=forms.read_int, read_money=forms.read_money, money_input=forms.money_input,
        only_one=forms.only_one, signed=forms.signed, template_helpers=forms.template_helpers,
        t=i18n.t, fmt_money=i18n.fmt_money)


install(make())
