-- A person's object as the build before `app::person` (main at 160ae30, `store/person.rs`)
-- wrote it: the same statements, the values it bound (integers for times and flags, JSON for a
-- code's record and a pending consent's request). Token hashes are `{name}` placeholders the
-- test fills with `oauth::tokens::hash` of tokens it mints (their format is pinned by
-- `tests/data/stored-values/`); the sealed GitHub token is in the tests' sealer's format.
INSERT INTO github (id, login, sealed, updated_at) VALUES (1, 'octo', 'test.gh:42|{"access_token":"gho_old","refresh_token":null,"expires_at":null,"refresh_expires_at":null}', 1799990000);
INSERT INTO grants (id, client_id, client_name, redirect_uri, resource, may_write, created_at, last_used_at) VALUES ('grant-old', 'app', 'App app', 'https://app.example/cb', 'https://logikflow.test/mcp', 1, 1799990000, 1799990000);
INSERT INTO tokens (hash, kind, grant_id, expires_at, spent) VALUES ('{access}', 'access', 'grant-old', 1800003600, 0);
INSERT INTO tokens (hash, kind, grant_id, expires_at, spent) VALUES ('{refresh}', 'refresh', 'grant-old', 1802592000, 0);
INSERT INTO tokens (hash, kind, grant_id, expires_at, spent) VALUES ('{spent}', 'refresh', 'grant-old', 1802592000, 1);
INSERT INTO codes (hash, record, expires_at, grant_id) VALUES ('{code}', '{"client_id":"app","client_name":"App app","redirect_uri":"https://app.example/cb","redirect_uri_sent":true,"code_challenge":"{challenge}","resource":"https://logikflow.test/mcp","may_write":false,"expires_at":1800000600,"grant_id":null}', 1800000600, NULL);
INSERT INTO consents (client_id, redirect_key, may_write, created_at) VALUES ('app', 'https://app.example/cb', 1, 1799990000);
INSERT INTO api_tokens (id, hash, name, may_write, created_at, last_used_at) VALUES ('api-old', '{api}', 'CI', 0, 1799990000, 0);
INSERT INTO pending (hash, csrf_hash, login, request, expires_at) VALUES ('{consent}', '{csrf}', 'octo', '{"client_id":"other","client_name":"App other","verified_domain":null,"redirect_uri":"https://other.example/cb","redirect_uri_sent":true,"state":"st","code_challenge":"{challenge}","resource":"https://logikflow.test/mcp"}', 1800000600);
INSERT INTO ticked (key, owner, repo, number, login, at) VALUES ('logikflow/demo#7@octo', 'LogiKFlow', 'Demo', 7, 'octo', 1799990000);
