from companion import service
from companion.record import session as S
from companion.storage import store
from companion.storage.db import connect


def browser_of(client) -> str:
    client.get("/")
    with client.session_transaction() as s:
        return s["browser"]


def load_docs(app, client, docs, browser=None):
    """Store the sessions as if this client's browser had created them."""
    browser = browser or browser_of(client)
    db = connect(app.config["DATABASE"])
    for d in docs:
        service.create(db, S.load(d), browser=browser)
    return db
