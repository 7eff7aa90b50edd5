"""The copy-as-text box shows the whole settlement on a phone, and says how to copy it without JS."""
import math
import re

import pytest

from test_settle_page import DESMOCHE, NEEDS, import_doc, session_doc

pytestmark = pytest.mark.one_engine    # pages and typed values, not the store: one engine (tests/conftest.py)


@NEEDS["desmoche"]
def test_copy_box_is_tall_enough_for_the_wrapped_lines(client):
    doc = session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos"),
                      name="Viernes en casa de Koldo, la revancha larga de noviembre")
    page = client.get(import_doc(client, doc)["view"] + "/settle").get_data(as_text=True)
    box = re.search(r'<textarea id="settle-text"[^>]*rows="(\d+)"[^>]*>(.*?)</textarea>', page, re.S)
    # a 360 px phone fits about 30 characters a line: count the wrapped lines, not only the newlines
    wrapped = sum(max(1, math.ceil(len(line) / 30)) for line in box.group(2).split("\n"))
    assert int(box.group(1)) >= wrapped


@NEEDS["desmoche"]
def test_copy_box_says_how_to_copy_without_js(client):
    page = client.get(import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))["view"]
                      + "/settle").get_data(as_text=True)
    assert re.search(r"<noscript>.*Select the text.*</noscript>", page, re.S)
