// A third-party MCP server built with FastMCP (the TypeScript framework on npm, pinned in
// package.json) whose tools page the ways real servers do, for Folio's interop tests
// (tests/interop/tst_realservers.cpp keeps its expectations in step with this file).
//
//   node paging-peer.mjs stdio          serve over stdin/stdout
//   node paging-peer.mjs http [PORT]    serve Streamable HTTP at http://127.0.0.1:PORT/mcp (loopback
//                                       only); PORT 0 (the default) picks a free port. Prints
//                                       "listening on http://127.0.0.1:PORT/mcp" on stderr when ready.
//
// Every list tool reads the same 23 records (ids rec-01 ... rec-23, stable), 5 to a page unless the
// caller says otherwise, is annotated readOnlyHint: true, and validates its arguments the way real
// servers do: a cursor or token it did not issue is an error result (isError), an argument of the
// wrong type or range a JSON-RPC InvalidParams error (FastMCP's schema check).
//
//   list_notes               cursor + limit (opaque base64url cursors), structuredContent
//                            {notes, next_cursor}; next_cursor is null on the last page (as a
//                            Python-era server returns None)
//   list_notes_empty_cursor  as list_notes, but the cursor that leads to the last page is ""
//                            (2026-07-28 pagination: the empty string is a cursor, not the end)
//   list_logs                page_token + page_size (AIP-158, as Google's APIs page): JSON text
//                            {entries, next_page_token}; next_page_token is "" on the last page
//   read_records             offset + limit, like a database server: JSON text {rows, row_count},
//                            nothing in the result says where the next page starts
//   list_issues              page + per_page, like GitHub's server: JSON text holding a bare array
//   list_projects            first + after, Relay-style as GraphQL APIs page: structuredContent
//                            {projects, pageInfo: {endCursor, hasNextPage}}
//   list_repo_issues         cursor + limit, and two required arguments, as GitHub's list_issues
//                            needs owner and repo: repo (its schema gives the example "octo/demo",
//                            the one repository there is) and state (an enum: "open" has the 23,
//                            "closed" none); JSON text {issues, next_cursor}. It lists nothing
//                            without them (FastMCP's schema check: InvalidParams), and its cursors
//                            are bound to the repo and state they were issued for.
// Cursors and tokens are opaque to clients; they are base64url (no padding) of the compact JSON
// {"l":"<tool>","o":<offset>}, where offset is the first record of the page they lead to (for
// list_projects: the record the page starts after), so the tests can tell what was issued
// (list_repo_issues: "<tool>/<repo>/<state>" in place of "<tool>").
// read_records caps a page at 10 rows, as database servers cap a query (and GitHub per_page): a
// larger limit reads 10, silently. And one tool that is not a list: get_record {id}.
// PAGING_PEER_VERSION=2 in the environment serves the same server's next version, for the diff
// tests: 7 to a page by default, and get_record's description says one more sentence.
import net from 'node:net';
import { Buffer } from 'node:buffer';
import { FastMCP, UserError } from 'fastmcp';
import { z } from 'zod';

const RECORD_COUNT = 23;
const VERSION = process.env.PAGING_PEER_VERSION === '2' ? 2 : 1;
const DEFAULT_PAGE_SIZE = VERSION === 2 ? 7 : 5;
const MAX_PAGE_SIZE = 50;
const MAX_ROWS = 10; // read_records' cap

const pad = n => String(n).padStart(2, '0');
const RECORDS = Array.from({ length: RECORD_COUNT }, (_, i) => ({
    id: `rec-${pad(i + 1)}`,
    title: `Record ${i + 1}`,
    created: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
}));

// The server's log goes to stderr: on stdio, stdout carries the protocol alone.
const stderrLogger = {
    debug: () => {},
    info: (...a) => console.error(...a),
    log: (...a) => console.error(...a),
    warn: (...a) => console.error(...a),
    error: (...a) => console.error(...a),
};

const server = new FastMCP({
    name: 'folio-paging-peer',
    version: '1.0.0',
    logger: stderrLogger,
});

const readOnly = { readOnlyHint: true, openWorldHint: false };

// Opaque cursors: base64url of the list's name and the offset it continues at, so that a cursor of
// one list is refused by another, and anything a client makes up is refused too.
function encodeCursor(list, offset) {
    return Buffer.from(JSON.stringify({ l: list, o: offset })).toString('base64url');
}

function decodeCursor(list, cursor, what) {
    let decoded;
    try {
        decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
        decoded = null;
    }
    if (!decoded || decoded.l !== list || !Number.isInteger(decoded.o) || decoded.o < 0 ||
        decoded.o >= RECORD_COUNT || encodeCursor(list, decoded.o) !== cursor)
        throw new UserError(`invalid ${what}: ${JSON.stringify(cursor)} was not issued by ${list}`);
    return decoded.o;
}

function slice(offset, size) {
    return RECORDS.slice(offset, offset + size);
}

function cursorList(name, emptyLastCursor) {
    // Where "" leads when this list uses it: the last page.
    const lastPage = Math.floor((RECORD_COUNT - 1) / DEFAULT_PAGE_SIZE) * DEFAULT_PAGE_SIZE;
    server.addTool({
        name,
        description: emptyLastCursor
            ? 'Lists notes, a page at a time. Pass next_cursor back as cursor; "" is a cursor too.'
            : 'Lists notes, a page at a time. Pass next_cursor back as cursor for the next page.',
        annotations: { ...readOnly, title: 'List notes' },
        parameters: z.object({
            cursor: z.string().optional().describe('next_cursor from the previous page'),
            limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional().describe('notes per page (default 5)'),
        }),
        outputSchema: z.object({
            notes: z.array(z.object({ id: z.string(), title: z.string(), created: z.string() })),
            next_cursor: z.string().nullable(),
        }),
        execute: async ({ cursor, limit }) => {
            const size = limit ?? DEFAULT_PAGE_SIZE;
            let offset = 0;
            if (cursor === '' && emptyLastCursor)
                offset = lastPage;
            else if (cursor !== undefined)
                offset = decodeCursor(name, cursor, 'cursor');
            const notes = slice(offset, size);
            const next = offset + notes.length;
            let nextCursor = null;
            if (next < RECORD_COUNT)
                nextCursor = emptyLastCursor && next === lastPage ? '' : encodeCursor(name, next);
            return { notes, next_cursor: nextCursor };
        },
    });
}

cursorList('list_notes', false);
cursorList('list_notes_empty_cursor', true);

server.addTool({
    name: 'list_logs',
    description: 'Lists log entries (AIP-158 pagination): pass next_page_token back as page_token; ' +
        'an empty next_page_token means there are no more entries.',
    annotations: { ...readOnly, title: 'List log entries' },
    parameters: z.object({
        page_token: z.string().optional().describe('next_page_token from the previous response'),
        page_size: z.number().int().min(0).max(MAX_PAGE_SIZE).optional()
            .describe('maximum entries to return; 0 or unset: the server default (5)'),
    }),
    execute: async ({ page_token: token, page_size: pageSize }) => {
        const size = pageSize ? pageSize : DEFAULT_PAGE_SIZE;
        const offset = token ? decodeCursor('list_logs', token, 'page_token') : 0;
        const entries = slice(offset, size).map(r => ({
            insertId: r.id, logName: 'projects/folio/logs/peer', textPayload: r.title, timestamp: r.created,
        }));
        const next = offset + entries.length;
        return JSON.stringify({ entries, next_page_token: next < RECORD_COUNT ? encodeCursor('list_logs', next) : '' });
    },
});

server.addTool({
    name: 'read_records',
    description: `Reads rows from the records table, ordered by id: OFFSET offset LIMIT limit ` +
        `(at most ${MAX_ROWS} rows; a larger limit reads ${MAX_ROWS}).`,
    annotations: { ...readOnly, title: 'Read records' },
    parameters: z.object({
        offset: z.number().int().min(0).default(0).describe('rows to skip'),
        limit: z.number().int().min(1).default(DEFAULT_PAGE_SIZE).describe(`rows to return (at most ${MAX_ROWS})`),
    }),
    execute: async ({ offset, limit }) => {
        // Clamped, not refused, as database servers cap a query's rows (and GitHub caps per_page).
        const rows = slice(offset, Math.min(limit, MAX_ROWS));
        return JSON.stringify({ rows, row_count: rows.length });
    },
});

server.addTool({
    name: 'list_issues',
    description: 'Lists issues, newest page first, the way GitHub pages: page (1-based) and per_page.',
    annotations: { ...readOnly, title: 'List issues' },
    parameters: z.object({
        page: z.number().int().min(1).default(1).describe('page number, from 1'),
        per_page: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).describe('issues per page'),
    }),
    execute: async ({ page, per_page: perPage }) => {
        const issues = slice((page - 1) * perPage, perPage)
            .map((r, i) => ({ number: (page - 1) * perPage + i + 1, id: r.id, title: r.title, state: 'open' }));
        return JSON.stringify(issues);
    },
});

server.addTool({
    name: 'list_projects',
    description: 'Lists projects, Relay-style (as GraphQL APIs page): first and after; pass ' +
        'pageInfo.endCursor back as after while pageInfo.hasNextPage is true.',
    annotations: { ...readOnly, title: 'List projects' },
    parameters: z.object({
        first: z.number().int().min(1).max(MAX_PAGE_SIZE).optional().describe('projects per page (default 5)'),
        after: z.string().optional().describe('pageInfo.endCursor of the previous page'),
    }),
    outputSchema: z.object({
        projects: z.array(z.object({ id: z.string(), name: z.string() })),
        pageInfo: z.object({ endCursor: z.string().nullable(), hasNextPage: z.boolean() }),
    }),
    execute: async ({ first, after }) => {
        // A Relay cursor names an item (here: its index); after it is where the page starts.
        const offset = after !== undefined ? decodeCursor('list_projects', after, 'after') + 1 : 0;
        const projects = slice(offset, first ?? DEFAULT_PAGE_SIZE).map(r => ({ id: r.id, name: r.title }));
        const end = offset + projects.length;
        return {
            projects,
            pageInfo: {
                endCursor: projects.length ? encodeCursor('list_projects', end - 1) : null,
                hasNextPage: end < RECORD_COUNT,
            },
        };
    },
});

const REPOSITORY = 'octo/demo';

server.addTool({
    name: 'list_repo_issues',
    description: "Lists a repository's issues, a page at a time. Pass next_cursor back as cursor, with " +
        'the same repo and state, for the next page.',
    annotations: { ...readOnly, title: 'List repository issues' },
    parameters: z.object({
        repo: z.string().describe('the repository, owner/name').meta({ examples: [REPOSITORY] }),
        state: z.enum(['open', 'closed']).describe('which issues'),
        cursor: z.string().optional().describe('next_cursor from the previous page'),
        limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional().describe('issues per page (default 5)'),
    }),
    execute: async ({ repo, state, cursor, limit }) => {
        if (repo !== REPOSITORY)
            throw new UserError(`no repository ${repo}`);
        const list = `list_repo_issues/${repo}/${state}`;
        const all = state === 'open' ? RECORDS : [];
        const offset = cursor !== undefined ? decodeCursor(list, cursor, 'cursor') : 0;
        const issues = all.slice(offset, offset + (limit ?? DEFAULT_PAGE_SIZE))
            .map((r, i) => ({ id: r.id, number: offset + i + 1, title: r.title, state }));
        const next = offset + issues.length;
        return JSON.stringify({ issues, next_cursor: next < all.length ? encodeCursor(list, next) : null });
    },
});

server.addTool({
    name: 'get_record',
    description: VERSION === 2 ? 'Reads one record by id. For more than one, use list_notes.' : 'Reads one record by id.',
    annotations: { ...readOnly, title: 'Get a record' },
    parameters: z.object({ id: z.string() }),
    execute: async ({ id }) => {
        const record = RECORDS.find(r => r.id === id);
        if (!record)
            throw new UserError(`no record ${id}`);
        return JSON.stringify(record);
    },
});

function freePort() {
    return new Promise((resolve, reject) => {
        const probe = net.createServer();
        probe.once('error', reject);
        probe.listen(0, '127.0.0.1', () => {
            const { port } = probe.address();
            probe.close(() => resolve(port));
        });
    });
}

async function serveHttp(requested) {
    // A port picked here can be taken before FastMCP binds it: try again with another.
    for (let attempt = 0; ; ++attempt) {
        const port = requested || await freePort();
        try {
            await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1' } });
            console.error(`listening on http://127.0.0.1:${port}/mcp`);
            return;
        } catch (error) {
            if (requested || error?.code !== 'EADDRINUSE' || attempt >= 5)
                throw error;
        }
    }
}

const [mode = 'stdio', portArg = '0'] = process.argv.slice(2);
if (mode === 'stdio') {
    await server.start({ transportType: 'stdio' });
} else if (mode === 'http') {
    const port = Number(portArg);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
        console.error(`paging-peer: bad port ${portArg}`);
        process.exit(2);
    }
    await serveHttp(port);
    const stop = () => server.stop().finally(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
} else {
    console.error('usage: node paging-peer.mjs stdio | http [PORT]');
    process.exit(2);
}
