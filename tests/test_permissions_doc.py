"""docs/permissions.md shows the permission table exactly as ``companion.permit`` decides it."""
import os

from companion.permit import markdown

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_page_shows_the_table_the_function_uses():
    with open(os.path.join(ROOT, "docs", "permissions.md"), encoding="utf-8") as fh:
        text = fh.read()
    assert text.endswith(markdown()), "regenerate the table: python -c 'from companion.permit import markdown; print(markdown())'"
