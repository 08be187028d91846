"""ANP's official Python SDK (`anp` from PyPI) as a client of agentnet, for
tests/e2e/protocols/anp-sdk.test.mjs. Only the SDK's public API, in its default modes:

  create DIR HOST PORT NAME     a did:wba (the SDK's default e1 profile) -> DIR; prints {did, path, document}
  request DIR METHOD URL [BODY] ANPClient.fetch_url (HTTP Message Signatures); prints {status, text}
  crawl DIR AD_URL TOOL ARGS    ANPCrawler.fetch_text(AD_URL), then execute_tool_call(TOOL, ARGS);
                                prints {tools, result}
  session DIR URL               two GETs through one ANPClient: the first signed, the second
                                with the access token the SDK cached from the first answer;
                                prints {statuses, sent, info, cached}

Each run is one process, so each signs afresh (no cached bearer) except within `session`.
"""

import asyncio
import json
import os
import sys

from anp.anp_crawler.anp_client import ANPClient
from anp.anp_crawler.anp_crawler import ANPCrawler
from anp.authentication import create_did_wba_document


def paths(directory):
    return os.path.join(directory, "did.json"), os.path.join(directory, "key-1.pem")


def create(directory, host, port, name):
    document, keys = create_did_wba_document(
        hostname=host, port=int(port), path_segments=["agents", name]
    )
    os.makedirs(directory, exist_ok=True)
    did_path, key_path = paths(directory)
    with open(did_path, "w", encoding="utf-8") as out:
        json.dump(document, out)
    with open(key_path, "wb") as out:
        out.write(keys["key-1"][0])
    # did:wba:host%3Aport:a:b -> /a/b/did.json
    segments = document["id"].split(":")[3:]
    return {"did": document["id"], "path": "/" + "/".join(segments) + "/did.json", "document": document}


async def request(directory, method, url, body=None):
    client = ANPClient(*paths(directory))
    answer = await client.fetch_url(url, method=method, body=json.loads(body) if body else None)
    return {"status": answer["status_code"], "text": answer["text"]}


async def crawl(directory, ad_url, tool, args):
    crawler = ANPCrawler(*paths(directory), cache_enabled=False)
    _, interfaces = await crawler.fetch_text(ad_url)
    tools = [i["function"]["name"] for i in interfaces]
    result = await crawler.execute_tool_call(tool, json.loads(args)) if tool in tools else None
    return {"tools": tools, "result": result}


async def session(directory, url):
    client = ANPClient(*paths(directory))
    auth = client.auth_client
    sent, info = [], []
    sign, update = auth.get_auth_header, auth.update_token

    def recording_sign(*args, **kwargs):
        headers = sign(*args, **kwargs)
        sent.append("signature" if "Signature-Input" in headers else headers.get("Authorization", ""))
        return headers

    def recording_update(server_url, headers):
        info.append(next((v for k, v in headers.items() if k.lower() == "authentication-info"), None))
        return update(server_url, headers)

    auth.get_auth_header, auth.update_token = recording_sign, recording_update
    first = await client.fetch_url(url)
    cached = list(auth.tokens.values())
    second = await client.fetch_url(url)
    return {"statuses": [first["status_code"], second["status_code"]], "sent": sent,
            "info": info, "cached": cached}


def main(argv):
    command, rest = argv[1], argv[2:]
    if command == "create":
        out = create(*rest)
    elif command == "request":
        out = asyncio.run(request(*rest))
    elif command == "crawl":
        out = asyncio.run(crawl(*rest))
    elif command == "session":
        out = asyncio.run(session(*rest))
    else:
        raise SystemExit(f"unknown command {command}")
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv)
