// javagen writes the Java SDK of the txmail package from its schema (native/schema.json) with
// pulumi-java's own code generator (codegen/java GeneratePackage, pulumi-java v1.22.0 as go.mod pins),
// offline: no language host, no plugin, no network.
//
//	javagen -schema native/schema.json -out .    # -> ./sdk/java/{pom.xml,src/main/java/…,src/main/resources/…}
//
// It replaces sdk/java wholesale (a resource dropped from the schema leaves no file behind). Besides
// the generator's sources it writes a Maven pom.xml (pom.go: pulumi-java only writes Gradle files, and
// there is no Gradle here) and the plugin.json resource the Java SDK reads to tell the engine which
// plugin a program needs (pulumi-java's Gradle build writes it at build time). The output is
// deterministic.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool names the generator in the "do not edit" headers of the generated files.
const tool = "txmail-javagen"

func main() {
	schemaFile := flag.String("schema", "native/schema.json", "the package schema")
	out := flag.String("out", ".", "the directory that receives sdk/java")
	flag.Parse()
	if err := run(*schemaFile, *out); err != nil {
		fmt.Fprintln(os.Stderr, "javagen:", err)
		os.Exit(1)
	}
}

func run(schemaFile, out string) error {
	text, err := os.ReadFile(schemaFile)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaFile, err)
	}
	files, err := generate(spec)
	if err != nil {
		return err
	}
	root := filepath.Join(out, "sdk", "java")
	if err := os.RemoveAll(root); err != nil {
		return err
	}
	return write(root, files)
}

// write writes files (slash-separated names) under root, in a stable order.
func write(root string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		target := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}
