// Drives `mcpfleet serve` with the official TypeScript MCP SDK client and
// prints one JSON object describing what it saw; the Go test asserts on it.
//
//   node client.mjs stdio <mcpfleet binary> <serve args...>
//   node client.mjs http <url> <token>
//
// MCPFLEET_SDK is the @modelcontextprotocol/sdk folder (the installer puts
// it under $MCPFLEET_REAL_SERVERS/node_modules); it is imported by path
// because this script lives outside that node_modules tree.
import { pathToFileURL } from "node:url";
import path from "node:path";

const sdk = process.env.MCPFLEET_SDK;
const load = (p) => import(pathToFileURL(path.join(sdk, "dist/esm", p)).href);
const { Client } = await load("client/index.js");

const [mode, target, ...rest] = process.argv.slice(2);
let transport;
if (mode === "stdio") {
  const { StdioClientTransport } = await load("client/stdio.js");
  transport = new StdioClientTransport({ command: target, args: rest, stderr: "inherit" });
} else {
  const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
  transport = new StreamableHTTPClientTransport(new URL(target), {
    requestInit: { headers: { Authorization: `Bearer ${rest[0]}` } },
  });
}

const client = new Client({ name: "mcpfleet-realservers-test", version: "1.0.0" });
await client.connect(transport);
const text = (r) => (r.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  return { isError: !!r.isError, text: text(r), types: (r.content ?? []).map((c) => c.type), structured: r.structuredContent ?? null };
};

const out = {};
out.instructions = client.getInstructions() ?? "";
out.server = client.getServerVersion()?.name ?? "";
out.tools = (await client.listTools()).tools.map((t) => t.name).sort();
out.listKinds = await call("listKinds", {});
out.search = await call("searchTools", { query: "read a file", k: 3 });
out.describe = await call("describeTools", { names: ["read_text_file"] });
const file = process.env.MCPFLEET_TEST_FILE;
out.call = await call("callTool", { server: "fs-1", tool: "read_text_file", arguments: { path: file } });
out.image = await call("callTool", { server: "everything", tool: "get-tiny-image", arguments: {} });
out.rejected = await call("callTool", { server: "fs-1", tool: "read_text_file", arguments: { path: "<unknown>" } });
out.refused = await call("callTool", { server: "fs-1", tool: "write_file", arguments: { path: file, content: "x" } });
// MCPFLEET_BIG_FILE: read a large file through callTool and report the
// size of the whole reply as the client received it.
const big = process.env.MCPFLEET_BIG_FILE;
if (big) {
  const r = await client.callTool({ name: "callTool", arguments: { server: "fs-1", tool: "read_text_file", arguments: { path: big } } });
  out.big = { replyBytes: JSON.stringify(r).length, text: text(r), hasStructured: r.structuredContent !== undefined, meta: r._meta ?? null };
}
await client.close();
process.stdout.write(JSON.stringify(out));
