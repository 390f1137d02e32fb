//go:build tools

// The Java language host is a main package of pulumi-java/pkg; importing it here keeps its whole
// dependency graph in go.mod/go.sum, so scripts/build-javagen.sh builds it with -mod=readonly.
package main

import _ "github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java"
