"""The catalogs are complete (issue 11): extracting every message of the code and the templates with
`pybabel extract` finds nothing without a Spanish and a Japanese translation, no translation loses or
invents a placeholder, and the compiled catalogs the app reads are those of the .po files."""
import importlib.util
import os

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("i18n_tool", os.path.join(ROOT, "tools", "i18n.py"))
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)


def test_every_message_has_a_spanish_and_a_japanese_translation(tmp_path):
    pot = str(tmp_path / "messages.pot")
    tool.extract(pot)
    problems = tool.problems(pot)
    assert problems == [], f"{len(problems)} problems, first: {problems[:15]}"


def test_the_compiled_catalogs_are_those_of_the_po_files():
    for lang in tool.LANGS:
        base = os.path.join(tool.DIR, lang, "LC_MESSAGES", "messages")
        with open(base + ".po", "rb") as fh:
            po = read_po(fh, locale=lang)
        with open(base + ".mo", "rb") as fh:
            mo = read_mo(fh)
        def key(v):
            return tuple(v) if isinstance(v, (list, tuple)) else v

        want = {(m.context, key(m.id)): key(m.string) for m in po if m.id and m.string and not m.fuzzy}
        have = {(m.context, key(m.id)): key(m.string) for m in mo if m.id}
        assert have == want, f"{lang}: run `python tools/i18n.py compile`"
