CREATE TABLE IF NOT EXISTS orders (
  version INTEGER PRIMARY KEY,
  body TEXT NOT NULL,
  person TEXT NOT NULL,
  client TEXT,
  source TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  saved_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS diagrams (
  version INTEGER PRIMARY KEY,
  body TEXT NOT NULL,
  person TEXT NOT NULL,
  client TEXT,
  source TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  saved_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ticks (
  person TEXT NOT NULL,
  item TEXT NOT NULL,
  done INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (person, item)
);
CREATE TABLE IF NOT EXISTS heads (
  head_sha TEXT PRIMARY KEY,
  files TEXT NOT NULL,
  recorded_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS drafts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  person TEXT NOT NULL,
  draft TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS drafts_by_person ON drafts (person);
CREATE TABLE IF NOT EXISTS reviewers (
  person TEXT PRIMARY KEY,
  login TEXT NOT NULL,
  seen_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS receipts (
  review_id TEXT PRIMARY KEY,
  person TEXT NOT NULL,
  receipt TEXT NOT NULL,
  sent_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS receipts_by_person ON receipts (person);
