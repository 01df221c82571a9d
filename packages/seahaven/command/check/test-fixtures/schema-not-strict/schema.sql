-- The items table forgot STRICT.
CREATE TABLE items (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL
);
