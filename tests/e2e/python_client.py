"""Drives the server with the Python `mcp` client, which tries protocol 2026-07-28 (server/discover)
before the initialize handshake. Prints one JSON line the Node test asserts on.

Usage: python_client.py MCP_URL
"""

import asyncio
import json
import sys

from mcp import Client


async def main(url: str) -> None:
    async with Client(url) as client:
        tools = await client.list_tools()
        guide = await client.call_tool("get_ordering_guide", {})
        prompts = await client.list_prompts()
        resources = await client.list_resources()
        text = guide.content[0].text if guide.content else ""
        print(
            json.dumps(
                {
                    "server": client.server_info.name if client.server_info else None,
                    "protocolVersion": client.protocol_version,
                    "tools": [tool.name for tool in tools.tools],
                    "guideIsError": bool(guide.is_error),
                    "guideHasSuggestions": "## Suggestions" in text,
                    "prompts": [prompt.name for prompt in prompts.prompts],
                    "resources": [str(resource.uri) for resource in resources.resources],
                }
            )
        )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
