// A new user's Go program for the release rehearsal (test/e2e/release): copied into a fresh module
// that `go get`s the txmail SDK by its tag from a module proxy. An inline Automation API program (no
// Go language host) brings up one Tenant and destroys it; the txmail plugin is not installed
// anywhere: the engine acquires it by name, as the SDK asks for it.
//
//	TXMAIL_API_KEY=… TXMAIL_ACCOUNT_ID=… TXMAIL_BASE_URL=… go run .
//
// Prints one JSON line per step (up, destroy) with its change summary.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func program(ctx *pulumi.Context) error {
	_, err := txmail.NewTenant(ctx, "rehearsal", &txmail.TenantArgs{
		Website:      pulumi.String("go.rehearsal.example.com"),
		Domain:       &txmail.TenantDomainArgs{Domain: pulumi.String("mail.go.rehearsal.example.com")},
		BootstrapKey: &txmail.TenantKeyArgs{IpAllowList: pulumi.StringArray{pulumi.String("127.0.0.1")}},
	})
	return err
}

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	stack, err := auto.UpsertStackInlineSource(ctx, "dev", "rehearsal-go", program)
	if err != nil {
		return err
	}
	config := auto.ConfigMap{
		"txmail:apiKey":    {Value: os.Getenv("TXMAIL_API_KEY"), Secret: true},
		"txmail:accountId": {Value: os.Getenv("TXMAIL_ACCOUNT_ID")},
		"txmail:baseUrl":   {Value: os.Getenv("TXMAIL_BASE_URL")},
	}
	if err := stack.SetAllConfig(ctx, config); err != nil {
		return err
	}
	up, err := stack.Up(ctx, optup.ErrorProgressStreams(os.Stderr), optup.ProgressStreams(os.Stderr))
	if err != nil {
		return err
	}
	if err := step("up", up.Summary.ResourceChanges); err != nil {
		return err
	}
	down, err := stack.Destroy(ctx, optdestroy.ErrorProgressStreams(os.Stderr), optdestroy.ProgressStreams(os.Stderr))
	if err != nil {
		return err
	}
	return step("destroy", down.Summary.ResourceChanges)
}

func step(name string, changes *map[string]int) error {
	line, err := json.Marshal(map[string]any{"step": name, "changes": changes})
	if err != nil {
		return err
	}
	fmt.Println(string(line))
	return nil
}
