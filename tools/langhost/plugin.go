package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	sdk "github.com/pulumi/pulumi/sdk/v3"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// RunPlugin runs a plugin written in Node.js on behalf of the engine. Since v3.221 the engine boots
// a policy pack whose PulumiPolicy.yaml says `runtime: nodejs` this way (ExecPlugin in
// pkg/resource/plugin/plugin.go, kind "analyzer"): it reads the analyzer's gRPC port from the first
// line of the streamed stdout, then calls Handshake and ConfigureStack on it.
//
// @pulumi/policy predates that protocol: it learns project, stack and config from the PULUMI_NODEJS_*
// and PULUMI_CONFIG variables at start-up and does not speak Handshake. So for analyzers we put
// sdk.PolicyProxy in front: it answers Handshake/ConfigureStack itself, and only once it has the
// stack configuration do we start `cmd/run-policy-pack` with those variables and let the proxy
// forward every other analyzer call to the pack.
func (h *host) RunPlugin(
	req *pulumirpc.RunPluginRequest, server grpc.ServerStreamingServer[pulumirpc.RunPluginResponse],
) error {
	ctx := server.Context()
	node, err := exec.LookPath("node")
	if err != nil {
		return errors.New("could not find node on $PATH: install Node.js (>= 22) and put it on PATH")
	}
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetPwd()
	}
	opts := h.options(req.GetInfo())
	stdout, stderr, send := newStreams(server)

	var code int32
	if req.GetKind() == "analyzer" {
		code, err = h.runPolicyPack(ctx, node, dir, req, opts, stdout, stderr)
	} else {
		code, err = h.runNodePlugin(ctx, node, dir, req, opts, stdout, stderr)
	}
	if err != nil {
		// Shown by the engine as plugin output, which is where a user looks when a plugin fails to start.
		fmt.Fprintf(stderr, "%v\n", err)
		return err
	}
	return send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: code}})
}

func (h *host) runPolicyPack(
	ctx context.Context, node, dir string, req *pulumirpc.RunPluginRequest, opts runtimeOptions,
	stdout, stderr io.Writer,
) (int32, error) {
	entry, err := locateEntry(dir, "run-policy-pack")
	if err != nil {
		return 0, err
	}
	proxy, packStdout, err := sdk.NewPolicyProxy(ctx, stdout)
	if err != nil {
		return 0, fmt.Errorf("starting policy proxy: %w", err)
	}
	// Prints the proxy's port for the engine, then waits for ConfigureStack (or for any other call,
	// e.g. from `pulumi policy publish`, in which case cfg is nil and the pack runs unconfigured).
	cfg, err := proxy.AwaitConfiguration(ctx)
	if err != nil {
		return 0, err
	}

	env := req.GetEnv()
	if cfg != nil {
		cenv, err := configEnv(cfg.GetConfig(), cfg.GetConfigSecretKeys())
		if err != nil {
			return 0, err
		}
		env = append(env, cenv...)
		env = append(env,
			"PULUMI_NODEJS_PROJECT="+cfg.GetProject(),
			"PULUMI_NODEJS_STACK="+cfg.GetStack(),
			"PULUMI_NODEJS_ORGANIZATION="+cfg.GetOrganization(),
			"PULUMI_NODEJS_DRY_RUN="+strconv.FormatBool(cfg.GetDryRun()),
		)
	}

	// cmd/run-policy-pack takes `<engine-address> <policy-pack-dir>`. The engine's args end with its
	// address, possibly preceded by --logtostderr/-v/--tracing, which that entry point would mis-parse.
	args := append(opts.nodeArgs(), entry, engineArg(req.GetArgs()), dir)
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = dir // run.js resolves tsconfig.json relative to the working directory
	cmd.Env = env
	cmd.Stdout = packStdout // the proxy reads the pack's port from it and forwards the rest
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("starting policy pack: %w", err)
	}
	return exitCode(proxy.Attach(ctx, cmd)) // Attach owns cmd.Wait
}

// runNodePlugin runs any other Node plugin (a PulumiPlugin.yaml provider, tool or converter)
// through @pulumi/pulumi/cmd/run-plugin, which loads the directory and passes the args on.
func (h *host) runNodePlugin(
	ctx context.Context, node, dir string, req *pulumirpc.RunPluginRequest, opts runtimeOptions,
	stdout, stderr io.Writer,
) (int32, error) {
	entry, err := locateEntry(dir, "run-plugin")
	if err != nil {
		return 0, err
	}
	args := append(opts.nodeArgs(), entry, dir)
	args = append(args, req.GetArgs()...)
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = req.GetPwd()
	cmd.Env = append(req.GetEnv(), opts.env()...)
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	return exitCode(cmd.Run())
}

// engineArg returns the engine address: the last positional argument the engine passed.
func engineArg(args []string) string {
	for i := len(args) - 1; i >= 0; i-- {
		if !strings.HasPrefix(args[i], "-") {
			return args[i]
		}
	}
	return ""
}

// exitCode turns a process result into the exit code reported to the engine; only failures to run
// the process at all are errors.
func exitCode(err error) (int32, error) {
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &exitErr):
		return int32(exitErr.ExitCode()), nil //nolint:gosec // exit codes fit in int32
	default:
		return 0, err
	}
}

// newStreams returns writers that forward to the RunPlugin response stream, and the locked send
// they use. gRPC forbids concurrent Send calls on one stream, and exec copies stdout and stderr on
// separate goroutines, so every message goes through one lock.
func newStreams(
	server grpc.ServerStreamingServer[pulumirpc.RunPluginResponse],
) (io.Writer, io.Writer, func(*pulumirpc.RunPluginResponse) error) {
	var mu sync.Mutex
	send := func(msg *pulumirpc.RunPluginResponse) error {
		mu.Lock()
		defer mu.Unlock()
		return server.Send(msg)
	}
	out := writerFunc(func(b []byte) error {
		return send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stdout{Stdout: clone(b)}})
	})
	errw := writerFunc(func(b []byte) error {
		return send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stderr{Stderr: clone(b)}})
	})
	return out, errw, send
}

type writerFunc func([]byte) error

func (f writerFunc) Write(b []byte) (int, error) {
	if err := f(b); err != nil {
		return 0, err
	}
	return len(b), nil
}

// clone copies b: io.Writer callers may reuse the buffer once Write returns.
func clone(b []byte) []byte { return append([]byte(nil), b...) }
