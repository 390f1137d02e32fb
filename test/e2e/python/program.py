"""A tenant from Python: the generated SDK in an inline Automation API program.

No Pulumi.yaml and no Python language host: `pulumi.automation` runs the
program in this process and hands the CLI its address. The txmail plugin is
the checkout's single executable (.tools/plugin, scripts/setup.sh), installed
in the program's Pulumi home as `pulumi plugin install` would.

    TXMAIL_API_KEY=... TXMAIL_ACCOUNT_ID=... \
    TXMAIL_BASE_URL=http://127.0.0.1:PORT python program.py

The tenant's domain is verified in the same up: its DKIM and Return-Path
records are published with the test's DNS provider (txmaildns:index:Record,
support/dnsPlugin.ts, installed in the program's Pulumi home by the test; its
server from TXMAILDNS_API_URL / TXMAILDNS_API_KEY), and a DomainVerification
depends on them.

Steps: up, a preview that must change nothing, one in-place change (the CI
key's label), destroy. Each step prints one JSON line on stdout: its change
summary and the stack outputs, secrets masked. The engine's own output goes to
stderr. State lives in a temporary directory (a file backend, passphrase
secrets), removed at the end unless TXMAIL_PROGRAM_DIR names one to keep.

TXMAIL_PROGRAM_PAUSE=1 waits for a line on stdin after each step's line but
the last, so a caller can look at the service (or the state) between steps.
"""

import importlib.metadata
import json
import os
import shutil
import sys
import tempfile

import pulumi
import pulumi.automation as auto
import pulumi_txmail as txmail

PROJECT = "txmail-python"
STACK = "dev"
DOMAIN = "mail.acme.example.com"
# The project's CLI and plugins (scripts/setup.sh), when run from a checkout.
TOOLS = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".tools"
)


def by_label(records, label):
    """The domain's record with this label (DKIM, Return-Path, ...)."""
    for record in records:
        if record.label == label:
            return record
    raise ValueError(f"{DOMAIN} lists no {label} record")


def make_program(base_url, account_id, api_key, ci_label):
    """The Pulumi program: run in this process by the Automation API."""

    def program():
        # An explicit provider for the parent account; the SDK makes api_key
        # a secret.
        account = txmail.Provider(
            "account",
            api_key=api_key,
            account_id=account_id,
            base_url=base_url,
        )
        on_account = pulumi.ResourceOptions(provider=account)

        acme = txmail.Tenant(
            "acme",
            website="acme.example.com",
            domain=txmail.TenantDomainArgs(domain=DOMAIN),
            # Who may use the tenant's management key: this machine.
            bootstrap_key=txmail.TenantKeyArgs(ip_allow_list=["127.0.0.1"]),
            routes={
                "support": txmail.TenantRouteArgs(
                    name="support",
                    url="https://acme.example.com/hooks/inbound",
                    recipient="support@" + DOMAIN,
                )
            },
            opts=on_account,
        )

        # The tenant's domain, verified in this same up: its required records
        # published with "the user's DNS provider" (the test-only txmaildns
        # plugin, standing for cloudflare.DnsRecord), each found by its
        # label, and a DomainVerification with the tenant's own connection
        # that depends on them.
        records = []
        for label in ("DKIM", "Return-Path"):
            record = acme.domain.dns_records.apply(
                lambda rs, label=label: by_label(rs, label)
            )
            records.append(
                pulumi.CustomResource(
                    "txmaildns:index:Record",
                    "acme-" + label.lower(),
                    {
                        "name": record.host,
                        "type": record.type,
                        "value": record.value,
                        "fqdn": None,
                    },
                    opts=pulumi.ResourceOptions(version="0.0.1"),
                )
            )
        verification = txmail.DomainVerification(
            "acme",
            domain=acme.domain.domain,
            connection=acme.connection,
            timeout_seconds=60,
            opts=pulumi.ResourceOptions(provider=account, depends_on=records),
        )

        # A plain resource fed by the tenant's outputs: a sending key in its
        # sub account.
        ci_key = txmail.SubAccountApiKey(
            "acme-ci",
            sub_account_id=acme.sub_account.id,
            label=ci_label,
            scopes=["messages:send:" + DOMAIN],
            opts=on_account,
        )

        # The service shows a sub account's domains only to that sub account's
        # own key: look the tenant's domain up with its bootstrap key. The
        # answer holds no secret (DNS records are public), but it is secret
        # because the key it used is: unsecret what is exported.
        tenant_key = pulumi.Output.all(
            api_key=acme.bootstrap_key.secret_key,
            account_id=acme.sub_account.id,
        ).apply(lambda c: txmail.Connection(base_url=base_url, **c))
        looked_up = txmail.lookup_domain_output(
            domain=acme.domain.domain,
            connection=tenant_key,
            opts=pulumi.InvokeOutputOptions(provider=account),
        )

        pulumi.export("subAccountId", acme.sub_account.id)
        pulumi.export("ciKeyLabel", ci_key.label)
        pulumi.export("verified", verification.verified)
        pulumi.export("ciKey", ci_key.secret_key)
        pulumi.export(
            "supportRouteSecret",
            acme.routes.apply(lambda r: r["support"].secret),
        )
        pulumi.export(
            "domain",
            pulumi.Output.unsecret(
                looked_up.apply(
                    lambda d: {
                        "id": d.id,
                        "domain": d.domain,
                        "dnsRecords": [
                            {"type": r.type, "host": r.host}
                            for r in d.dns_records
                        ],
                    }
                )
            ),
        )

    return program


def masked(outputs):
    return {k: "[secret]" if v.secret else v.value for k, v in outputs.items()}


def plain_keys(summary):
    return {getattr(k, "value", k): n for k, n in (summary or {}).items()}


def report(step, changes, outputs=None, last=False):
    line = {"step": step, "changes": plain_keys(changes)}
    if outputs is not None:
        line["outputs"] = masked(outputs)
    print(json.dumps(line, sort_keys=True), flush=True)
    if not last and os.environ.get("TXMAIL_PROGRAM_PAUSE") == "1":
        sys.stdin.readline()


def install_plugin(tools, home):
    """Links the checkout's plugin executable into home as an installed plugin."""
    version = importlib.metadata.version("pulumi_txmail")
    plugin_dir = os.path.join(home, "plugins", f"resource-txmail-v{version}")
    target = os.path.join(plugin_dir, "pulumi-resource-txmail")
    if not os.path.exists(target):
        os.makedirs(plugin_dir, exist_ok=True)
        os.symlink(os.path.join(tools, "plugin", "pulumi-resource-txmail"), target)


def main():
    base_url = os.environ["TXMAIL_BASE_URL"]
    account_id = os.environ["TXMAIL_ACCOUNT_ID"]
    api_key = os.environ["TXMAIL_API_KEY"]

    keep = os.environ.get("TXMAIL_PROGRAM_DIR")
    root = keep or tempfile.mkdtemp(prefix="txmail-python-")
    for sub in ("state", "home", "work"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    tools = os.path.abspath(TOOLS)
    has_tools = os.path.exists(os.path.join(tools, "bin", "pulumi"))
    if has_tools:
        install_plugin(tools, os.path.join(root, "home"))
    path = os.environ.get("PATH", "")
    env = {
        "PULUMI_CONFIG_PASSPHRASE": os.environ.get(
            "PULUMI_CONFIG_PASSPHRASE", "txmail-python-demo"
        ),
        "PULUMI_SKIP_UPDATE_CHECK": "true",
        # The txmail plugin is the one installed above, never downloaded.
        "PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION": "true",
        "PATH": (
            os.path.join(tools, "bin") + os.pathsep + path
            if has_tools
            else path
        ),
    }

    opts = auto.LocalWorkspaceOptions(
        work_dir=os.path.join(root, "work"),
        pulumi_home=os.path.join(root, "home"),
        pulumi_command=auto.PulumiCommand(root=tools) if has_tools else None,
        secrets_provider="passphrase",
        env_vars=env,
        project_settings=auto.ProjectSettings(
            name=PROJECT,
            runtime="python",
            backend=auto.ProjectBackend(
                url="file://" + os.path.join(root, "state")
            ),
        ),
    )

    def stack_for(ci_label):
        return auto.create_or_select_stack(
            stack_name=STACK,
            project_name=PROJECT,
            program=make_program(base_url, account_id, api_key, ci_label),
            opts=opts,
        )

    engine_log = {
        "on_output": lambda s: print(s, file=sys.stderr, flush=True),
        "color": "never",
    }
    stack = stack_for("acme ci")
    try:
        up = stack.up(**engine_log)
        report("up", up.summary.resource_changes, up.outputs)

        preview = stack.preview(**engine_log)
        report("preview", preview.change_summary)

        # One change, made in place: the CI key's label.
        stack = stack_for("acme ci (deploys)")
        up = stack.up(**engine_log)
        report("update", up.summary.resource_changes, up.outputs)

        destroyed = stack.destroy(**engine_log)
        report("destroy", destroyed.summary.resource_changes, last=True)
        stack.workspace.remove_stack(STACK)
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
