// gomodproxy writes one version of a Go module in the module proxy's layout (the GOPROXY protocol:
// go.dev/ref/mod#goproxy-protocol), the way a proxy serves a tagged module to `go get`:
//
//	gomodproxy -dir sdk/go -version v1.2.3 -time 2026-01-02T03:04:05Z -out release/go
//	  -> release/go/<module>/@v/list, v1.2.3.info, v1.2.3.mod, v1.2.3.zip
//
// The zip follows Go's own rules (golang.org/x/mod/zip: the files under `<module>@<version>/`, no
// nested modules, vendor/ or VCS directories, size limits), so its hash is the one `go mod
// download` computes for the same tree. The module path is read from the directory's go.mod; a
// directory already holding other versions keeps them in `list`.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	modzip "golang.org/x/mod/zip"
)

func main() {
	dir := flag.String("dir", "", "the module's root directory (holding go.mod)")
	version := flag.String("version", "", "the version to publish, e.g. v1.2.3")
	stamp := flag.String("time", "", "the version's time (RFC 3339), e.g. the tagged commit's")
	out := flag.String("out", "", "the proxy root to write into")
	flag.Parse()
	if err := run(*dir, *version, *stamp, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gomodproxy:", err)
		os.Exit(1)
	}
}

func run(dir, version, stamp, out string) error {
	if dir == "" || out == "" || !semver.IsValid(version) || semver.Canonical(version) != version {
		return fmt.Errorf("usage: gomodproxy -dir DIR -version vX.Y.Z -time RFC3339 -out DIR (got version %q)", version)
	}
	at, err := time.Parse(time.RFC3339, stamp)
	if err != nil {
		return fmt.Errorf("-time: %w", err)
	}
	goMod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(goMod)
	if path == "" {
		return fmt.Errorf("%s/go.mod declares no module path", dir)
	}
	mod := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	versions := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(versions, 0o755); err != nil {
		return err
	}
	zipFile, err := os.Create(filepath.Join(versions, version+".zip"))
	if err != nil {
		return err
	}
	if err := modzip.CreateFromDir(zipFile, mod, dir); err != nil {
		zipFile.Close()
		return fmt.Errorf("zipping %s: %w", dir, err)
	}
	if err := zipFile.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(versions, version+".mod"), goMod, 0o644); err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, at.UTC()})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(versions, version+".info"), info, 0o644); err != nil {
		return err
	}
	listed := []string{version}
	if old, err := os.ReadFile(filepath.Join(versions, "list")); err == nil {
		listed = append(listed, strings.Fields(string(old))...)
	}
	semver.Sort(listed)
	listed = slices.Compact(listed)
	return os.WriteFile(filepath.Join(versions, "list"), []byte(strings.Join(listed, "\n")+"\n"), 0o644)
}
