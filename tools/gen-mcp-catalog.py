#!/usr/bin/env python3
"""Derive the project's MCP server catalog from E2B's gateway JSON Schema.

Usage: gen-mcp-catalog.py [INPUT] [OUTPUT]

INPUT defaults to ../shared/e2b-spec/mcp-server.json (beside the checkout),
OUTPUT to resources/mcp-catalog.json. The output is committed, so a fresh clone
builds without the schema; rerun this script when the schema changes.

Only facts are kept: server id, title, and per option its name, JSON type,
required flag and whether it looks like a secret (so the UI can mask it).
Descriptions and other prose are deliberately left out. The output is sorted
and written one server per line, so regenerating gives the same bytes and a
schema change shows up as a readable diff.
"""

import json
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The shared reference folder sits beside the main checkout; a worktree is one
# level deeper, so look in both places.
INPUT_CANDIDATES = [os.path.join(REPO, *[".."] * up, "shared", "e2b-spec", "mcp-server.json")
                    for up in (1, 2)]
DEFAULT_INPUT = next((p for p in INPUT_CANDIDATES if os.path.exists(p)), INPUT_CANDIDATES[0])
DEFAULT_OUTPUT = os.path.join(REPO, "resources", "mcp-catalog.json")

JSON_TYPES = {"string", "integer", "number", "boolean", "array", "object"}

# Words that mark an option holding a credential. "pwd" is how two servers name
# their password. Names ending in a word below name a place or an identifier of
# a credential (sslKeyfile, credentialsPath, keyId, responseTokenLimit, tokenName),
# not the credential itself.
SECRET_WORDS = ("key", "token", "secret", "password", "pwd", "cookie",
                "authorization", "bearer", "connectionstring", "credential")
NOT_SECRET_SUFFIXES = ("path", "file", "url", "uri", "dir", "id", "name", "limit",
                       "level", "endpoint", "host", "port")
# Database URLs usually carry the password inside them.
SECRET_URL_WORDS = ("databaseurl", "jdbcurl")


def is_secret(name, type_):
    if type_ not in ("string", None):
        return False
    lower = name.lower()
    if any(word in lower for word in SECRET_URL_WORDS):
        return True
    if lower.endswith(NOT_SECRET_SUFFIXES):
        return False
    return any(word in lower for word in SECRET_WORDS)


def option_type(schema):
    """Returns (type, item type) of an option schema; None when untyped."""
    type_ = schema.get("type")
    if isinstance(type_, list):
        # A union such as ["string", "null"]: keep the first real type.
        type_ = next((t for t in type_ if t != "null"), None)
    if type_ is not None and type_ not in JSON_TYPES:
        raise SystemExit(f"unsupported option type {type_!r}")
    items = None
    if type_ == "array":
        items = option_type(schema.get("items", {}))[0]
    return type_, items


def derive(schema):
    servers = []
    for server_id in sorted(schema.get("properties", {})):
        server = schema["properties"][server_id]
        props = server.get("properties", {})
        required = set(server.get("required", []))
        options = []
        # A required name without a schema (one server has it) is kept as
        # required but untyped: the catalog records the schema, it does not fix it.
        for name in sorted(set(props) | required):
            type_, items = option_type(props.get(name, {}))
            option = {"name": name, "type": type_ if type_ else "any"}
            if items:
                option["items"] = items
            option["required"] = name in required
            option["secret"] = is_secret(name, type_)
            options.append(option)
        servers.append({"id": server_id, "title": server.get("title", server_id),
                        "options": options})
    return servers


def render(servers, source):
    lines = ["{", f'"source": {json.dumps(source)},', '"servers": [']
    for i, server in enumerate(servers):
        sep = "," if i + 1 < len(servers) else ""
        lines.append(json.dumps(server, ensure_ascii=False, separators=(",", ":")) + sep)
    lines += ["]", "}", ""]
    return "\n".join(lines)


def main(argv):
    if len(argv) > 3 or any(a in ("-h", "--help") for a in argv[1:]):
        print(__doc__.strip())
        return 0 if len(argv) <= 3 else 2
    src = argv[1] if len(argv) > 1 else DEFAULT_INPUT
    dst = argv[2] if len(argv) > 2 else DEFAULT_OUTPUT
    with open(src, encoding="utf-8") as f:
        schema = json.load(f)
    servers = derive(schema)
    text = render(servers, "e2b-dev/E2B mcp-server.json (Apache-2.0), facts only")
    with open(dst, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"{dst}: {len(servers)} servers, "
          f"{sum(len(s['options']) for s in servers)} options", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
