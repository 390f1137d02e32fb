// A Go program using the generated SDK (sdk/go/txmail), run end to end by goProgram.test.ts
// against the emulator. It drives one stack with the Automation API and an inline program — no
// Go language host, no Pulumi.yaml: the CLI talks to this process — on a file backend with the
// passphrase secrets provider, all under one directory (TXMAIL_GO_STATE_DIR).
//
// Usage: TXMAIL_GO_STATE_DIR=<dir> TXMAIL_API_KEY=… TXMAIL_ACCOUNT_ID=… TXMAIL_BASE_URL=… \
//
//	txmail-go up|preview|change|destroy
//
// The tenant's domain is verified in the same up: its DKIM and Return-Path records are published
// with the test's DNS provider (txmaildns:index:Record, support/dnsPlugin.ts; its server from
// TXMAILDNS_API_URL / TXMAILDNS_API_KEY) and a DomainVerification depends on them.
//
// `up` creates the stack (the TXMAIL_* values become its config, the key a secret) and applies
// the program; `preview` previews it again; `change` applies it with the CI key relabelled (an
// in-place update); `destroy` deletes everything. Each step prints one JSON line on stdout: the
// step, its change summary and the stack's outputs, secrets masked as the engine masks them. The
// engine's progress goes to stderr.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
)

const (
	projectName = "txmail-go"
	stackName   = "dev"
)

// dnsRecord is a txmaildns:index:Record (the test's DNS provider; no SDK: registered by its token).
type dnsRecord struct {
	pulumi.CustomResourceState
	Fqdn pulumi.StringOutput `pulumi:"fqdn"`
}

// program is the inline Pulumi program; ciLabel is what the `change` step changes.
func program(ciLabel string) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		// An explicit provider, configured from the stack's config (the key stays a secret). The
		// tenant and the look-up use it; the CI key uses the default provider (the same config).
		cfg := config.New(ctx, "txmail")
		account, err := txmail.NewProvider(ctx, "account", &txmail.ProviderArgs{
			ApiKey:    cfg.RequireSecret("apiKey"),
			AccountId: pulumi.String(cfg.Require("accountId")),
			BaseUrl:   pulumi.String(cfg.Require("baseUrl")),
		})
		if err != nil {
			return err
		}

		tenant, err := txmail.NewTenant(ctx, "gopher", &txmail.TenantArgs{
			Website: pulumi.String("gopher.example.com"),
			Domain:  &txmail.TenantDomainArgs{Domain: pulumi.String("mail.gopher.example.com")},
			// Who may use the tenant's management key: this machine (the emulator is local).
			BootstrapKey: &txmail.TenantKeyArgs{IpAllowList: pulumi.StringArray{pulumi.String("127.0.0.1")}},
			Routes: txmail.TenantRouteMap{
				"support": txmail.TenantRouteArgs{
					Name:      pulumi.String("support"),
					Url:       pulumi.String("https://gopher.example.com/hooks/inbound"),
					Recipient: pulumi.String("support@mail.gopher.example.com"),
				},
			},
		}, pulumi.Provider(account))
		if err != nil {
			return err
		}

		// The tenant's domain, verified in this same up: its required records published with "the
		// user's DNS provider" (the test-only txmaildns plugin, support/dnsPlugin.ts, standing for
		// cloudflare.DnsRecord), each found by its label, and a DomainVerification with the tenant's
		// own connection that depends on them.
		var records []pulumi.Resource
		for _, label := range []string{"DKIM", "Return-Path"} {
			record := tenant.Domain.DnsRecords().ApplyT(func(rs []txmail.DomainDnsRecord) (txmail.DomainDnsRecord, error) {
				for _, r := range rs {
					if r.Label != nil && *r.Label == label {
						return r, nil
					}
				}
				return txmail.DomainDnsRecord{}, fmt.Errorf("mail.gopher.example.com lists no %s record", label)
			}).(txmail.DomainDnsRecordOutput)
			var published dnsRecord
			err := ctx.RegisterResource("txmaildns:index:Record", "gopher-"+strings.ToLower(label), pulumi.Map{
				"name":  record.Host(),
				"type":  record.Type(),
				"value": record.Value(),
			}, &published, pulumi.Version("0.0.1"))
			if err != nil {
				return err
			}
			records = append(records, &published)
		}
		verification, err := txmail.NewDomainVerification(ctx, "gopher", &txmail.DomainVerificationArgs{
			Domain:         tenant.Domain.Domain(),
			Connection:     tenant.Connection,
			TimeoutSeconds: pulumi.Int(60),
		}, pulumi.Provider(account), pulumi.DependsOn(records))
		if err != nil {
			return err
		}

		// A plain resource fed by the tenant's outputs: a key in the tenant's sub account (a part of
		// the tenant is a resource output; its id is the resource's).
		subAccountID := tenant.SubAccount.ApplyT(func(s *txmail.SubAccount) pulumi.IDOutput {
			return s.ID()
		}).(pulumi.IDOutput)
		ciKey, err := txmail.NewSubAccountApiKey(ctx, "gopher-ci", &txmail.SubAccountApiKeyArgs{
			SubAccountId: subAccountID.ToStringOutput(),
			Label:        pulumi.String(ciLabel),
			Scopes:       pulumi.StringArray{pulumi.String("messages:send:mail.gopher.example.com")},
		})
		if err != nil {
			return err
		}

		// A data function, through the explicit provider, once the tenant's sub account exists:
		// the service's usage report, and the tenant's line in it.
		usage := txmail.GetSubAccountUsageOutput(ctx, txmail.GetSubAccountUsageOutputArgs{},
			pulumi.Provider(account), pulumi.DependsOn([]pulumi.Resource{ciKey}))
		tenantUsage := pulumi.All(usage.SubAccounts(), subAccountID).ApplyT(func(args []interface{}) string {
			for _, s := range args[0].([]txmail.GetSubAccountUsageResultSubAccount) {
				if s.AccountId == string(args[1].(pulumi.ID)) {
					return s.Name
				}
			}
			return ""
		}).(pulumi.StringOutput)

		ctx.Export("subAccountId", subAccountID)
		ctx.Export("dnsRecordCount", tenant.Domain.DnsRecords().ApplyT(func(r []txmail.DomainDnsRecord) int {
			return len(r)
		}))
		ctx.Export("supportRouteSecret", tenant.Routes.MapIndex(pulumi.String("support")).Secret())
		ctx.Export("ciKeyLabel", ciKey.Label)
		ctx.Export("ciKeySecret", ciKey.SecretKey)
		ctx.Export("usageCurrency", usage.Currency())
		ctx.Export("usageTenantName", tenantUsage)
		ctx.Export("verified", verification.Verified)
		return nil
	}
}

func main() {
	if len(os.Args) != 2 {
		fail(fmt.Errorf("usage: txmail-go up|preview|change|destroy"))
	}
	if err := run(context.Background(), os.Args[1]); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "txmail-go:", err)
	os.Exit(1)
}

func run(ctx context.Context, step string) error {
	dir := os.Getenv("TXMAIL_GO_STATE_DIR")
	if dir == "" {
		return fmt.Errorf("TXMAIL_GO_STATE_DIR is not set")
	}
	// The connection goes into the stack's config, never on a command line of ours or in output;
	// unset here so that the providers take it from config only.
	conn := map[string]string{}
	for _, name := range []string{"TXMAIL_API_KEY", "TXMAIL_ACCOUNT_ID", "TXMAIL_BASE_URL"} {
		conn[name] = os.Getenv(name)
		os.Unsetenv(name)
	}
	passphrase := os.Getenv("PULUMI_CONFIG_PASSPHRASE")
	if passphrase == "" {
		passphrase = "txmail-go-passphrase"
	}
	for _, sub := range []string{"state", "home", "work"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return err
		}
	}

	ciLabel := "gopher ci"
	if step == "change" {
		ciLabel = "gopher ci, relabelled"
	}
	// The `pulumi` on PATH (the project's CLI); its version is checked by NewPulumiCommand.
	cli, err := auto.NewPulumiCommand(nil)
	if err != nil {
		return err
	}
	stack, err := auto.UpsertStackInlineSource(ctx, stackName, projectName, program(ciLabel),
		auto.Pulumi(cli),
		auto.WorkDir(filepath.Join(dir, "work")),
		auto.PulumiHome(filepath.Join(dir, "home")),
		auto.SecretsProvider("passphrase"),
		auto.Project(workspace.Project{
			Name:    tokens.PackageName(projectName),
			Runtime: workspace.NewProjectRuntimeInfo("go", nil),
			Backend: &workspace.ProjectBackend{URL: "file://" + filepath.Join(dir, "state")},
		}),
		auto.EnvVars(map[string]string{
			"PULUMI_CONFIG_PASSPHRASE":                    passphrase,
			"PULUMI_BACKEND_URL":                          "file://" + filepath.Join(dir, "state"),
			"PULUMI_SKIP_UPDATE_CHECK":                    "true",
			"PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION": "true",
		}),
	)
	if err != nil {
		return err
	}

	line := map[string]any{"step": step}
	switch step {
	case "up", "change":
		if step == "up" {
			if conn["TXMAIL_API_KEY"] == "" || conn["TXMAIL_ACCOUNT_ID"] == "" || conn["TXMAIL_BASE_URL"] == "" {
				return fmt.Errorf("up needs TXMAIL_API_KEY, TXMAIL_ACCOUNT_ID and TXMAIL_BASE_URL")
			}
			err := stack.SetAllConfig(ctx, auto.ConfigMap{
				"txmail:apiKey":    {Value: conn["TXMAIL_API_KEY"], Secret: true},
				"txmail:accountId": {Value: conn["TXMAIL_ACCOUNT_ID"]},
				"txmail:baseUrl":   {Value: conn["TXMAIL_BASE_URL"]},
			})
			if err != nil {
				return err
			}
		}
		res, err := stack.Up(ctx, optup.ProgressStreams(os.Stderr), optup.Color("never"))
		if err != nil {
			return err
		}
		line["changes"] = changes(res.Summary.ResourceChanges)
		line["outputs"] = masked(res.Outputs)
	case "preview":
		res, err := stack.Preview(ctx, optpreview.ProgressStreams(os.Stderr), optpreview.Color("never"))
		if err != nil {
			return err
		}
		line["changes"] = opChanges(res.ChangeSummary)
		outs, err := stack.Outputs(ctx)
		if err != nil {
			return err
		}
		line["outputs"] = masked(outs)
	case "destroy":
		res, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stderr), optdestroy.Color("never"))
		if err != nil {
			return err
		}
		line["changes"] = changes(res.Summary.ResourceChanges)
	default:
		return fmt.Errorf("unknown step %q (up, preview, change, destroy)", step)
	}
	text, err := json.Marshal(line)
	if err != nil {
		return err
	}
	fmt.Println(string(text))
	return nil
}

func changes(c *map[string]int) map[string]int {
	if c == nil {
		return map[string]int{}
	}
	return *c
}

func opChanges(c map[apitype.OpType]int) map[string]int {
	out := map[string]int{}
	for op, n := range c {
		out[string(op)] = n
	}
	return out
}

// masked is the stack's outputs as the engine shows them: a secret's value is "[secret]".
func masked(outputs auto.OutputMap) map[string]any {
	out := map[string]any{}
	names := make([]string, 0, len(outputs))
	for name := range outputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if outputs[name].Secret {
			out[name] = "[secret]"
		} else {
			out[name] = outputs[name].Value
		}
	}
	return out
}
