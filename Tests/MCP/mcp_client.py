"""Drives `phr mcp` with the official MCP Python SDK, as a real client does, and checks its answers
against what `phr ... --json` prints for the same question.

Usage: mcp_client.py CONFIG_JSON
CONFIG_JSON: {"phr": path, "env": {...}, "check": "full" | "scoped" | "all-profiles" | "agent",
              "canary": text that must never be in an answer, "document": a document ID}
Prints "ok ..." lines and "calls N" (the calls the access log must hold); exits 1 on a failure.
"""

import asyncio
import json
import subprocess
import sys

from mcp import Client, StdioServerParameters
from mcp.types import Implementation
from mcp.shared.exceptions import MCPError

config = json.loads(sys.argv[1])
PHR = config["phr"]
ENV = config["env"]
CANARY = config.get("canary", "")
failures = []
logged_calls = 0


def check(condition, words):
    if condition:
        print("ok  ", words)
    else:
        print("FAIL", words)
        failures.append(words)


def cli(*arguments):
    """What `phr ARGUMENTS --json` prints, parsed (run in its own process, never through an agent)."""
    env = dict(ENV, PHR_NO_AGENT="1", PHR_OFFLINE="1")
    done = subprocess.run([PHR, *arguments, "--json"], env=env, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        return {"exit": done.returncode, "stderr": done.stderr}
    return json.loads(done.stdout)


def server(*flags):
    return StdioServerParameters(command=PHR, args=["mcp", *flags], env=ENV)


async def call(client, name, arguments=None):
    """A tool's structured answer; checks the text block says the same and the canary is absent."""
    global logged_calls
    logged_calls += 1
    result = await client.call_tool(name, arguments or {})
    text = result.content[0].text if result.content else ""
    if CANARY:
        check(CANARY not in text and CANARY not in json.dumps(result.structured_content),
              f"{name}: no record outside the scope in the answer")
    if not result.is_error and result.structured_content is not None:
        check(json.loads(text) == result.structured_content, f"{name}: the text block is the structured content")
    return result


async def refused(client, name, arguments, words, protocol_error=False):
    """Refused: an unknown tool as the protocol's invalid-params error; a tool's refused argument
    as a result with isError (2025-11-25 and later: the model reads why), naming the field."""
    global logged_calls
    logged_calls += 1
    try:
        result = await client.call_tool(name, arguments)
    except MCPError as error:
        check(protocol_error and error.error.code == -32602, f"{words}: refused with invalid params ({error.error.message})")
        return error.error.message
    said = result.content[0].text if result.content else ""
    check(not protocol_error and result.is_error and "arguments." in said, f"{words}: refused as a tool error ({said})")
    return said


def without(record, key):
    return {k: v for k, v in record.items() if k != key}


async def full():
    """Every tool and resource, in both protocol eras, equal to the CLI."""
    global logged_calls
    document = config["document"]
    for mode, version in (("auto", "2026-07-28"), ("legacy", "2025-11-25")):
        async with Client(server(), mode=mode, client_info=Implementation(name=f"phr-test-{mode}", version="1.0")) as client:
            check(client.protocol_version == version, f"{mode}: protocol {client.protocol_version}")
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            check(set(tools) == {"list_profiles", "search", "list_records", "get_record", "document_text", "lab_trend",
                                 "medications", "due_doses", "log_stats", "appointments", "emergency_summary",
                                 "medical_id", "drug_information", "interaction_warnings"}, f"{mode}: all fourteen tools")
            check(all(tool.annotations.read_only_hint for tool in tools.values()), f"{mode}: every tool says it only reads")
            check(tools["search"].input_schema["required"] == ["query"], f"{mode}: search's schema requires a query")
            if mode == "legacy":
                result = await call(client, "list_records", {"kind": "medications"})
                check(result.structured_content["records"] == cli("med", "list", "--all"), "legacy: the same answer")
                continue

            result = await call(client, "list_profiles")
            check(result.structured_content["profiles"] == [p for p in cli("profile", "list") if p["default"]],
                  "list_profiles: only the default profile")
            result = await call(client, "search", {"query": "ferritin"})
            check(result.structured_content["hits"] == cli("search", "ferritin")["hits"], "search equals phr search")
            check(len(result.structured_content["hits"]) >= 2, "search: ferritin found")
            first = await call(client, "search", {"query": "ferritin", "limit": 1})
            second = await call(client, "search", {"query": "ferritin", "limit": 1,
                                                   "cursor": first.structured_content["next_cursor"]})
            check(second.structured_content["hits"] == cli("search", "ferritin")["hits"][1:2], "search: the next page")
            kinds = {"documents": ("doc", "list"), "medications": ("med", "list", "--all"),
                     "appointments": ("appt", "list"), "lab_results": ("lab", "list"),
                     "observations": ("observation", "list"), "log_entries": ("log", "list"),
                     "contacts": ("contact", "list"), "allergies": ("allergy", "list"),
                     "conditions": ("condition", "list"), "immunizations": ("immunization", "list"),
                     "procedures": ("procedure", "list"), "family_history": ("family", "list")}
            for kind, command in kinds.items():
                result = await call(client, "list_records", {"kind": kind, "limit": 200})
                check(result.structured_content["records"] == cli(*command), f"list_records {kind} equals phr {' '.join(command)}")
            logs = cli("log", "list")
            page = await call(client, "list_records", {"kind": "log_entries", "limit": 2})
            rest = await call(client, "list_records", {"kind": "log_entries", "limit": 200,
                                                       "cursor": page.structured_content["next_cursor"]})
            check(page.structured_content["records"] + rest.structured_content["records"] == logs, "list_records: pages add up")
            dated = await call(client, "list_records", {"kind": "lab_results", "since": "2025-08-01"})
            check(all(r["effective"][:10] >= "2025-08-01" for r in dated.structured_content["records"])
                  and 0 < len(dated.structured_content["records"]) < len(cli("lab", "list")), "list_records: since")
            med = cli("med", "list")[0]
            result = await call(client, "get_record", {"kind": "medications", "id": med["id"]})
            check(result.structured_content == cli("med", "show", med["id"]), "get_record equals phr med show")
            contact = cli("contact", "list")[0]
            result = await call(client, "get_record", {"kind": "contacts", "id": contact["id"]})
            check(result.structured_content == {"record": contact}, "get_record of a contact")
            result = await call(client, "get_record", {"kind": "allergies", "id": "zzzzzz"})
            check(result.is_error and "zzzzzz" in result.content[0].text, "get_record: not found is a tool error")
            shown = cli("doc", "show", document, "--text")
            whole = "".join(page["text"] for page in shown["text"])
            result = await call(client, "document_text", {"id": document})
            check("".join(p["text"] for p in result.structured_content["pages"]) == whole, "document_text equals phr doc show --text")
            pieces, cursor, calls = [], None, 0
            while True:
                arguments = {"id": document, "max_chars": 1000}
                if cursor:
                    arguments["cursor"] = cursor
                chunk = (await call(client, "document_text", arguments)).structured_content
                check(sum(len(p["text"]) for p in chunk["pages"]) <= 1000, "document_text: a chunk holds at most max_chars")
                pieces += [p["text"] for p in chunk["pages"]]
                cursor, calls = chunk["next_cursor"], calls + 1
                if not cursor or calls > 50:
                    break
            check("".join(pieces) == whole and calls > 1, f"document_text: {calls} chunks add up to the text")
            result = await call(client, "document_text", {"id": document, "first_page": 2, "last_page": 2})
            check([p["page"] for p in result.structured_content["pages"]] == [2], "document_text: a page range")
            trend = cli("lab", "trend", "ferritin")
            result = await call(client, "lab_trend", {"analyte": "ferritin"})
            check(result.structured_content == trend, "lab_trend equals phr lab trend")
            result = await call(client, "medications")
            check([m["medication"] for m in result.structured_content["medications"]] == cli("med", "list"),
                  "medications: the list")
            check(all("adherence" in m and "doses" not in m for m in result.structured_content["medications"]),
                  "medications: adherence, without the dose log")
            result = await call(client, "due_doses", {"within": "3d"})
            due = cli("med", "due", "--within", "3d")
            check([without(d, "in_seconds") for d in result.structured_content["due"]] == [without(d, "in_seconds") for d in due],
                  "due_doses equals phr med due")
            result = await call(client, "log_stats", {"period": "month", "metric": "water"})
            check(result.structured_content == cli("stats", "water", "--month"), "log_stats equals phr stats")
            result = await call(client, "appointments", {"from": "2020-01-01", "to": "2099-12-31"})
            check(result.structured_content["appointments"] == cli("appt", "list"), "appointments equal phr appt list")
            result = await call(client, "emergency_summary")
            check(result.structured_content == cli("emergency"), "emergency_summary equals phr emergency")
            result = await call(client, "medical_id")
            check(result.structured_content == cli("id", "show"), "medical_id equals phr id show")
            result = await call(client, "drug_information", {"medicine": "ibuprofen"})
            check(result.is_error and "offline" in result.content[0].text, "drug_information: offline, the kept answers only")
            result = await call(client, "interaction_warnings")
            checked = cli("med", "check")
            if "exit" in checked:  # offline without kept answers: the same words as a tool error
                said = checked["stderr"].splitlines()[0].removeprefix("phr: error: ")
                check(result.is_error and result.content[0].text.startswith(said), f"interaction_warnings says what phr med check says: {said}")
            else:
                check(result.structured_content == checked, "interaction_warnings equals phr med check")

            logged_calls += 1
            resources = (await client.list_resources()).resources
            uris = [str(r.uri) for r in resources]
            check(uris == ["phr://me/summary", f"phr://me/documents/{document}"], f"resources: {uris}")
            logged_calls += 1
            summary = await client.read_resource("phr://me/summary")
            check(json.loads(summary.contents[0].text) == cli("emergency"), "the summary resource")
            logged_calls += 1
            described = json.loads((await client.read_resource(f"phr://me/documents/{document}")).contents[0].text)
            check(len(described["pages"]) == shown["document"]["page_count"], "a document resource names its pages")
            logged_calls += 1
            page = await client.read_resource(described["pages"][0])
            check(page.contents[0].text == shown["text"][0]["text"], "a page resource is the page's text")
            templates = (await client.list_resource_templates()).resource_templates
            check([t.uri_template for t in templates] == ["phr://{profile}/documents/{id}/pages/{page}"], "the page template")

            # Outside the scope: another profile, by argument and by URI.
            await refused(client, "search", {"query": "tablets", "profile": "Sam"}, "another profile's search")
            await refused(client, "list_records", {"kind": "medications", "profile": "Sam"}, "another profile's list")
            logged_calls += 1
            try:
                await client.read_resource("phr://Sam/summary")
                check(False, "another profile's summary is refused")
            except MCPError as error:
                check(error.error.code == -32602, "another profile's summary is refused")
            # Writes: no tool writes, and no argument makes one write.
            for name in ("med_add", "add_record", "delete_record", "import", "edit", "phr"):
                await refused(client, name, {}, f"a tool named {name}", protocol_error=True)
            await refused(client, "search", {"query": "ferritin", "delete": True}, "an argument a tool does not take")
            await refused(client, "get_record", {"kind": "medications", "id": "--all"}, "an ID that looks like an option")
            await refused(client, "list_records", {"kind": "medications", "limit": 100000}, "a limit out of range")
            await refused(client, "list_records", {"kind": "medication"}, "a kind that is not one")


async def scoped():
    """--only medications,allergies,conditions --no-documents: nothing else is listed or returned."""
    global logged_calls
    async with Client(server("--only", "medications,allergies", "--only", "conditions", "--no-documents")) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        check("document_text" not in names and "lab_trend" not in names and "log_stats" not in names
              and "search" in names and "medications" in names, f"scoped tools: {sorted(names)}")
        result = await call(client, "search", {"query": "ferritin"})
        check(cli("search", "ferritin")["hits"] and result.structured_content["hits"] == [],
              "search leaves out lab results and documents outside the scope")
        await refused(client, "list_records", {"kind": "lab_results"}, "a kind outside the scope")
        await refused(client, "document_text", {"id": config["document"]}, "document text without documents", protocol_error=True)
        await refused(client, "search", {"query": "ferritin", "kind": "doc"}, "searching a kind outside the scope")
        result = await call(client, "emergency_summary")
        withheld = result.structured_content.get("withheld", [])
        check("contacts" in withheld and "contacts" not in result.structured_content, "the summary withholds the contacts")
        check("blood_type" in withheld and "Alex Example" not in result.content[0].text,
              f"the summary withholds the medical ID: {sorted(result.structured_content)}")
        result = await call(client, "search", {"query": "laboratry"})
        check("corrections" not in result.structured_content, "no spelling corrections from the whole vault's words")
        logged_calls += 1
        uris = [str(r.uri) for r in (await client.list_resources()).resources]
        check(uris == ["phr://me/summary"], f"no document resources: {uris}")
        logged_calls += 1
        try:
            await client.read_resource(f"phr://me/documents/{config['document']}")
            check(False, "a document resource is refused")
        except MCPError as error:
            check(error.error.code == -32602, "a document resource is refused")


async def all_profiles():
    global CANARY
    CANARY = ""  # Sam's records are in this scope
    async with Client(server("--all-profiles")) as client:
        result = await call(client, "list_profiles")
        check(sorted(p["name"] for p in result.structured_content["profiles"]) == ["Sam", "me"], "both profiles")
        result = await call(client, "search", {"query": "tablets", "profile": "Sam"})
        check(result.structured_content["hits"] == cli("search", "tablets", "--profile", "Sam")["hits"]
              and result.structured_content["hits"], "Sam's records with --all-profiles")
    global logged_calls
    paged = StdioServerParameters(command=PHR, args=["mcp", "--all-profiles"], env=dict(ENV, PHR_MCP_RESOURCE_PAGE="1"))
    async with Client(paged) as client:
        uris, cursor = [], None
        for _ in range(10):
            logged_calls += 1
            page = await client.list_resources(cursor=cursor)
            uris += [str(r.uri) for r in page.resources]
            cursor = page.next_cursor
            if not cursor:
                break
        check(uris == ["phr://me/summary", f"phr://me/documents/{config['document']}", "phr://Sam/summary"],
              f"resources a page at a time: {uris}")


async def agent():
    """The vault is locked to this process: answers come from the phr serve agent."""
    async with Client(server()) as client:
        result = await call(client, "list_records", {"kind": "medications"})
        check(not result.is_error and len(result.structured_content["records"]) >= 1, "the agent answers")
        result = await call(client, "search", {"query": "ferritin"})
        check(len(result.structured_content["hits"]) >= 2, "search through the agent")


async def unlocked():
    """Opened from the unlock cache: 'phr lock' ends what phr mcp can read, without a restart."""
    async with Client(server()) as client:
        result = await call(client, "list_records", {"kind": "medications"})
        check(not result.is_error and result.structured_content["records"], "read with the unlock cache")
        done = subprocess.run([PHR, "lock"], env=ENV, capture_output=True, text=True, timeout=60)
        check(done.returncode == 0, f"phr lock: {done.stderr}")
        result = await call(client, "list_records", {"kind": "medications"})
        check(result.is_error and "locked" in result.content[0].text, "after phr lock, phr mcp reads nothing more")


async def locked():
    async with Client(server()) as client:
        result = await call(client, "list_records", {"kind": "medications"})
        check(result.is_error and "locked" in result.content[0].text, "a locked vault is said to the assistant")


checks = {"unlocked": unlocked, "full": full, "scoped": scoped, "all-profiles": all_profiles, "agent": agent, "locked": locked}
asyncio.run(checks[config["check"]]())
print("calls", logged_calls)
sys.exit(1 if failures else 0)
