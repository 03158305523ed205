"""The Python `mcp` client connecting with OAuth: discovery, dynamic registration, /authorize
through the GitHub stand-in, our consent page, code, token, then tools. The browser part is
played with plain HTTP requests (no redirects followed), like a person clicking Approve.
Prints one JSON line the Node test asserts on.

Usage: python_oauth.py MCP_URL
"""

import asyncio
import json
import re
import sys
from urllib.parse import parse_qs, urlparse

import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata

REDIRECT_URI = "http://127.0.0.1:33419/callback"


class MemoryStorage:
    def __init__(self):
        self.tokens = None
        self.client_info = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info):
        self.client_info = client_info


def cookie(response, prefix):
    for header in response.headers.get_list("set-cookie"):
        pair = header.split(";", 1)[0]
        name, _, value = pair.partition("=")
        if name.startswith(prefix) and value:
            return pair
    return None


def hidden(html, name):
    match = re.search(rf'name="{name}" value="([^"]*)"', html)
    return match.group(1) if match else None


async def main(url: str) -> None:
    base = f"{urlparse(url).scheme}://{urlparse(url).netloc}"
    result: dict = {}

    async def redirect_handler(authorization_url: str) -> None:
        async with httpx2.AsyncClient(follow_redirects=False) as browser:
            started = await browser.get(authorization_url)
            flow = cookie(started, "__Host-lf_flow")
            approved = await browser.get(started.headers["location"])
            callback = await browser.get(approved.headers["location"], headers={"cookie": flow})
            html = callback.text
            consent = await browser.post(
                f"{base}/authorize/consent",
                data={"consent": hidden(html, "consent"), "csrf": hidden(html, "csrf"), "action": "approve", "write": "on"},
                headers={"cookie": cookie(callback, "__Host-lf_csrf"), "origin": base},
            )
            query = parse_qs(urlparse(consent.headers["location"]).query)
            result["code"] = query["code"][0]
            result["state"] = query.get("state", [None])[0]
            result["iss"] = query.get("iss", [None])[0]

    async def callback_handler() -> AuthorizationCodeResult:
        return AuthorizationCodeResult(code=result["code"], state=result["state"], iss=result["iss"])

    provider = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            client_name="Python e2e",
            redirect_uris=[REDIRECT_URI],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
            scope="reviews",
        ),
        storage=MemoryStorage(),
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )
    async with httpx2.AsyncClient(auth=provider, timeout=30) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            tools = await client.list_tools()
            pr = await client.call_tool("get_pull_request", {"owner": "logikflow", "repo": "demo", "number": 3})
            print(
                json.dumps(
                    {
                        "tools": [tool.name for tool in tools.tools],
                        "pullRequestError": bool(pr.is_error),
                        "canArrange": (pr.structured_content or {}).get("canArrange"),
                        "signedIn": "code" in result,
                    }
                )
            )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
