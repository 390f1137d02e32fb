package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"
)

// The flags must be the ones @pulumi/pulumi/cmd/run/index.js parses with minimist.
func TestRunArgs(t *testing.T) {
	req := &pulumirpc.RunRequest{
		MonitorAddress: "127.0.0.1:1", Project: "p", Stack: "s", Pwd: "/prog", Organization: "o",
		DryRun: true, Parallel: 8, Program: "index.ts", Args: []string{"a1"},
		Info: &pulumirpc.ProgramInfo{RootDirectory: "/root"},
	}
	got := runArgs(req, "127.0.0.1:2", "")
	want := []string{
		"--monitor", "127.0.0.1:1", "--engine", "127.0.0.1:2", "--organization", "o", "--project", "p",
		"--stack", "s", "--pwd", "/prog", "--root-directory", "/root", "--dry-run", "--parallel", "8",
		"index.ts", "a1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("runArgs:\n got %q\nwant %q", got, want)
	}
	// No entry point: "." lets cmd/run use package.json's main.
	if got := runArgs(&pulumirpc.RunRequest{MonitorAddress: "m"}, "", ""); got[len(got)-1] != "." {
		t.Fatalf("empty program should run \".\", got %q", got)
	}
}

func TestConfigEnv(t *testing.T) {
	env, err := configEnv(map[string]string{"proj:greeting": "hi"}, []string{"proj:token"})
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]string
	var keys []string
	if err := json.Unmarshal([]byte(strings.TrimPrefix(env[0], "PULUMI_CONFIG=")), &cfg); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(env[1], "PULUMI_CONFIG_SECRET_KEYS=")), &keys); err != nil {
		t.Fatal(err)
	}
	if cfg["proj:greeting"] != "hi" || len(keys) != 1 || keys[0] != "proj:token" {
		t.Fatalf("unexpected env %q", env)
	}
	// run.js JSON.parses both variables, so empty inputs must still be valid JSON.
	env, _ = configEnv(nil, nil)
	if env[0] != "PULUMI_CONFIG={}" || env[1] != "PULUMI_CONFIG_SECRET_KEYS=[]" {
		t.Fatalf("empty config: %q", env)
	}
}

func TestOptions(t *testing.T) {
	h := newHost("", "", defaults{typescript: true})
	opts, _ := structpb.NewStruct(map[string]any{"typescript": false, "nodeargs": "--no-warnings --trace-uncaught"})
	o := h.options(&pulumirpc.ProgramInfo{Options: opts})
	if o.typescript || !reflect.DeepEqual(o.nodeArgs(), []string{"--no-warnings", "--trace-uncaught"}) {
		t.Fatalf("options not applied: %+v", o)
	}
	if got := h.options(nil); !got.typescript {
		t.Fatal("typescript should default to the launch flag (true)")
	}
}

func TestEngineArg(t *testing.T) {
	if got := engineArg([]string{"--logtostderr", "-v=9", "--tracing", "http://t", "127.0.0.1:5"}); got != "127.0.0.1:5" {
		t.Fatalf("engineArg = %q", got)
	}
}

func TestLocateEntry(t *testing.T) {
	root := t.TempDir()
	entry := filepath.Join(root, "node_modules", "@pulumi", "pulumi", "cmd", "run-policy-pack")
	if err := os.MkdirAll(entry, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(entry, "index.js"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := locateEntry(deep, "run-policy-pack")
	if err != nil || got != entry {
		t.Fatalf("locateEntry = %q, %v", got, err)
	}
	// The engine keys its "install the policy pack's dependencies" hint on this phrase.
	if _, err := locateEntry(deep, "run-plugin"); err == nil ||
		!strings.Contains(err.Error(), "Cannot find module '@pulumi/pulumi/cmd/run-plugin'") {
		t.Fatalf("missing module error = %v", err)
	}
}
