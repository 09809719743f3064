// The official TypeScript client (@modelcontextprotocol/client, pinned) as a client peer for
// `folio tap`: it connects to a stdio server's command (a tap goes there, as in a desktop client's
// config) and lists everything with the SDK's own aggregating calls, as an application would.
//
//   node sdk-client.mjs [--list tools|prompts|resources|templates]... -- COMMAND ARGS...
//
// Prints "sdk-client: LIST N items" per list on stderr (or "sdk-client: LIST failed: why");
// exit status 0 when every list was listed.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const argv = process.argv.slice(2);
const lists = [];
let command;
for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--list') lists.push(argv[++i]);
    else if (argv[i] === '--') { command = argv.slice(i + 1); break; }
    else { console.error(`sdk-client: unknown argument ${argv[i]}`); process.exit(2); }
}
if (!command?.length) {
    console.error('usage: sdk-client.mjs [--list LIST]... -- COMMAND ARGS...');
    process.exit(2);
}
if (lists.length === 0) lists.push('tools', 'prompts', 'resources', 'templates');

const client = new Client({ name: 'folio-test-sdk-client', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: command[0], args: command.slice(1), stderr: 'inherit' }));
const calls = {
    tools: async () => (await client.listTools()).tools,
    prompts: async () => (await client.listPrompts()).prompts,
    resources: async () => (await client.listResources()).resources,
    templates: async () => (await client.listResourceTemplates()).resourceTemplates,
};
let failed = false;
for (const list of lists) {
    try {
        const items = await calls[list]();
        console.error(`sdk-client: ${list} ${items.length} items`);
    } catch (e) {
        failed = true;
        console.error(`sdk-client: ${list} failed: ${e.message}`);
    }
}
await client.close();
process.exit(failed ? 1 : 0);
