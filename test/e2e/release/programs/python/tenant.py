"""A new user's Python program for the release rehearsal (test/e2e/release).

Run from a fresh venv where `pip install pulumi-txmail==VERSION` installed the
SDK from a package index: an inline Automation API program (no Python language
host) that brings up one Tenant and destroys it. The txmail plugin is not
installed anywhere: the engine acquires it by name, as the SDK asks for it.

    TXMAIL_API_KEY=... TXMAIL_ACCOUNT_ID=... TXMAIL_BASE_URL=... python tenant.py

Prints one JSON line per step (up, destroy) with its change summary.
"""

import json
import os
import sys

import pulumi_txmail as txmail
from pulumi import automation as auto


def program():
    txmail.Tenant(
        "rehearsal",
        website="py.rehearsal.example.com",
        domain=txmail.TenantDomainArgs(domain="mail.py.rehearsal.example.com"),
        bootstrap_key=txmail.TenantKeyArgs(ip_allow_list=["127.0.0.1"]),
    )


def main():
    stack = auto.create_or_select_stack(
        stack_name="dev", project_name="rehearsal-python", program=program
    )
    stack.set_config(
        "txmail:apiKey", auto.ConfigValue(os.environ["TXMAIL_API_KEY"], secret=True)
    )
    stack.set_config("txmail:accountId", auto.ConfigValue(os.environ["TXMAIL_ACCOUNT_ID"]))
    stack.set_config("txmail:baseUrl", auto.ConfigValue(os.environ["TXMAIL_BASE_URL"]))
    echo = lambda line: print(line, file=sys.stderr)  # noqa: E731
    up = stack.up(on_output=echo, color="never")
    print(json.dumps({"step": "up", "changes": up.summary.resource_changes}), flush=True)
    down = stack.destroy(on_output=echo, color="never")
    print(json.dumps({"step": "destroy", "changes": down.summary.resource_changes}), flush=True)


if __name__ == "__main__":
    main()
