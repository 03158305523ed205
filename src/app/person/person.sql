CREATE TABLE IF NOT EXISTS github (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  login TEXT NOT NULL,
  sealed TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS grants (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  client_name TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  resource TEXT NOT NULL,
  may_write INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
  hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  grant_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  spent INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tokens_by_grant ON tokens (grant_id);
CREATE TABLE IF NOT EXISTS codes (
  hash TEXT PRIMARY KEY,
  record TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  grant_id TEXT
);
CREATE TABLE IF NOT EXISTS consents (
  client_id TEXT NOT NULL,
  redirect_key TEXT NOT NULL,
  may_write INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (client_id, redirect_key)
);
CREATE TABLE IF NOT EXISTS api_tokens (
  id TEXT PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  may_write INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS pending (
  hash TEXT PRIMARY KEY,
  csrf_hash TEXT NOT NULL,
  login TEXT NOT NULL,
  request TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS ticked (
  key TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  repo TEXT NOT NULL,
  number INTEGER NOT NULL,
  login TEXT NOT NULL,
  at INTEGER NOT NULL
);
