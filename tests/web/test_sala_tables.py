"""The sala draws each table as its kind says (``<kind>/sala_table.html`` in the kind's folder, else the
pot and the players' nets): the sala's template names no kind."""
import re

from flask import render_template_string

from companion import kinds

SALA_TABLE = '{% include [tb.kind ~ "/sala_table.html", "club/_sala_table.html"] %}'


def table(app, kind: str, st: dict, **tb) -> str:
    with app.test_request_context("/"):
        html = render_template_string(SALA_TABLE, tb={"kind": kind, **tb}, st=st)
    return re.sub(r"\s+", " ", html).strip()


def test_a_mus_table_shows_its_two_teams(app):
    st = {"teams": {"A": ["Ane", "Bea"], "B": ["Carlos", "Dani"]}, "score": {"A": 12, "B": 30},
          "games_won": {"A": 1, "B": 0}, "dentro": {"A": False, "B": True},
          "stones": {"A": {"amarracos": 2, "ones": 2}, "B": {"amarracos": 6, "ones": 0}}}
    html = table(app, "mus", st, result=None)
    assert '<span class="names">Ane &amp; Bea</span> <span class="score">12</span>' in html
    assert 'team team-b in' in html and "DENTRO" in html and html.count("●") == 1


def test_a_newmarket_table_shows_what_lies_on_the_table_and_the_chips(app):
    st = {"pots": {"AH": 3, "KC": 4}, "kitty": 2, "chips": {"Ane": 18, "Bea": 21}}
    html = table(app, "newmarket", st)
    assert '<p class="pot">Pot <span class="score">9</span></p>' in html
    assert "<li>Ane <b>18</b></li><li>Bea <b>21</b></li>" in html


def test_a_kind_without_its_own_shows_the_pot_and_the_nets(app):
    """Desmoche has no sala_table.html: the sala's own shows its pot and nets; a kind with neither (the
    test-only duel kind's state) shows nothing rather than failing."""
    assert "desmoche" in kinds.KINDS
    html = table(app, "desmoche", {"pot": 40, "net": {"Ane": 30, "Bea": -30}})
    assert '<span class="score">40</span>' in html and "<li>Ane <b>+30</b></li><li>Bea <b>-30</b></li>" in html
    assert table(app, "duel", {"score": {"Ane": 3}, "winner": None}) == ""
