"""companion.domain.jsonparse: a session file's bytes become JSON, or a RuleError with the path of the first problem."""
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.domain.errors import RuleError
from companion.domain.jsonparse import parse_document
from companion.domain.messages import CATALOG

# A session file as in /work/shared/formats/session-v1.md (one game of each kind), with names beyond ASCII.
SESSION = """\
{
  "format": "companion-session/1",
  "name": "Friday at Koldo's",
  "started": "2026-11-20T21:05:00+01:00",
  "currency": "EUR",
  "players": ["Ane", "Bea", "Carlos", "Dani", "Eneko", "Iñaki", "Zoë 🂡"],
  "games": [
    {
      "kind": "mus",
      "rules": {"preset": "pagat", "kings": 8},
      "seats": ["Ane", "Bea", "Carlos", "Dani"],
      "stones": {"A": {"fives": "Ane", "ones": "Carlos"}, "B": {"fives": "Dani", "ones": "Bea"}},
      "stake": {"per_game": 200},
      "hands": [
        {
          "cards": {"Ane": "RR43", "Bea": "CCS7", "Carlos": "A456", "Dani": "RS7A"},
          "grande": [],
          "chica": [{"team": "A", "bet": 2}, {"team": "B", "call": true}],
          "pares": [{"team": "B", "bet": 2}, {"team": "A", "raise": 7}, {"team": "B", "fold": true}],
          "juego": [{"team": "A", "ordago": true}, {"team": "B", "fold": true}]
        },
        {"tally": [{"team": "A", "points": 3, "lance": "pares", "why": "duples"}, {"team": "B", "points": 1}]},
        {"adjust": {"team": "B", "points": -2, "why": "hand 3 miscounted \\u2014 \\"fixed\\""}}
      ]
    },
    {
      "kind": "newmarket",
      "rules": {"variant": "classic", "ante": 1, "dealer_ante": 2, "kitty_ante": 0,
                "payout": "cards", "boodles": ["AH", "KC", "QD", "JS"], "leftover": "share"},
      "seats": ["Ane", "Bea", "Carlos", "Dani"],
      "start_chips": 20,
      "chip_value": 10.5,
      "deals": [
        {"dummy": {"sold_to": "Bea", "price": 2},
         "boodles_won": [{"card": "KC", "by": "Carlos"}],
         "out": "Bea", "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}},
        {"boodles_won": [{"card": "AH", "by": "Dani"}, {"card": "JS", "by": "Dani"}],
         "out": "Ane", "cards_left": {"Bea": 2, "Carlos": 0, "Dani": 4}}
      ],
      "ended": true
    },
    {
      "kind": "desmoche",
      "rules": {"variant": "desmoche", "stake": 10, "bonuses": true, "color_wins": false,
                "side_games": {"oro": 5, "par_rojo": 5}, "side_unclaimed": "carry"},
      "seats": ["Ane", "Bea", "Iñaki"],
      "unit_value": 10,
      "hands": [
        {"winner": null},
        {"winner": "Bea", "mico": 1, "arriba": ["Iñaki"],
         "side": {"oro": {"joined": ["Ane", "Bea"], "winner": "Ane"}}},
        {"stake": 20, "winner": "Ane", "auto_win": "peladilla", "disqualified": ["Iñaki"]}
      ]
    }
  ],
  "settle": {"banker": "Ane", "paid": [{"from": "Ane", "to": "Bea", "amount": 9223372036854775807},
                                       {"from": "Bea", "to": "Ane", "amount": -9223372036854775808}]},
  "odd key": {"a b": "NUL in a value is fine: \\u0000", "emoji": "\\ud83c\\udca1"}
}
"""


def refused(data, **kw) -> RuleError:
    with pytest.raises(RuleError) as info:
        parse_document(data, **kw)
    err = info.value
    check_error(err)
    return err


_STEP = r'(?:\.[^\W\d]\w*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])'
PATH = re.compile(r'\$|(?:[^\W\d]\w*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])' + _STEP + "*")


def check_error(err: RuleError) -> None:
    assert err.code in CATALOG and err.code.startswith("file.")
    assert PATH.fullmatch(err.path), err.path
    text = str(err)
    assert text.startswith(err.path + ": ")
    assert err.message and "\n" not in text and "\r" not in text
    assert text.isprintable()
    text.encode("utf-8")  # no lone surrogate escapes into a message


def same(a, b) -> bool:  # repr tells 1 from 1.0 and True, and keeps key order
    return repr(a) == repr(b)


# valid documents

def test_session_file_parses_as_json_loads():
    expected = json.loads(SESSION)
    assert same(parse_document(SESSION.encode("utf-8")), expected)
    assert same(parse_document(SESSION), expected)
    assert same(parse_document(bytearray(SESSION.encode("utf-8"))), expected)


def test_utf8_bom_is_accepted():
    assert same(parse_document(b"\xef\xbb\xbf" + SESSION.encode("utf-8")), json.loads(SESSION))
    assert parse_document("\ufeff[1]") == [1]


@pytest.mark.parametrize("text", ["0", "-0", "1.5", "-2.5e-3", "1e308", "true", "null", '"x"', "[]", "{}",
                                  "[9223372036854775807, -9223372036854775808]", '{"a": {"b": [[]]}}',
                                  '  {"": 1, " ": 2}\n'])
def test_small_documents(text):
    assert same(parse_document(text.encode()), json.loads(text))


def test_depth_limit_is_inclusive():
    assert parse_document("[" * 64 + "]" * 64) is not None
    assert parse_document("[[[1]]]", max_depth=3) == [[[1]]]


def test_size_limit_is_inclusive():
    assert parse_document(b"[1234567]", max_bytes=9) == [1234567]


# refusals, one per rule

def test_not_utf8_names_the_byte():
    err = refused(b'{"players": ["Ane", "I\xf1aki"]}')
    assert err.code == "file.not_utf8" and err.params["offset"] == 22 and err.params["line"] == 1
    assert err.path == "players[1]"
    err = refused(b"\xef\xbb\xbf[\n1,\n\xed\xa0\x80]")  # an encoded surrogate is not UTF-8 either
    assert err.code == "file.not_utf8" and err.params == {"offset": 8, "line": 3}
    err = refused(b"\xff\xfe[\x001\x00]\x00")  # UTF-16
    assert err.code == "file.not_utf8" and err.params["offset"] == 0 and err.path == "$"


@pytest.mark.parametrize("data", [b"", b" \n\t\r ", b"\xef\xbb\xbf", b"\xef\xbb\xbf\n", ""])
def test_empty(data):
    err = refused(data)
    assert err.code == "file.empty" and err.path == "$"


def test_too_large():
    err = refused(b"[" + b"1," * 10 + b"1]", max_bytes=20)
    assert err.code == "file.too_large" and err.path == "$" and err.params == {"size": 23, "max": 20}
    err = refused("[\"ñññ\"]", max_bytes=8)  # text is measured in UTF-8 bytes
    assert err.code == "file.too_large" and err.params["size"] == 10


def test_invalid_json_gives_line_and_column():
    err = refused(b'{"games": [\n  {"kind": "mus",, "x": 1}\n]}')
    assert err.code == "file.syntax" and err.params["line"] == 2 and err.params["column"] == 18
    assert err.path == "games[0]"
    err = refused(b'{"a": [1, 2,, 3]}')
    assert err.code == "file.syntax" and err.path == "a[2]" and err.params["reason"] == "Expecting value"
    err = refused(b'{"a": 1} x')
    assert err.code == "file.syntax" and err.path == "$"
    err = refused(b'{"a": "tab\there"}')
    assert err.code == "file.syntax" and err.path == "a"


def test_truncated_json():
    data = SESSION.encode("utf-8")
    cut = data.index(b'"raise": 7') + len(b'"raise": ')
    err = refused(data[:cut])
    assert err.code == "file.truncated" and err.path == "games[0].hands[0].pares[1].raise"
    line = data[:cut].decode().splitlines()[-1]
    assert (err.params["line"], err.params["column"]) == (19, len(line) + 1)
    err = refused(data[:data.index(b"Koldo")])
    assert err.code == "file.truncated" and err.path == "name"
    err = refused(b'{"a": [1, 2')
    assert err.code == "file.truncated" and err.path == "a[1]"
    err = refused(b'{"a": ["x", "\\ud8')  # cut inside an escape
    assert err.code == "file.truncated" and err.path == "a[1]"
    err = refused(b'{"a": ["x", "\\ud8"]}')  # a broken escape, not a cut
    assert err.code == "file.syntax" and err.path == "a[1]"


def test_too_deep():
    err = refused(b"[" * 65 + b"]" * 65)
    assert err.code == "file.deep" and err.path == "[0]" * 64 and err.params["max"] == 64
    err = refused(b'{"games": [' + b'{"a": ' * 70 + b"1" + b"}" * 70 + b"]}", max_depth=10)
    assert err.code == "file.deep" and err.path == "games[0]" + ".a" * 8


@pytest.mark.parametrize("data,path", [
    (b"[" * 100_000, "[0]" * 64),  # the C decoder raises RecursionError: never let it out
    (b"[" * 100_000 + b"]" * 100_000, "[0]" * 64),
    (b'{"x": [1, {"odd key": ' + b'{"a": ' * 100_000, 'x[1]["odd key"]' + ".a" * 61),
], ids=["open", "closed", "objects"])
def test_too_deep_for_the_decoder(data, path):
    err = refused(data)
    assert err.code == "file.deep" and err.path == path


def test_too_deep_for_the_decoder_with_a_generous_limit():
    err = refused(b"[" * 100_000 + b"]" * 100_000, max_depth=1_000_000)
    assert err.code == "file.deep" and err.path.startswith("[0][0]")


def test_too_deep_before_a_syntax_error():
    err = refused(b"[" * 70 + b"1,,", max_depth=64)
    assert err.code == "file.deep" and err.path == "[0]" * 64


def test_huge_integer():
    digits = b"7" * 5000
    err = refused(b'{"games": [{"hands": [{"grande": [{"team": "A", "bet": 2}, {"team": "B", "raise": '
                  + digits + b"}]}]}]}")
    assert err.code == "file.int_digits" and err.path == "games[0].hands[0].grande[1].raise"
    assert err.params == {"digits": 5000}
    err = refused(b"[-" + b"1" * 21 + b"]")
    assert err.code == "file.int_digits" and err.path == "[0]"


@pytest.mark.parametrize("number", [2**63, -2**63 - 1, 10**19 * 9, -(10**20 - 1)])
def test_integer_out_of_sqlite_range(number):
    err = refused(f'{{"settle": {{"paid": [{{"amount": {number}}}]}}}}')
    assert err.code == "file.int_range" and err.path == "settle.paid[0].amount"
    assert err.params["value"] == str(number)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity(constant):
    err = refused(f'{{"players": ["Ane"], "stake": {{"per_game": {constant}}}}}')
    assert err.code == "file.not_a_number" and err.path == "stake.per_game"
    assert err.params["value"] == constant


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1" * 400 + ".5", "1.0e99999999999999999999999"])
def test_float_overflow(number):
    err = refused(f'[1.5, {{"x": {number}}}]')
    assert err.code == "file.float_range" and err.path == "[1].x"


@pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "x\\ud83d", "\\ude00\\ud83d", "\\ud800\\u0041"])
def test_lone_surrogate_in_a_value(escape):
    err = refused(f'{{"players": ["Ane", "{escape}"]}}')
    assert err.code == "file.surrogate" and err.path == "players[1]"


def test_lone_surrogate_in_a_key():
    err = refused(b'{"games": [{"cards": {"\\udc00Ane": "RR43"}}]}')
    assert err.code == "file.key_surrogate" and err.path == "games[0].cards"
    assert err.params["key"] == '"\\udc00Ane"'
    # also in text handed over as str, where the surrogate is a raw character
    err = refused('{"a": {"\ud800": 1}}')
    assert err.code == "file.key_surrogate" and err.path == "a"
    err = refused('["\udfff"]')
    assert err.code == "file.surrogate" and err.path == "[0]"


def test_nul_in_a_key():
    err = refused(b'{"players": ["Ane"], "sett\\u0000le": {}}')
    assert err.code == "file.key_nul" and err.path == "$" and err.params["key"] == '"sett\\u0000le"'


def test_duplicate_key():
    err = refused(b'{"games": [{"kind": "mus"}, {"kind": "mus", "seats": [], "kind": "newmarket"}]}')
    assert err.code == "file.duplicate_key" and err.path == "games[1]" and err.params["key"] == '"kind"'
    assert '"kind"' in err.message


def test_first_problem_in_document_order():
    assert refused(b"[1e400, NaN]").path == "[0]"
    assert refused(b'{"a": NaN, "a": 1}').code == "file.not_a_number"
    assert refused(b'{"a": 1, "a": NaN}').code == "file.duplicate_key"
    assert refused(b'{"a": [["\\ud800"]], "b": 99999999999999999999999}').path == "a[0][0]"
    assert refused(b'[[[[1]]], 1e999]', max_depth=3).path == "[0][0][0]"


def test_odd_keys_in_paths():
    assert refused(b'{"odd key": {"b": [NaN]}}').path == '["odd key"].b[0]'
    assert refused('{"games": [{"Iñaki": NaN}]}').path == "games[0].Iñaki"
    assert refused(b'{"1st": {"a\\nb": NaN}}').path == '["1st"]["a\\nb"]'
    assert refused(b'{"\\u202e": NaN}').path == '["\\u202e"]'
    long_key = "k" * 1000
    err = refused(f'{{"{long_key}": NaN}}')
    assert err.path == '["' + "k" * 60 + '…"]'


# fuzz: parsed (and then exactly json.loads's value) or refused with a path; never anything else

def outcome(data):
    try:
        value = parse_document(data)
    except RuleError as err:
        check_error(err)
        return err
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    assert same(value, json.loads(text.removeprefix("\ufeff")))
    return value


odd_keys = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=["Cs"]), max_size=6)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(odd_keys, inner, max_size=4),
    max_leaves=20,
)

JSONISH = list('{}[],:"\\ \n0123456789-+.eEtrufalsnNIiy') + ["\\u", "\\ud800", "\\udc00", "\ud800", "\x00",
                                                               "\\u0000", "é", "🂡", "\ufeff"]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=64))
def test_fuzz_random_bytes(data):
    outcome(data)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(JSONISH), max_size=40).map("".join), st.booleans())
def test_fuzz_jsonish_text(text, as_bytes):
    outcome(text.encode("utf-8", "surrogatepass") if as_bytes else text)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_fuzz_valid_documents_parse(value):
    text = json.dumps(value)
    assert same(parse_document(text.encode()), json.loads(text))


def path_steps(path: str) -> list:
    """``games[0]["odd key"].x`` -> ``["games", 0, "odd key", "x"]`` (the inverse of the paths it writes)."""
    if path == "$":
        return []
    steps = []
    for m in re.finditer(r'\.?([^\W\d]\w*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]', path):
        steps.append(m[1] if m[1] is not None else int(m[2]) if m[2] is not None else json.loads(m[3]))
    return steps


def first_nan(value, steps=()):
    if isinstance(value, float) and value != value:
        return list(steps)
    items = enumerate(value) if isinstance(value, list) else value.items() if isinstance(value, dict) else ()
    for k, v in items:
        found = first_nan(v, (*steps, k))
        if found is not None:
            return found
    return None


values_with_nan = st.recursive(
    st.integers(-5, 5) | st.just(float("nan")) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(odd_keys, inner, max_size=4),
    max_leaves=25,
).filter(lambda v: first_nan(v) is not None)


@settings(max_examples=200, deadline=None)
@given(values_with_nan)
def test_fuzz_paths_lead_to_the_first_problem(value):
    err = refused(json.dumps(value, ensure_ascii=False).encode("utf-8"))
    assert err.code == "file.not_a_number"
    assert path_steps(err.path) == first_nan(value)


def resolves(doc, steps) -> bool:
    """Every step of the path exists in doc, except that the last may be the first element of an empty list."""
    for i, step in enumerate(steps):
        if isinstance(step, int) and isinstance(doc, list) and step < len(doc):
            doc = doc[step]
        elif isinstance(step, str) and isinstance(doc, dict) and step in doc:
            doc = doc[step]
        else:
            return i == len(steps) - 1 and doc == [] and step == 0
    return True


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.just(SESSION), json_values.map(json.dumps),
                 st.recursive(st.integers(0, 9) | st.text(max_size=3),
                              lambda inner: st.lists(inner, max_size=4) | st.dictionaries(odd_keys, inner, max_size=4),
                              max_leaves=30).map(lambda v: json.dumps(v, ensure_ascii=False, indent=1))),
       st.floats(0, 1))
def test_fuzz_truncation_paths_exist(text, where):
    data = text.encode("utf-8")[:int(where * len(text.encode("utf-8")))]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return
    result = outcome(data)
    if isinstance(result, RuleError) and result.code in ("file.truncated", "file.syntax"):
        assert resolves(json.loads(text), path_steps(result.path)), result.path


MUTATIONS = {
    "truncate": lambda data, pos, blob: data[:pos],
    "insert": lambda data, pos, blob: data[:pos] + blob + data[pos:],
    "replace": lambda data, pos, blob: data[:pos] + blob + data[pos + len(blob):],
    "nest": lambda data, pos, blob: data[:pos] + b"[" * (len(blob) * 300) + data[pos:],
    "nest_objects": lambda data, pos, blob: data[:pos] + b'{"k":' * (len(blob) * 30) + data[pos:],
    "huge_int": lambda data, pos, blob: data[:pos] + b"9" * (len(blob) * 1000) + data[pos:],
    "big_int": lambda data, pos, blob: data[:pos] + b"-92233720368547758" + blob[:1].hex().encode() + data[pos:],
    "big_float": lambda data, pos, blob: data[:pos] + b"1e" + str(len(blob) * 100).encode() + data[pos:],
    "constant": lambda data, pos, blob: data[:pos] + [b"NaN", b"Infinity", b"-Infinity"][len(blob) % 3] + data[pos:],
    "surrogate": lambda data, pos, blob: data[:pos] + b"\\ud8" + blob[:1].hex().encode() + data[pos:],
    "nul": lambda data, pos, blob: data[:pos] + b"\\u0000" + data[pos:],
    "duplicate_key": lambda data, pos, blob: _duplicate_key(data, pos),
    "bom": lambda data, pos, blob: b"\xef\xbb\xbf" + data,
}


def _duplicate_key(data: bytes, pos: int) -> bytes:
    at = data.find(b'{"', pos)
    if at < 0:
        at = data.find(b'{"')
    if at < 0:
        return data
    end = data.find(b'"', at + 2)  # the key, if it has no escaped quote (else: some other mutation)
    key = data[at + 1:end + 1]
    return data[:at + 1] + key + b": 1, " + data[at + 1:]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.just(SESSION), json_values.map(json.dumps), json_values.map(
           lambda v: json.dumps(v, ensure_ascii=False, indent=1))),
       st.lists(st.tuples(st.sampled_from(sorted(MUTATIONS)), st.floats(0, 1), st.binary(min_size=1, max_size=6)),
                min_size=1, max_size=3),
       st.booleans())
def test_fuzz_mutated_documents(text, mutations, as_bytes):
    data = text.encode("utf-8")
    for name, where, blob in mutations:
        data = MUTATIONS[name](data, int(where * len(data)), blob)
    if not as_bytes:
        data = data.decode("utf-8", "replace")
    outcome(data)


# ------------------------------------------------------------------------------- what a file costs in memory

def test_too_many_values_are_refused_before_anything_is_built():
    from companion.domain.jsonparse import MAX_VALUES

    err = refused(b"[" + b"[]," * (MAX_VALUES // 2) + b"[]]")
    assert err.code == "file.too_many_values" and err.path == "$"
    assert refused("[" + "0," * MAX_VALUES + "0]").code == "file.too_many_values"      # text too
    assert parse_document(b"[" + b"0," * 1000 + b"0]", max_values=1002) == [0] * 1001     # the list and 1,001
    assert refused(b"[" + b"0," * 1000 + b"0]", max_values=1001).code == "file.too_many_values"


@pytest.mark.parametrize("unit, code", [(b"1e999", "file.float_range"), (b"NaN", "file.not_a_number"),
                                        (b"123456789012345678901", "file.int_digits")])
def test_refused_numbers_cost_a_pointer_each_and_the_first_is_named(unit, code):
    import tracemalloc

    data = b'{"ok": [1, 2], "bad": [' + b", ".join([unit] * 200_000) + b"]}"
    tracemalloc.start()
    try:
        err = refused(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert err.code == code and err.path == "bad[0]"
    # the decoded text and a list of pointers; a message object for each number was 50 times the size
    assert peak < 3 * len(data), (peak, len(data))
    # the first refused number is named wherever it is, after refused ones or not
    assert refused(b'[1, [2, ' + unit + b'], ' + unit + b']').path == "[1][1]"
