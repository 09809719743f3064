// A real 2026-07-28 MCP peer on the official v2 server SDK, for Folio's interop tests.
//
//   node modern-peer.mjs stdio          serve over stdin/stdout (serveStdio)
//   node modern-peer.mjs http [PORT]    serve http://127.0.0.1:PORT/mcp (createMcpHandler on node:http);
//                                       PORT 0 (the default) picks a free port. Prints
//                                       "listening on http://127.0.0.1:PORT/mcp" on stderr.
//
// Its lists page with opaque cursors and give every page its own cache hints, so a client's cursor
// walk and hint handling can be checked against known values (keep PAGES in step with the tests):
//   tools      25 items, 10 per page, ttlMs 60000 / 30000 / 5000, cacheScope "public"
//   prompts     7 items,  4 per page, ttlMs 1000 / 2000,            cacheScope "private";
//              the first page's nextCursor is "" (the empty string is a cursor in 2026-07-28)
//   resources   5 items,  2 per page, ttlMs 0 / 0 / 0,               cacheScope "private"
//   templates   2 items, one page,    ttlMs 120000,                 cacheScope "public"
// A cursor that this peer did not hand out gets ProtocolError InvalidParams (-32602).
// Tools: add_numbers {a, b} and echo {message}; resources/read answers for the listed URIs.
// Over HTTP, each request is logged on stderr with its MCP headers (so tests can see what a client
// sent): "http POST mcp-method=tools/call mcp-name=echo mcp-protocol-version=2026-07-28 -> 200".
import http from 'node:http';
import { Buffer } from 'node:buffer';
import { Server, ProtocolError, ProtocolErrorCode, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const PAGES = {
    tools: { count: 25, pageSize: 10, ttl: [60000, 30000, 5000], scope: 'public' },
    prompts: { count: 7, pageSize: 4, ttl: [1000, 2000], scope: 'private', emptyFirstCursor: true },
    resources: { count: 5, pageSize: 2, ttl: [0, 0, 0], scope: 'private' },
    resourceTemplates: { count: 2, pageSize: 10, ttl: [120000], scope: 'public' },
};

const pad = n => String(n).padStart(2, '0');

function makeItems(kind) {
    const { count } = PAGES[kind];
    const items = [];
    for (let i = 1; i <= count; ++i) {
        switch (kind) {
        case 'tools':
            items.push({
                name: i === 1 ? 'add_numbers' : i === 2 ? 'echo' : `tool_${pad(i)}`,
                description: i === 1 ? 'Adds a and b' : i === 2 ? 'Echoes the message' : `Filler tool ${i}`,
                inputSchema: i === 1
                    ? { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }
                    : i === 2
                        ? { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }
                        : { type: 'object' },
            });
            break;
        case 'prompts':
            items.push({ name: `prompt_${pad(i)}`, description: `Prompt ${i}` });
            break;
        case 'resources':
            items.push({ uri: `folio-peer://resource/${i}`, name: `resource_${pad(i)}`, mimeType: 'text/plain' });
            break;
        case 'resourceTemplates':
            items.push({ uriTemplate: `folio-peer://template${i}/{id}`, name: `template_${pad(i)}` });
            break;
        }
    }
    return items;
}

const ITEMS = Object.fromEntries(Object.keys(PAGES).map(kind => [kind, makeItems(kind)]));

// Cursors are opaque to clients: base64url of the list and the page's offset. Page 2 of the prompts
// is addressed by "" instead.
function encodeCursor(kind, offset) {
    if (PAGES[kind].emptyFirstCursor && offset === PAGES[kind].pageSize)
        return '';
    return Buffer.from(JSON.stringify({ l: kind, o: offset })).toString('base64url');
}

function decodeCursor(kind, cursor) {
    if (cursor === undefined)
        return 0;
    if (cursor === '' && PAGES[kind].emptyFirstCursor)
        return PAGES[kind].pageSize;
    let decoded;
    try {
        decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
        decoded = undefined;
    }
    const { pageSize, count } = PAGES[kind];
    if (!decoded || decoded.l !== kind || !Number.isInteger(decoded.o) || decoded.o <= 0 || decoded.o >= count ||
        decoded.o % pageSize !== 0 || encodeCursor(kind, decoded.o) !== cursor) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor');
    }
    return decoded.o;
}

function listPage(kind, request) {
    const offset = decodeCursor(kind, request.params?.cursor);
    const { pageSize, ttl, scope } = PAGES[kind];
    const page = Math.floor(offset / pageSize);
    const result = { [kind]: ITEMS[kind].slice(offset, offset + pageSize), ttlMs: ttl[page], cacheScope: scope };
    if (offset + pageSize < ITEMS[kind].length)
        result.nextCursor = encodeCursor(kind, offset + pageSize);
    return result;
}

function createServer() {
    const server = new Server({ name: 'folio-modern-peer', version: '1.0.0' }, {
        capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } },
        instructions: 'A paging 2026-07-28 peer for Folio tests.',
    });
    server.setRequestHandler('tools/list', request => listPage('tools', request));
    server.setRequestHandler('prompts/list', request => listPage('prompts', request));
    server.setRequestHandler('resources/list', request => listPage('resources', request));
    server.setRequestHandler('resources/templates/list', request => listPage('resourceTemplates', request));
    server.setRequestHandler('tools/call', request => {
        const { name, arguments: args = {} } = request.params;
        if (name === 'add_numbers') {
            const sum = Number(args.a) + Number(args.b);
            return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
        }
        if (name === 'echo')
            return { content: [{ type: 'text', text: `Echo: ${args.message}` }] };
        if (ITEMS.tools.some(t => t.name === name))
            return { content: [{ type: 'text', text: `${name} did nothing` }] };
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    });
    server.setRequestHandler('resources/read', request => {
        const { uri } = request.params;
        const resource = ITEMS.resources.find(r => r.uri === uri);
        if (!resource)
            throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource: ${uri}`, { uri });
        return { contents: [{ uri, mimeType: 'text/plain', text: `Contents of ${resource.name}` }], ttlMs: 10000,
                 cacheScope: 'private' };
    });
    return server;
}

function log(line) {
    process.stderr.write(`${line}\n`);
}

function serveHttp(port) {
    const handler = createMcpHandler(() => createServer(), { onerror: e => log(`modern-peer: ${e.message}`) });
    const httpServer = http.createServer(async (req, res) => {
        const abort = new AbortController();
        res.on('close', () => abort.abort());
        try {
            const chunks = [];
            for await (const chunk of req)
                chunks.push(chunk);
            const body = Buffer.concat(chunks);
            const headers = new Headers();
            for (const [name, value] of Object.entries(req.headers)) {
                for (const v of Array.isArray(value) ? value : [value])
                    headers.append(name, v);
            }
            const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
            const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url}`, {
                method: req.method, headers, body: hasBody ? body : undefined, signal: abort.signal,
            });
            const response = await handler.fetch(request);
            log(`http ${req.method} mcp-method=${req.headers['mcp-method'] ?? '-'} mcp-name=${req.headers['mcp-name'] ?? '-'} ` +
                `mcp-protocol-version=${req.headers['mcp-protocol-version'] ?? '-'} -> ${response.status}`);
            res.writeHead(response.status, Object.fromEntries(response.headers));
            if (response.body) {
                for await (const chunk of response.body)
                    res.write(chunk);
            }
            res.end();
        } catch (e) {
            if (!res.headersSent)
                res.writeHead(500, { 'content-type': 'text/plain' });
            res.end(String(e));
        }
    });
    httpServer.listen(port, '127.0.0.1', () => {
        log(`listening on http://127.0.0.1:${httpServer.address().port}/mcp`);
    });
    const stop = () => {
        handler.close().finally(() => process.exit(0));
        httpServer.close();
        httpServer.closeAllConnections();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
}

const [mode = 'stdio', portArg = '0'] = process.argv.slice(2);
if (mode === 'stdio') {
    serveStdio(() => createServer(), { onerror: e => log(`modern-peer: ${e.message}`) });
} else if (mode === 'http') {
    serveHttp(Number(portArg));
} else {
    log('usage: modern-peer.mjs stdio | http [PORT]');
    process.exit(2);
}
