import pytest

from companion import create_app


@pytest.fixture
def app(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.db"),
                      "BASE_URL": "http://table.example:8000"})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


from helpers import csrf, form_fields, new_session, start_session  # noqa: F401  (import from helpers)
