//go:build tools

// This module also builds the Pulumi CLI the host runs under (scripts/build-go-tools.sh): importing
// its main package here keeps the CLI's whole dependency graph in go.mod/go.sum, pinned and checked,
// and lets one `go build` compile the packages the CLI and the host share once.
package main

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
