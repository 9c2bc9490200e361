// Package config reads the host's configuration from flags and CDA_* environment
// variables (a flag given on the command line wins over its variable) and prints it
// with --help.
package config

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/router"
)

// Config is the host's configuration.
type Config struct {
	Snapshots string
	Addr      string
	Engine    string
	// Bodies is where the wasm engine reads item bodies: "memory" (each file read whole
	// once by the host) or "file" (only its index part; bodies read from the file).
	Bodies      string
	Module      string
	Instances   int
	CallTimeout time.Duration

	// MaxConnections bounds open connections; MaxInFlightPerInstance, times the
	// engine's instances, bounds requests inside the engine; QueueTimeout bounds the
	// wait for a free wasm instance and ReplaceBusyAfter how long one request may hold
	// one before a fresh instance takes its place.
	MaxConnections         int
	MaxInFlightPerInstance int
	QueueTimeout           time.Duration
	ReplaceBusyAfter       time.Duration

	// Router holds Cache-Control, the request limits and the preview tokens.
	Router            router.Options
	PreviewTokensFile string

	Compress         bool
	CompressMinBytes int

	// AnswerCacheBytes bounds the memory of recent answers kept for requests asked
	// again; zero turns the cache off.
	AnswerCacheBytes int64

	Watch bool
	Poll  time.Duration

	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int
	ShutdownTimeout   time.Duration

	LogLevel  string
	LogFormat string
	AccessLog bool
	Metrics   bool

	// Web serves the playground, GraphiQL, the API reference and /openapi.json.
	Web bool
}

// EnvName is the environment variable of a flag: CDA_ and the name in upper case with
// dashes as underscores.
func EnvName(flagName string) string {
	return "CDA_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// ErrHelp is returned by Parse for -h / --help, after printing the usage.
var ErrHelp = flag.ErrHelp

// tokenFlag collects ENV=TOKEN values into the router's preview tokens. Its String
// never shows a token.
type tokenFlag struct{ opts *router.Options }

func (f tokenFlag) String() string { return "" }

func (f tokenFlag) Set(v string) error {
	for _, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		env, token, ok := strings.Cut(item, "=")
		env, token = strings.TrimSpace(env), strings.TrimSpace(token)
		if !ok || env == "" || token == "" {
			return errors.New("want ENV=TOKEN")
		}
		if f.opts.PreviewTokens == nil {
			f.opts.PreviewTokens = map[string]string{}
		}
		f.opts.PreviewTokens[env] = token
	}
	return nil
}

// secret marks flags whose values must never be printed.
var secret = map[string]bool{"preview-token": true}

// Parse reads args (without the program name) and the environment through getenv.
// Usage goes to out on --help (returning ErrHelp) and on errors.
func Parse(args []string, getenv func(string) string, out io.Writer) (Config, error) {
	var c Config
	fs := flag.NewFlagSet("host", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.Snapshots, "snapshots", "", "directory of *.snap files to serve (required); watched for changes")
	fs.StringVar(&c.Addr, "addr", "127.0.0.1:8080", "listen address")
	fs.StringVar(&c.Engine, "engine", "wasm", "engine: wasm (the module in wazero) or native")
	fs.StringVar(&c.Bodies, "bodies", "memory", "where the wasm engine reads item bodies: memory (the host reads each snapshot file whole, once; every instance holds only its index part) or file (the host verifies each file without keeping it in its memory; every instance reads the index part from the file and item bodies by range as requests need them: the least memory, for snapshot files that are replaced by renaming a new file over them, never rewritten in place)")
	fs.StringVar(&c.Module, "module", "", "wasm module file (default: the embedded module)")
	fs.IntVar(&c.Instances, "instances", 0, "wasm instances (default GOMAXPROCS)")
	fs.DurationVar(&c.CallTimeout, "call-timeout", 0, "watchdog on each call into a wasm instance, e.g. 5s (default off: the engine's work budget already ends a request after about 1 s of work)")
	fs.IntVar(&c.MaxConnections, "max-connections", 4096, "most connections open at once; past it a new connection gets 503 with Retry-After and is closed (0: no limit)")
	fs.IntVar(&c.MaxInFlightPerInstance, "max-inflight-per-instance", 64, "most requests answering or waiting per engine instance (--instances, GOMAXPROCS for native); past it a request gets 503 with Retry-After (0: no limit)")
	fs.DurationVar(&c.QueueTimeout, "queue-timeout", 2*time.Second, "longest wait for a free wasm instance before answering 503 with Retry-After")
	fs.DurationVar(&c.ReplaceBusyAfter, "replace-busy-after", 3*time.Second, "a wasm instance still answering one request after this is replaced by a fresh one for the next requests (closed when its request ends)")
	fs.StringVar(&c.Router.CacheControl, "cache-control", "public, max-age=60", "Cache-Control of published environments' 200s; preview ones always send private, no-store")
	fs.Var(tokenFlag{&c.Router}, "preview-token", "ENV=TOKEN: access token of preview environment ENV; repeatable, comma-separated in the variable")
	fs.StringVar(&c.PreviewTokensFile, "preview-tokens-file", "", "file of ENV=TOKEN lines (# comments) with preview access tokens")
	fs.IntVar(&c.Router.MaxBodyBytes, "max-body-bytes", edge.DefaultMaxBodyBytes, "largest request body (413 above)")
	fs.IntVar(&c.Router.MaxURLBytes, "max-url-bytes", edge.DefaultMaxURLBytes, "longest request path and query (414 above)")
	fs.IntVar(&c.Router.MaxResponseBytes, "max-response-bytes", edge.DefaultMaxResponseBytes, "largest answer body; a request whose answer would be larger gets 400 too_complex naming the limit")
	fs.IntVar(&c.MaxHeaderBytes, "max-header-bytes", 64<<10, "largest request line and headers (431 above); keep above --max-url-bytes")
	fs.BoolVar(&c.Compress, "compress", true, "compress answers with zstd or gzip when the client accepts them")
	fs.IntVar(&c.CompressMinBytes, "compress-min-bytes", 1024, "smallest body worth compressing")
	fs.Int64Var(&c.AnswerCacheBytes, "answer-cache-bytes", 64<<20, "memory for recent answers, served again without evaluating while the snapshots stay the same (emptied on every reload; never preview answers); 0 turns it off")
	fs.BoolVar(&c.Watch, "watch", true, "watch the snapshot folder and reload changed snapshots (SIGHUP always rescans)")
	fs.DurationVar(&c.Poll, "poll", 0, "also rescan the snapshot folder at this interval (for file systems without change events)")
	fs.DurationVar(&c.ReadHeaderTimeout, "read-header-timeout", 5*time.Second, "time to read a request's headers")
	fs.DurationVar(&c.ReadTimeout, "read-timeout", 30*time.Second, "time to read a whole request")
	fs.DurationVar(&c.WriteTimeout, "write-timeout", 30*time.Second, "time from the end of the request headers to the end of the answer")
	fs.DurationVar(&c.IdleTimeout, "idle-timeout", 120*time.Second, "how long an idle keep-alive connection stays open")
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", 15*time.Second, "on SIGTERM/SIGINT, how long requests in flight may take to finish")
	fs.StringVar(&c.LogLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&c.LogFormat, "log-format", "json", "log format: json or text")
	fs.BoolVar(&c.AccessLog, "access-log", true, "log every request (id, environment, route, status, bytes, duration)")
	fs.BoolVar(&c.Metrics, "metrics", true, "serve Prometheus metrics at /metrics")
	fs.BoolVar(&c.Web, "web", true, "serve the playground at / (also /playground), GraphiQL at /graphiql, the API reference at /docs and /openapi.json; the playground can run the module in the browser, so the module and published snapshots are served under /web/")

	usage := func() { printUsage(out, fs) }
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if err != nil {
			return
		}
		if v := getenv(EnvName(f.Name)); v != "" {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s: %w", EnvName(f.Name), e)
			}
		}
	})
	if err != nil {
		usage()
		return c, err
	}
	if err := fs.Parse(args); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(out, err)
		}
		usage()
		return c, err
	}
	if fs.NArg() > 0 {
		usage()
		return c, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if c.PreviewTokensFile != "" {
		if err := readTokens(c.PreviewTokensFile, tokenFlag{&c.Router}); err != nil {
			return c, err
		}
	}
	if c.Snapshots == "" {
		usage()
		return c, errors.New("--snapshots DIR (or CDA_SNAPSHOTS) is required")
	}
	return c, nil
}

// readTokens reads ENV=TOKEN lines; blank lines and # comments are skipped.
func readTokens(path string, into tokenFlag) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read preview tokens: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := into.Set(line); err != nil {
			// The line holds a secret: name only the file and line.
			return fmt.Errorf("read preview tokens: %s line %d: %w", path, n, err)
		}
	}
	return nil
}

func printUsage(out io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(out, `Usage: host --snapshots DIR [flags]

Serves every *.snap file of DIR over HTTP: the API under /cda/, and /healthz, /readyz
and /metrics. Every flag can also be set by its environment variable; a flag on the
command line wins. SIGHUP rescans the snapshot folder; SIGTERM/SIGINT shut down
gracefully. 'host --version' prints the version.

`)
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	sort.Strings(names)
	for _, name := range names {
		f := fs.Lookup(name)
		typ, help := flag.UnquoteUsage(f)
		fmt.Fprintf(out, "  --%s %s  (%s)\n      %s", name, typ, EnvName(name), help)
		if !secret[name] && f.DefValue != "" && f.DefValue != "0" && f.DefValue != "0s" {
			fmt.Fprintf(out, " (default %q)", f.DefValue)
		}
		fmt.Fprintln(out)
	}
}
