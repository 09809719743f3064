// The SDK comparator of bench_walk: walks one protocol list with the official MCP client SDK
// (@modelcontextprotocol/client v2), page by page with raw list requests in a loop (no auto-
// aggregation, no page cap), and prints every item as one JSON line, like `folio list --format ndjson`.
//
//   node sdk-walk.mjs [--list resources|tools|prompts|templates] --url http://127.0.0.1:PORT/mcp
//   node sdk-walk.mjs [--list ...] -- COMMAND ARGS...        (a stdio server)
//
// Prints "sdk-walk: N pages, M items" on stderr at the end; exit status 0 when the list ended.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const METHODS = {
    resources: ['resources/list', 'resources'],
    tools: ['tools/list', 'tools'],
    prompts: ['prompts/list', 'prompts'],
    templates: ['resources/templates/list', 'resourceTemplates'],
};

const argv = process.argv.slice(2);
let list = 'resources';
let url;
let command;
for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--list') list = argv[++i];
    else if (argv[i] === '--url') url = argv[++i];
    else if (argv[i] === '--') { command = argv.slice(i + 1); break; }
    else { console.error(`sdk-walk: unknown argument ${argv[i]}`); process.exit(2); }
}
if (!METHODS[list] || (!url && !command?.length)) {
    console.error('usage: sdk-walk.mjs [--list resources|tools|prompts|templates] (--url URL | -- COMMAND ARGS...)');
    process.exit(2);
}
const [method, key] = METHODS[list];

const transport = url
    ? new StreamableHTTPClientTransport(new URL(url))
    : new StdioClientTransport({ command: command[0], args: command.slice(1), stderr: 'ignore' });
const client = new Client({ name: 'folio-bench-sdk-walk', version: '1.0.0' });
await client.connect(transport);

let cursor;
let pages = 0;
let items = 0;
do {
    const result = await client.request({ method, params: cursor === undefined ? {} : { cursor } });
    const page = result[key] ?? [];
    pages += 1;
    items += page.length;
    if (page.length > 0)
        process.stdout.write(page.map(item => JSON.stringify(item)).join('\n') + '\n');
    cursor = result.nextCursor;
} while (typeof cursor === 'string');

console.error(`sdk-walk: ${pages} pages, ${items} items`);
await client.close();
