"""Every SQL statement of the app: connections (SQLite, PostgreSQL), the migrations, the event store, the
derived tables, the poll's read and the live versions. Layers above call functions here, never SQL."""
