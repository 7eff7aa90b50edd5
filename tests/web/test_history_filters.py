"""Bad filter values in the history's query string: a message beside the field, status 422, never a 500."""
import re

import pytest


@pytest.mark.parametrize("query, field, message", [
    ("kind=poker", "kind", "Unknown game."),
    ("from=yesterday", "from", "A date like 2026-11-20"),
    ("to=2026-13-45", "to", "A date like 2026-11-20"),
    ("from=2026-05-01&to=2026-01-01", "to", "The end date is before the start date."),
])
def test_a_bad_filter_is_refused_beside_its_field(client, query, field, message):
    resp = client.get("/history?" + query)
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    label = re.search(rf'<label[^>]*>(?:(?!</label>).)*name="{field}"(?:(?!</label>).)*</label>', page, re.S)
    assert label and message in label.group(0)


@pytest.mark.parametrize("query", ["page=abc", "page=99999999999999999999", "q=" + "x" * 500, "kind[]=a",
                                   "q=%00", "from=%00"])
def test_odd_query_strings_never_fail(client, query):
    assert client.get("/history?" + query).status_code in (200, 422)
