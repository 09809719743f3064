#!/usr/bin/env python3
"""`folio auth login` as the conformance harness's client, for its sign-in-without-a-person scenarios.

The harness runs `COMMAND URL` with the scenario's credentials in MCP_CONFORMANCE_CONTEXT (JSON). A
user gives them to folio auth login as options, secrets through the environment and files, never
on the command line; this does the same, so the harness judges the command users run.

Usage (by the harness): folio-auth-login.py FOLIO_BINARY URL
"""
import json
import os
import subprocess
import sys
import tempfile


def main() -> int:
    folio, url = sys.argv[1], sys.argv[-1]
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT", "{}"))
    env = dict(os.environ)
    args = [folio, "auth", "login", "--url", url]
    with tempfile.TemporaryDirectory() as tmp:
        def secret_file(name: str, text: str) -> str:
            path = os.path.join(tmp, name)
            with open(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
                f.write(text)
            return path

        if "private_key_pem" in context:
            args += ["--grant", "client-credentials", "--client-id", context["client_id"],
                     "--client-key", secret_file("client.pem", context["private_key_pem"])]
        elif "idp_id_token" in context:
            env["FOLIO_CLIENT_SECRET"] = context["client_secret"]
            args += ["--grant", "enterprise", "--client-id", context["client_id"],
                     "--client-secret-env", "FOLIO_CLIENT_SECRET",
                     "--id-token-file", secret_file("id-token", context["idp_id_token"]),
                     "--idp-token-endpoint", context["idp_token_endpoint"],
                     "--idp-client-id", context["idp_client_id"]]
        elif "valid_jwt" in context:
            args += ["--grant", "jwt-bearer", "--assertion-file", secret_file("workload.jwt", context["valid_jwt"])]
        elif "client_secret" in context:
            env["FOLIO_CLIENT_SECRET"] = context["client_secret"]
            args += ["--grant", "client-credentials", "--client-id", context["client_id"],
                     "--client-secret-env", "FOLIO_CLIENT_SECRET"]
        return subprocess.run(args, env=env, stdin=subprocess.DEVNULL).returncode


if __name__ == "__main__":
    sys.exit(main())
