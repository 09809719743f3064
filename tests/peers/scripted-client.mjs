// A small MCP client of the tests' own, for `folio tap`'s judge: it speaks raw JSON-RPC over a
// stdio server's pipes (no SDK) and pages a list by a policy the test picks, including the wrong
// ones real clients have (the register's PG-02, PG-06, PG-07):
//
//   node scripted-client.mjs [options] -- COMMAND ARGS...
//     --list tools|prompts|resources|templates   the list to walk (default tools; repeatable)
//     --era legacy|modern        initialize (2025-11-25) or 2026-07-28 (_meta on every request)
//     --stop-on-empty            take a nextCursor of "" for the end (PG-02)
//     --max-pages N              stop after N pages, silently (PG-06)
//     --ignore-list-changed      do not list again after notifications/*/list_changed
//     --relist-after-ms N        on list_changed, list again after N ms (default 100)
//     --linger-ms N              stay connected N ms after the walks (to hear list_changed)
//     --omit-meta                2026-07-28 requests without _meta (a client bug)
//     --client-name NAME         clientInfo.name (default scripted-client)
//
// Prints "scripted-client: LIST N pages, M items" per walk on stderr; exit status 0, or 1 when the
// server answered the handshake with an error.
import { spawn } from 'node:child_process';

const argv = process.argv.slice(2);
const opts = { lists: [], era: 'legacy', stopOnEmpty: false, maxPages: Infinity, ignoreListChanged: false,
               relistAfterMs: 100, lingerMs: 0, omitMeta: false, clientName: 'scripted-client' };
let command;
for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--list') opts.lists.push(argv[++i]);
    else if (a === '--era') opts.era = argv[++i];
    else if (a === '--stop-on-empty') opts.stopOnEmpty = true;
    else if (a === '--max-pages') opts.maxPages = Number(argv[++i]);
    else if (a === '--ignore-list-changed') opts.ignoreListChanged = true;
    else if (a === '--relist-after-ms') opts.relistAfterMs = Number(argv[++i]);
    else if (a === '--linger-ms') opts.lingerMs = Number(argv[++i]);
    else if (a === '--omit-meta') opts.omitMeta = true;
    else if (a === '--client-name') opts.clientName = argv[++i];
    else if (a === '--') { command = argv.slice(i + 1); break; }
    else { console.error(`scripted-client: unknown argument ${a}`); process.exit(2); }
}
if (!command?.length) {
    console.error('usage: scripted-client.mjs [options] -- COMMAND ARGS...');
    process.exit(2);
}
if (opts.lists.length === 0) opts.lists.push('tools');

const METHODS = {
    tools: ['tools/list', 'tools'],
    prompts: ['prompts/list', 'prompts'],
    resources: ['resources/list', 'resources'],
    templates: ['resources/templates/list', 'resourceTemplates'],
};
const MODERN = '2026-07-28';
const clientInfo = { name: opts.clientName, version: '1.0.0' };

const server = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
let nextId = 1;
const pending = new Map();
const changed = new Set(); // lists the server said changed
let buffer = '';
server.stdout.setEncoding('utf8');
server.stdout.on('data', chunk => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!line.trim()) continue;
        let msg;
        try { msg = JSON.parse(line); } catch { continue; }
        if (msg.id !== undefined && pending.has(msg.id) && msg.method === undefined) {
            pending.get(msg.id)(msg);
            pending.delete(msg.id);
        } else if (typeof msg.method === 'string' && msg.method.endsWith('/list_changed')) {
            onListChanged(msg.method);
        }
    }
});
server.on('exit', () => { for (const resolve of pending.values()) resolve({ error: { code: -1, message: 'exited' } }); });

function request(method, params = {}) {
    const id = nextId++;
    if (opts.era === 'modern' && !opts.omitMeta) {
        params = { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN,
                                       'io.modelcontextprotocol/clientCapabilities': {},
                                       'io.modelcontextprotocol/clientInfo': clientInfo } };
    }
    return new Promise(resolve => {
        pending.set(id, resolve);
        server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
}

async function walk(list) {
    const [method, key] = METHODS[list];
    let cursor;
    let pages = 0;
    let items = 0;
    for (;;) {
        const answer = await request(method, cursor === undefined ? {} : { cursor });
        if (answer.error) break; // gives up on an error
        pages += 1;
        items += (answer.result?.[key] ?? []).length;
        cursor = answer.result?.nextCursor;
        if (cursor === undefined || cursor === null) break;
        if (opts.stopOnEmpty && cursor === '') break;
        if (pages >= opts.maxPages) break;
    }
    console.error(`scripted-client: ${list} ${pages} pages, ${items} items`);
}

let relisting = Promise.resolve();
function onListChanged(method) {
    if (opts.ignoreListChanged) return;
    const list = { 'notifications/tools/list_changed': 'tools', 'notifications/prompts/list_changed': 'prompts',
                   'notifications/resources/list_changed': 'resources' }[method];
    if (!list || changed.has(list)) return;
    changed.add(list);
    relisting = relisting.then(() => new Promise(r => setTimeout(r, opts.relistAfterMs)))
                         .then(() => walk(list)).then(() => changed.delete(list));
}

if (opts.era === 'modern') {
    const discover = await request('server/discover');
    if (discover.error && !opts.omitMeta) { console.error('scripted-client: server/discover failed'); process.exit(1); }
} else {
    const init = await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo });
    if (init.error) { console.error('scripted-client: initialize failed'); process.exit(1); }
    server.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
}
for (const list of opts.lists) await walk(list);
if (opts.lingerMs > 0) await new Promise(r => setTimeout(r, opts.lingerMs));
await relisting;
server.stdin.end();
await new Promise(r => server.on('close', r));
