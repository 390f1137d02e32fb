package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// hostStartTimeout bounds the wait for a language host to print its port.
const hostStartTimeout = 60 * time.Second

// generateTimeout bounds one GenerateProgram call.
const generateTimeout = 120 * time.Second

// languageHost is a running language host (pulumi-language-<lang>) and a client to it. Started once per
// language, it generates every example, as the engine's `pulumi convert` would ask it to.
type languageHost struct {
	name   string
	cmd    *exec.Cmd
	conn   *grpc.ClientConn
	client pulumirpc.LanguageRuntimeClient
	stderr *lockedBuffer
}

// lockedBuffer collects a host's stderr for error messages (written by exec's copier goroutine).
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startHost runs the host binary with no engine address (GenerateProgram needs none; without one the
// host does no health checks) and connects once it prints its port.
func startHost(name, binary string) (*languageHost, error) {
	cmd := exec.Command(binary)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: starting %s: %w", name, binary, err)
	}
	h := &languageHost{name: name, cmd: cmd, stderr: stderr}
	portLine := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		portLine <- line
	}()
	var line string
	select {
	case line = <-portLine:
	case <-time.After(hostStartTimeout):
		h.stop()
		return nil, fmt.Errorf("%s: %s printed no port within %s", name, binary, hostStartTimeout)
	}
	port, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		h.stop()
		return nil, fmt.Errorf("%s: %s printed %q, not a port; stderr: %s", name, binary, line, stderr.String())
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strconv.Itoa(port),
		grpc.WithTransportCredentials(insecure.NewCredentials()), rpcutil.GrpcChannelOptions())
	if err != nil {
		h.stop()
		return nil, err
	}
	h.conn = conn
	h.client = pulumirpc.NewLanguageRuntimeClient(conn)
	return h, nil
}

// generate asks the host for the program of one PCL file, strictly bound (as the in-process
// generators bind it), the schema coming from loaderTarget.
func (h *languageHost) generate(file, source, loaderTarget string) (map[string][]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), generateTimeout)
	defer cancel()
	resp, err := h.client.GenerateProgram(ctx, &pulumirpc.GenerateProgramRequest{
		Source:       map[string]string{file: source},
		LoaderTarget: loaderTarget,
		Strict:       true,
	})
	if err != nil {
		return nil, fmt.Errorf("%s: GenerateProgram: %w; host stderr: %s", h.name, err, h.stderr.String())
	}
	var problems []string
	for _, d := range resp.Diagnostics {
		problems = append(problems, fmt.Sprintf("%s: %s %s", d.Severity, d.Summary, d.Detail))
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s: %s", h.name, strings.Join(problems, "; "))
	}
	return resp.Source, nil
}

func (h *languageHost) stop() {
	if h.conn != nil {
		_ = h.conn.Close()
	}
	if h.cmd.Process != nil {
		_ = h.cmd.Process.Kill()
		_ = h.cmd.Wait()
	}
}

// serveLoader serves a schema loader over gRPC on loopback (what the engine hands language hosts as
// loader_target); stop with the returned function.
func serveLoader(loader schema.ReferenceLoader) (target string, stop func(), err error) {
	cancel := make(chan bool)
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancel,
		Init: func(srv *grpc.Server) error {
			codegenrpc.RegisterLoaderServer(srv, schema.NewLoaderServer(loader))
			return nil
		},
	})
	if err != nil {
		return "", nil, err
	}
	return "127.0.0.1:" + strconv.Itoa(handle.Port), func() {
		close(cancel)
		<-handle.Done
	}, nil
}
