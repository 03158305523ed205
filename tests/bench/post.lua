-- wrk script: POSTs the JSON body and headers given in the environment (BODY, HEADERS as
-- "name: value" lines) so the same script loads any MCP request.
wrk.method = "POST"
wrk.body = os.getenv("BODY") or ""
wrk.headers["content-type"] = "application/json"
for line in string.gmatch(os.getenv("HEADERS") or "", "[^\n]+") do
  local name, value = line:match("^([^:]+):%s*(.*)$")
  if name then wrk.headers[name] = value end
end
