// Command pulumi-language-nodejs is a small Node.js language host for the Pulumi engine.
//
// The official host (module github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) is not
// served by the Go module proxy we can reach, and without a language plugin the engine can run neither
// Node programs nor Node policy packs. The heavy lifting lives in the npm package @pulumi/pulumi
// (cmd/run, cmd/run-policy-pack, cmd/run-plugin); this host only launches those entry points the way
// the engine and they expect. See README.md for what is and is not supported.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// version is stamped at build time (-ldflags "-X main.version=..."); it must stay a semver string
// because the engine parses GetPluginInfo's version with semver.ParseTolerant.
var version = "3.274.1+txmail.dev"

// engineCheckInterval is how often the host asks whether its engine is still there.
const engineCheckInterval = time.Second

func main() {
	// The engine launches language plugins as `pulumi-language-nodejs [--logtostderr] [-v=N]
	// [--tracing URL] ENGINE_ADDRESS` (see buildPluginArguments in pkg/resource/plugin/plugin.go).
	// Unknown flags would make flag.Parse exit, so every flag the engine may pass is declared here.
	// typescript/tsconfig/nodeargs are the runtime options older engines passed as flags; newer
	// engines send them in ProgramInfo.Options, which wins over these defaults.
	tracing := flag.String("tracing", "", "Zipkin-compatible tracing endpoint, forwarded to the Node runtime")
	root := flag.String("root", "", "project root (accepted for compatibility; ProgramInfo is used instead)")
	// glog (pulled in through the SDK) normally registers these two already; declare them only if not.
	if flag.Lookup("logtostderr") == nil {
		flag.Bool("logtostderr", false, "log to stderr instead of a file")
	}
	if flag.Lookup("v") == nil {
		flag.Int("v", 0, "log verbosity")
	}
	typescript := flag.Bool("typescript", true, "run TypeScript sources through ts-node")
	tsconfig := flag.String("tsconfig", "", "path of the tsconfig.json to use")
	nodeargs := flag.String("nodeargs", "", "extra arguments passed to node")
	flag.String("packagemanager", "", "accepted for compatibility; dependencies are never installed by this host")
	flag.Parse()
	logging.InitLogging(false, 0, false) // picks up -v / --logtostderr from the flags above
	_ = root

	engineAddress := ""
	if args := flag.Args(); len(args) > 0 {
		engineAddress = args[0]
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// If the engine dies without closing us, we must not linger: poll its health endpoint and stop
	// serving when it goes away (the same contract every Pulumi plugin follows). Pulumi's own plugins
	// poll every 5 minutes, so a killed engine leaves them idle that long; one loopback call a second
	// ends this host within a second or two of its engine (a busy engine answers late, never wrongly).
	if engineAddress != "" {
		if err := rpcutil.Healthcheck(ctx, engineAddress, engineCheckInterval, cancel); err != nil {
			cmdutil.Exit(fmt.Errorf("could not start health check for engine %s: %w", engineAddress, err))
		}
	}

	host := newHost(engineAddress, *tracing, defaults{
		typescript: *typescript,
		tsconfig:   *tsconfig,
		nodeargs:   *nodeargs,
	})

	cancelServe := make(chan bool, 1)
	go func() {
		<-ctx.Done()
		cancelServe <- true
	}()
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancelServe,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
		Options: rpcutil.TracingServerInterceptorOptions(nil),
	})
	if err != nil {
		cmdutil.Exit(fmt.Errorf("could not start language host RPC server: %w", err))
	}

	// The engine reads exactly one line from our stdout: the port. Everything after it is shown to
	// the user as plugin output.
	fmt.Fprintf(os.Stdout, "%d\n", handle.Port)

	if err := <-handle.Done; err != nil {
		cmdutil.Exit(fmt.Errorf("language host RPC stopped serving: %w", err))
	}
}
