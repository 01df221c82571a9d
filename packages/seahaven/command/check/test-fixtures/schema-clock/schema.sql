-- Fine: defaults and stamping triggers replay under the virtual clock.
CREATE TABLE items (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  touched_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  due INTEGER,
  age_days REAL GENERATED ALWAYS AS (julianday('now') - julianday(created_at)) VIRTUAL,
  CHECK (due IS NULL OR due >= unixepoch())
) STRICT;

CREATE TABLE reminders (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL CHECK (at > CURRENT_TIMESTAMP)
) STRICT;

CREATE INDEX items_recent ON items (name) WHERE created_at > date('now', '-7 days');
CREATE INDEX items_age ON items (julianday() - julianday(created_at));
CREATE INDEX items_name ON items (lower(name));

CREATE TRIGGER items_touch AFTER UPDATE OF name ON items
BEGIN
  UPDATE items SET touched_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = NEW.id;
END;

CREATE VIEW items_local AS SELECT id, datetime(created_at, 'localtime') AS created_local FROM items;
