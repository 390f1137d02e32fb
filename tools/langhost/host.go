package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// bailExitCode is what @pulumi/pulumi/cmd/run exits with after it already logged a user-actionable
// error through the engine (nodeJSProcessExitedAfterLoggingUserActionableMessage in cmd/run/index.js).
// We answer RunResponse.Bail so the engine does not print a second, generic failure.
const bailExitCode = 32

// defaults are the runtime options given as launch flags; ProgramInfo.Options override them.
type defaults struct {
	typescript bool
	tsconfig   string
	nodeargs   string
}

type host struct {
	// Every method we do not implement answers codes.Unimplemented; the engine treats that as
	// "feature not supported" for the optional calls (Cancel, Link, Pack, codegen, ...).
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu            sync.Mutex
	engineAddress string
	tracing       string
	defaults      defaults
}

func newHost(engineAddress, tracing string, d defaults) *host {
	return &host{engineAddress: engineAddress, tracing: tracing, defaults: d}
}

func (h *host) engine() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.engineAddress
}

// Handshake is only sent when the engine attaches to an already running host
// (PULUMI_DEBUG_LANGUAGES); a launched host gets the engine address as its positional argument.
func (h *host) Handshake(
	ctx context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetPluginInfo(ctx context.Context, _ *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// GetRequiredPlugins and GetRequiredPackages are advisory: they let the engine install provider
// plugins before the program runs. This host reports none, so a program that needs a real provider
// plugin must have it installed already (the engine resolves it when the resource is registered).
// The dynamic provider (pulumi-resource-pulumi-nodejs) is found on PATH and needs no install.
func (h *host) GetRequiredPlugins(
	ctx context.Context, req *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(
	ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

// InstallDependencies succeeds without doing anything: dependencies are installed by the project's
// own setup, never by the engine (which would otherwise run `npm install` on `pulumi install`/`new`).
func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest,
	server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	return nil
}

func (h *host) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("could not find node on $PATH")
	}
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("running node --version: %w", err)
	}
	return &pulumirpc.AboutResponse{
		Executable: node,
		Version:    strings.TrimPrefix(strings.TrimSpace(string(out)), "v"),
		Metadata:   map[string]string{"langhost": "txmail.local/langhost " + version},
	}, nil
}

// GetProgramDependencies lists the direct dependencies from the program's package.json, with the
// installed version where node_modules has one (used by `pulumi about` and update metadata).
func (h *host) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetProgram() //nolint:staticcheck // older engines only send the deprecated field
	}
	pkgDir, ok := findUp(dir, "package.json")
	if !ok {
		return &pulumirpc.GetProgramDependenciesResponse{}, nil
	}
	var pkg struct {
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
	}
	b, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return nil, fmt.Errorf("parsing %s: %w", filepath.Join(pkgDir, "package.json"), err)
	}
	deps := map[string]string{}
	for name, v := range pkg.DevDependencies {
		deps[name] = v
	}
	for name, v := range pkg.Dependencies {
		deps[name] = v
	}
	names := make([]string, 0, len(deps))
	for name := range deps {
		names = append(names, name)
	}
	sort.Strings(names)
	resp := &pulumirpc.GetProgramDependenciesResponse{}
	for _, name := range names {
		v := deps[name]
		if installed, ok := installedVersion(pkgDir, name); ok {
			v = installed
		}
		resp.Dependencies = append(resp.Dependencies, &pulumirpc.DependencyInfo{Name: name, Version: v})
	}
	return resp, nil
}

// Run executes the program through @pulumi/pulumi/cmd/run, which connects to the resource monitor
// itself. Flags are the ones cmd/run/index.js parses; config travels in PULUMI_CONFIG and
// PULUMI_CONFIG_SECRET_KEYS, which runtime/config.js reads.
func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("could not find node on $PATH: install Node.js (>= 22) and put it on PATH")
	}
	opts := h.options(req.GetInfo())
	pwd := req.GetPwd()
	if pwd == "" {
		pwd = req.GetInfo().GetProgramDirectory()
	}
	runPath, err := locateEntry(pwd, "run")
	if err != nil {
		return nil, err
	}

	env, err := configEnv(req.GetConfig(), req.GetConfigSecretKeys())
	if err != nil {
		return nil, err
	}
	env = append(env, opts.env()...)

	args := append(opts.nodeArgs(), runPath)
	args = append(args, runArgs(req, h.engine(), h.tracing)...)

	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = pwd
	cmd.Env = append(os.Environ(), env...)
	// Program output goes to our own stdout/stderr, which the engine already streams to the user.
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr

	err = cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}, nil
	case errors.As(err, &exitErr):
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited unexpectedly: %v", ws.Signal())}, nil
		}
		if exitErr.ExitCode() == bailExitCode {
			return &pulumirpc.RunResponse{Bail: true}, nil
		}
		return &pulumirpc.RunResponse{
			Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode()),
		}, nil
	default:
		return nil, fmt.Errorf("could not run the Node.js program with %s: %w", node, err)
	}
}

// runArgs builds the flags and positional arguments after the cmd/run entry point.
func runArgs(req *pulumirpc.RunRequest, engineAddress, tracing string) []string {
	var args []string
	flag := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	flag("monitor", req.GetMonitorAddress())
	flag("engine", engineAddress)
	flag("organization", req.GetOrganization())
	flag("project", req.GetProject())
	flag("stack", req.GetStack())
	flag("pwd", req.GetPwd())
	flag("root-directory", req.GetInfo().GetRootDirectory())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if req.GetParallel() > 0 {
		flag("parallel", strconv.Itoa(int(req.GetParallel())))
	}
	flag("tracing", tracing)

	// "." lets cmd/run pick the entry point from package.json (exports/main) or index.{js,ts};
	// otherwise it is the file named by `main` in Pulumi.yaml, relative to --pwd.
	program := req.GetProgram()
	if program == "" {
		program = "."
	}
	args = append(args, program)
	return append(args, req.GetArgs()...)
}

// configEnv encodes stack config the way @pulumi/pulumi/runtime/config.js reads it: a JSON object
// of "namespace:key" -> value, and a JSON array of the keys that are secrets.
func configEnv(config map[string]string, secretKeys []string) ([]string, error) {
	if config == nil {
		config = map[string]string{}
	}
	if secretKeys == nil {
		secretKeys = []string{}
	}
	c, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("encoding config: %w", err)
	}
	s, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, fmt.Errorf("encoding secret config keys: %w", err)
	}
	return []string{"PULUMI_CONFIG=" + string(c), "PULUMI_CONFIG_SECRET_KEYS=" + string(s)}, nil
}

// runtimeOptions are the `runtime.options` of Pulumi.yaml / PulumiPolicy.yaml that matter here.
type runtimeOptions struct {
	typescript bool
	tsconfig   string
	nodeargs   string
}

func (h *host) options(info *pulumirpc.ProgramInfo) runtimeOptions {
	o := runtimeOptions{typescript: h.defaults.typescript, tsconfig: h.defaults.tsconfig, nodeargs: h.defaults.nodeargs}
	m := info.GetOptions().AsMap()
	if v, ok := m["typescript"].(bool); ok {
		o.typescript = v
	}
	if v, ok := m["tsconfig"].(string); ok {
		o.tsconfig = v
	}
	if v, ok := m["nodeargs"].(string); ok {
		o.nodeargs = v
	}
	return o
}

// env carries the TypeScript switches cmd/run/run.js reads from the environment.
func (o runtimeOptions) env() []string {
	env := []string{"PULUMI_NODEJS_TYPESCRIPT=" + strconv.FormatBool(o.typescript)}
	if o.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+o.tsconfig)
	}
	return env
}

func (o runtimeOptions) nodeArgs() []string {
	return strings.Fields(o.nodeargs)
}

// locateEntry finds node_modules/@pulumi/pulumi/cmd/<name> by walking up from dir, the same search
// Node's require() does, so we launch the copy of @pulumi/pulumi the program itself will load.
// PULUMI_LANGUAGE_NODEJS_RUN_PATH overrides the cmd/run path, as with the official host.
func locateEntry(dir, name string) (string, error) {
	if name == "run" {
		if p := os.Getenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH"); p != "" {
			return p, nil
		}
	}
	rel := filepath.Join("node_modules", "@pulumi", "pulumi", "cmd", name)
	if base, ok := findUp(dir, filepath.Join(rel, "index.js")); ok {
		return filepath.Join(base, rel), nil
	}
	// The engine recognises this exact phrase for policy packs and turns it into a hint to install
	// the pack's dependencies.
	return "", fmt.Errorf("Cannot find module '@pulumi/pulumi/cmd/%s' from %s: "+
		"it looks like the Pulumi SDK has not been installed; run npm install", name, dir)
}

// findUp returns the first directory at or above dir that contains rel.
func findUp(dir, rel string) (string, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, rel)); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func installedVersion(fromDir, name string) (string, bool) {
	base, ok := findUp(fromDir, filepath.Join("node_modules", name, "package.json"))
	if !ok {
		return "", false
	}
	b, err := os.ReadFile(filepath.Join(base, "node_modules", name, "package.json"))
	if err != nil {
		return "", false
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &pkg) != nil || pkg.Version == "" {
		return "", false
	}
	return pkg.Version, true
}
