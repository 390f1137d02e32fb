// sdkgen writes the Go and Python SDKs of the txmail package from its schema (native/schema.json), by
// Pulumi's own code generators (pkg/v3 codegen/go and codegen/python, the versions tools/langhost/go.mod
// pins), offline: no language host, no plugin, no network.
//
//	sdkgen -schema native/schema.json -out .    # -> ./sdk/go/{go.mod,txmail/…}, ./sdk/python/…
//
// It replaces sdk/go/txmail and sdk/python wholesale (a resource dropped from the schema leaves no
// file behind) and writes a minimal sdk/go/go.mod (module path from the schema's
// language.go.importBasePath, sdk/v3 at the version this program is built with); sdk/go/go.sum is
// left alone. scripts/gen-sdks.sh then runs `go mod tidy` in sdk/go. The output is deterministic.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"golang.org/x/mod/modfile"
)

// tool names the generator in the "do not edit" headers of the generated files.
const tool = "txmail-sdkgen"

const pulumiSDK = "github.com/pulumi/pulumi/sdk/v3"

// noLoader refuses every package reference: the txmail schema depends on no other package (its only
// external reference, pulumi.json#/Any, is built in), so a load request is a schema error.
type noLoader struct{}

var errNoDependencies = errors.New("sdkgen: the schema references another package; none is available offline")

func (noLoader) LoadPackage(string, *semver.Version) (*schema.Package, error) {
	return nil, errNoDependencies
}

func (noLoader) LoadPackageV2(context.Context, *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errNoDependencies
}

func (noLoader) LoadPackageReference(string, *semver.Version) (schema.PackageReference, error) {
	return nil, errNoDependencies
}

func (noLoader) LoadPackageReferenceV2(
	context.Context, *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, errNoDependencies
}

func main() {
	schemaFile := flag.String("schema", "native/schema.json", "the package schema")
	out := flag.String("out", ".", "the directory that receives sdk/go and sdk/python")
	flag.Parse()
	if err := run(*schemaFile, *out); err != nil {
		fmt.Fprintln(os.Stderr, "sdkgen:", err)
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
	if importBasePath(spec) == "" {
		return fmt.Errorf("%s: no language.go.importBasePath", schemaFile)
	}
	goFiles, pyFiles, modulePath, err := generate(spec)
	if err != nil {
		return err
	}
	sdkVersion, err := linkedVersion(pulumiSDK)
	if err != nil {
		return err
	}
	goMod, err := goModFile(modulePath, sdkVersion)
	if err != nil {
		return err
	}

	goRoot := filepath.Join(out, "sdk", "go")
	pyRoot := filepath.Join(out, "sdk", "python")
	// Everything the Go generator writes lives in the package directory, but for .gitattributes.
	for name := range goFiles {
		if !strings.HasPrefix(name, goPackageDir(spec)+"/") && name != ".gitattributes" {
			return fmt.Errorf("unexpected Go output %q", name)
		}
	}
	if err := os.RemoveAll(filepath.Join(goRoot, goPackageDir(spec))); err != nil {
		return err
	}
	if err := os.RemoveAll(pyRoot); err != nil {
		return err
	}
	goFiles["go.mod"] = goMod
	if err := write(goRoot, goFiles); err != nil {
		return err
	}
	return write(pyRoot, pyFiles)
}

// generate binds the schema and runs Pulumi's Go and Python generators on it.
func generate(spec schema.PackageSpec) (goFiles, pyFiles map[string][]byte, modulePath string, err error) {
	// Bound twice, once per generator: each imports its own language block into the package.
	bind := func() (*schema.Package, error) {
		pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
		if err != nil {
			return nil, err
		}
		if diags.HasErrors() {
			return nil, diags
		}
		return pkg, nil
	}
	pkg, err := bind()
	if err != nil {
		return nil, nil, "", err
	}
	if goFiles, err = gogen.GeneratePackage(tool, pkg, nil); err != nil {
		return nil, nil, "", fmt.Errorf("Go: %w", err)
	}
	// The module is the import base path's parent (…/sdk/go for …/sdk/go/txmail).
	modulePath = path.Dir(importBasePath(spec))
	if pkg, err = bind(); err != nil {
		return nil, nil, "", err
	}
	if pyFiles, err = pygen.GeneratePackage(tool, pkg, nil, noLoader{}); err != nil {
		return nil, nil, "", fmt.Errorf("Python: %w", err)
	}
	return goFiles, pyFiles, modulePath, nil
}

// importBasePath is the schema's language.go.importBasePath (required: without it the Go generator
// makes up an example.com path).
func importBasePath(spec schema.PackageSpec) string {
	var info struct {
		ImportBasePath string `json:"importBasePath"`
	}
	if raw, ok := spec.Language["go"]; ok {
		_ = json.Unmarshal(raw, &info)
	}
	return info.ImportBasePath
}

// goPackageDir is the Go package's directory under sdk/go: the last element of the import base path.
func goPackageDir(spec schema.PackageSpec) string { return path.Base(importBasePath(spec)) }

// linkedVersion is the version of a module linked into this program (from tools/langhost/go.mod).
func linkedVersion(module string) (string, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", errors.New("no build information in this binary")
	}
	for _, dep := range info.Deps {
		if dep.Path == module {
			if dep.Replace != nil {
				return dep.Replace.Version, nil
			}
			return dep.Version, nil
		}
	}
	return "", fmt.Errorf("%s is not linked into this binary", module)
}

// goModFile is the SDK module's go.mod before `go mod tidy`: its path, the Go version sdk/v3 itself
// requires, and sdk/v3.
func goModFile(modulePath, sdkVersion string) ([]byte, error) {
	var f modfile.File
	if err := f.AddModuleStmt(modulePath); err != nil {
		return nil, err
	}
	goVersion, err := sdkGoVersion(sdkVersion)
	if err != nil {
		return nil, err
	}
	if err := f.AddGoStmt(goVersion); err != nil {
		return nil, err
	}
	if err := f.AddRequire(pulumiSDK, sdkVersion); err != nil {
		return nil, err
	}
	return f.Format()
}

// sdkGoVersion is the go directive of sdk/v3's own go.mod (a module requiring it needs at least that).
func sdkGoVersion(sdkVersion string) (string, error) {
	gomodcache := os.Getenv("GOMODCACHE")
	if gomodcache == "" {
		gopath := os.Getenv("GOPATH")
		if gopath == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", err
			}
			gopath = filepath.Join(home, "go")
		}
		gomodcache = filepath.Join(strings.Split(gopath, string(os.PathListSeparator))[0], "pkg", "mod")
	}
	name := filepath.Join(gomodcache, "cache", "download", "github.com", "pulumi", "pulumi", "sdk", "v3",
		"@v", sdkVersion+".mod")
	text, err := os.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("reading sdk/v3's go.mod (run `go mod download` in tools/langhost): %w", err)
	}
	f, err := modfile.ParseLax(name, text, nil)
	if err != nil {
		return "", err
	}
	if f.Go == nil {
		return "", fmt.Errorf("%s has no go directive", name)
	}
	return f.Go.Version, nil
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
