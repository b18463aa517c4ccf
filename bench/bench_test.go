// Package bench measures dbgov as a user runs it: each benchmark runs the
// built binary, a whole process per run, against the reference server on
// loopback, and reports its wall time (ns/op), its peak RSS (peak-MiB, the
// highest of the runs) and the memory target of the scenario (target-MiB:
// 16 MiB plus 3× the largest answer or file), which every run should meet.
// Where curl and jq can do the same, they are measured beside dbgov.
// `make bench` runs them; bench/results.md reads their figures.
package bench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dbgov/dbgov/internal/buildtest"
)

// measureEnv makes the test binary run the command of its arguments and
// print its wall time and peak RSS. Go starts a command with vfork, and
// Linux counts the memory a child shares with its parent until exec in the
// child's peak RSS: started from a fresh small process rather than from the
// benchmark, which holds large bodies, each command's peak is its own.
const measureEnv = "DBGOV_BENCH_MEASURE"

func TestMain(m *testing.M) {
	if os.Getenv(measureEnv) != "" {
		os.Exit(measureOnce(os.Args[1:]))
	}
	code := m.Run()
	if fx != nil {
		fx.close()
	}
	os.Exit(code)
}

// measureOnce runs argv, its standard input this process's, its output
// discarded, and prints its wall time in nanoseconds and peak RSS in KiB.
func measureOnce(argv []string) int {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stderr = os.Stdin, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", strings.Join(argv, " "), err)
		return 1
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux
	if runtime.GOOS == "darwin" {
		peak /= 1024 // bytes there
	}
	fmt.Println(wall.Nanoseconds(), peak)
	return 0
}

// The users, tables and columns of the generated data, and the databases
// of the long list.
const (
	users     = 50000
	tables    = 5000
	columns   = 20
	revisions = 10000
	databases = 50000
)

// fixture is what every benchmark shares, made once: the binary, the
// reference servers and the files the commands read.
type fixture struct {
	dir, bin             string
	mainURL, token       string         // the server of the generated users, catalog and databases
	fleetURL, fleetToken string         // a server of 1,000 databases answering after 20 ms
	env                  []string       // the main server's URL and token, and a config of the run's own
	list                 []string       // the URL and token of a server of 50,000 databases
	usersURL             string         // the users answer, served whole
	catalogURL           string         // the generated catalog, served to every GET and PATCH
	size                 map[string]int // the largest answer or file of each scenario
	servers              []func()
	statics              []*httptest.Server
}

var (
	fxOnce sync.Once
	fx     *fixture
	fxErr  error
)

// setup returns the fixture, made on first use.
func setup(b *testing.B) *fixture {
	b.Helper()
	fxOnce.Do(func() {
		fx = &fixture{size: map[string]int{}}
		if fxErr = fx.make(); fxErr == nil { // a warm-up: the binary read once
			fxErr = exec.Command(fx.bin, "version").Run()
		}
		if fxErr != nil {
			fx.close()
			fx = nil
		}
	})
	if fxErr != nil {
		b.Fatal(fxErr)
	}
	return fx
}

func (f *fixture) path(name string) string { return filepath.Join(f.dir, name) }

func (f *fixture) make() (err error) {
	if f.dir, err = os.MkdirTemp("", "dbgov-bench-"); err != nil {
		return err
	}
	if f.bin, err = buildtest.Dbgov(f.dir, ""); err != nil {
		return err
	}
	if f.mainURL, f.token, err = f.startServer("--generate-users", fmt.Sprint(users), "--generate-tables", fmt.Sprint(tables),
		"--generate-columns", fmt.Sprint(columns), "--generate-databases", "500"); err != nil {
		return err
	}
	f.env = append(os.Environ(), "DBGOV_URL="+f.mainURL, "DBGOV_TOKEN="+f.token, "DBGOV_CONFIG="+f.path("config.yaml"), "NO_COLOR=1")
	if f.fleetURL, f.fleetToken, err = f.startServer("--generate-databases", "1000", "--latency", "20ms"); err != nil {
		return err
	}
	listURL, listToken, err := f.startServer("--generate-databases", fmt.Sprint(databases))
	if err != nil {
		return err
	}
	f.list = []string{"DBGOV_URL=" + listURL, "DBGOV_TOKEN=" + listToken}
	if _, page, err := f.serve(http.MethodGet, listURL+"/v1/instances/fleet-pg/databases?pageSize=1000", listToken, nil); err != nil {
		return fmt.Errorf("fetch a page of databases: %w", err)
	} else {
		f.size["page"] = len(page)
	}

	// users batch-get reads the names from a file; curl gets the same body
	// from a static copy, as it cannot send a query of 50,000 names.
	var names, query strings.Builder
	for i := 1; i <= users; i++ {
		fmt.Fprintf(&names, "user%06d@example.com\n", i)
		fmt.Fprintf(&query, "&names=users/user%06d%%40example.com", i)
	}
	usersSrv, usersBody, err := f.serve(http.MethodGet, f.mainURL+"/v1/users:batchGet?"+query.String()[1:], f.token, nil)
	if err != nil {
		return fmt.Errorf("fetch the users: %w", err)
	}
	f.usersURL, f.size["users"] = usersSrv.URL, len(usersBody)

	// catalog update sends a catalog written here; catalog diff and update
	// --merge compare the generated one, served from a static copy so that
	// every merge writes, against a file reclassifying a third of its tables.
	db := "instances/bench-pg/databases/warehouse"
	catalogSrv, generated, err := f.serve(http.MethodGet, f.mainURL+"/v1/"+db+"/catalog", f.token, nil)
	if err != nil {
		return fmt.Errorf("fetch the generated catalog: %w", err)
	}
	f.catalogURL, f.size["generated"] = catalogSrv.URL, len(generated)
	catalog := writeCatalog(tables, columns)
	patchSrv, answer, err := f.serve(http.MethodPatch, f.mainURL+"/v1/"+db+"/catalog", f.token, catalog)
	if err != nil {
		return fmt.Errorf("update the catalog: %w", err)
	}
	patchSrv.Close()
	f.size["update"] = max(len(catalog), len(answer))

	revs := make([]string, revisions)
	for i := range revs {
		revs[i] = fmt.Sprintf(`{"version":"1.%d","type":"VERSIONED","file":"migrations/%05d.sql","release":"releases/bench","sheet":"projects/orders/sheets/16dc368a89b428b2485484313ba67a3912ca03f2b2b42429174a4f8b3dc84e44"}`, i+1, i+1)
	}
	var dbs, ids strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&dbs, "fleet-pg/db%04d\n", i) // 16 bytes a line
		fmt.Fprintf(&ids, "db%04d\n", i)          // 7 bytes a line
	}
	files := map[string][]byte{
		"names":          []byte(names.String()),
		"catalog.json":   catalog,
		"edited.json":    bytes.ReplaceAll(generated, []byte(`]},"classification":"1-1"}`), []byte(`]},"classification":"1-3"}`)),
		"revisions.json": []byte("[" + strings.Join(revs, ",") + "]"),
		"100":            []byte(dbs.String()[:16*100]),
		"500":            []byte(dbs.String()[:16*500]),
		"1000":           []byte(dbs.String()[:16*1000]),
		"ids":            []byte(ids.String()[:7*500]),
	}
	for name, data := range files {
		if err := os.WriteFile(f.path(name), data, 0o600); err != nil {
			return err
		}
		f.size[name] = len(data)
	}
	return nil
}

// close stops the servers and removes the files.
func (f *fixture) close() {
	for _, s := range f.statics {
		s.Close()
	}
	for _, stop := range f.servers {
		stop()
	}
	if f.dir != "" {
		os.RemoveAll(f.dir)
	}
}

// startServer runs the reference server with flags and returns its URL and
// admin token once it has printed them; it logs each request to server.log.
func (f *fixture) startServer(flags ...string) (url, token string, err error) {
	logf, err := os.OpenFile(f.path("server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return "", "", err
	}
	cmd := exec.Command(f.bin, append([]string{"dev-server", "--addr", "127.0.0.1:0", "--log"}, flags...)...)
	cmd.Stderr = logf
	stdout, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		logf.Close()
		return "", "", err
	}
	f.servers = append(f.servers, func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
		logf.Close()
	})
	for sc := bufio.NewScanner(stdout); sc.Scan(); {
		if _, rest, ok := strings.Cut(sc.Text(), "export DBGOV_URL="); ok {
			url, token, _ = strings.Cut(rest, " DBGOV_TOKEN=")
			go func() { _, _ = io.Copy(io.Discard, stdout) }()
			return url, token, nil
		}
	}
	return "", "", errors.New("the reference server ended before printing its URL")
}

// serve sends one request with the admin token and serves its answer from a
// loopback server of its own, whatever the path and method.
func (f *fixture) serve(method, url, token string, body []byte) (*httptest.Server, []byte, error) {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err == nil && (resp.StatusCode != http.StatusOK || len(answer) == 0) {
		err = fmt.Errorf("HTTP %d, %d bytes", resp.StatusCode, len(answer))
	}
	if err != nil {
		return nil, nil, err
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // a PATCH is answered with the catalog too
		http.ServeContent(w, r, "answer.json", time.Time{}, bytes.NewReader(answer))
	}))
	f.statics = append(f.statics, srv)
	return srv, answer, nil
}

// writeCatalog returns a catalog of tables × columns for catalog update.
func writeCatalog(tables, columns int) []byte {
	var sb strings.Builder
	sb.WriteString(`{"name":"instances/bench-pg/databases/warehouse/catalog","schemas":[{"name":"public","tables":[`)
	for i := range tables {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"name":"table_%05d"`, i+1)
		if c := []string{"1", "1-1", "2", ""}[i%4]; c != "" {
			sb.WriteString(`,"classification":"` + c + `"`)
		}
		sb.WriteString(`,"columns":{"columns":[`)
		for j := range columns {
			if j > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"name":"column_%02d"`, j+1)
			if j%3 == 0 {
				sb.WriteString(`,"semanticType":"default"`)
			}
			if j%4 == 1 {
				sb.WriteString(`,"classification":"1-2"`)
			}
			if j%3 == 0 {
				sb.WriteString(`,"labels":{"owner":"data-platform","tier":"0"}`)
			}
			sb.WriteByte('}')
		}
		sb.WriteString("]}}")
	}
	sb.WriteString("]}]}")
	return []byte(sb.String())
}

// scenario is one dbgov command, and the curl and jq line doing the same
// when there is one.
type scenario struct {
	name  string
	args  []string           // dbgov's arguments
	stdin string             // the file fed to standard input, if any
	env   []string           // more environment, such as another server's URL
	size  int                // the largest answer or file, for the memory target
	ref   string             // the shell line of curl and jq, if any
	prep  func()             // before each run
	then  func(b *testing.B) // after each run, untimed
}

// run measures s in a sub-benchmark "dbgov" and, when curl and jq are
// there, its reference in "curl-jq".
func (f *fixture) run(b *testing.B, s scenario) {
	b.Run(s.name, func(b *testing.B) {
		if s.ref == "" {
			f.measure(b, f.bin, s)
			return
		}
		b.Run("dbgov", func(b *testing.B) { f.measure(b, f.bin, s) })
		b.Run("curl-jq", func(b *testing.B) {
			for _, tool := range []string{"bash", "curl", "jq", "xargs"} {
				if _, err := exec.LookPath(tool); err != nil {
					b.Skipf("%s is not installed", tool)
				}
			}
			// pipefail: a curl that fails must fail the run, not feed jq nothing.
			f.measure(b, "bash", scenario{name: s.name + " with curl", args: []string{"-o", "pipefail", "-c", s.ref}, size: -1})
		})
	})
}

// measure runs program with the arguments of s b.N times, each from a fresh
// measuring process, and reports the mean wall time as ns/op, the highest
// peak RSS of the runs, and the memory target of s unless its size is -1.
func (f *fixture) measure(b *testing.B, program string, s scenario) {
	var wall time.Duration
	var peak float64
	for range b.N {
		w, p := f.once(b, program, s)
		wall, peak = wall+w, max(peak, p)
	}
	b.ReportMetric(float64(wall.Nanoseconds())/float64(b.N), "ns/op")
	b.ReportMetric(peak, "peak-MiB")
	if s.size >= 0 {
		b.ReportMetric(16+3*float64(s.size)/(1<<20), "target-MiB")
	}
}

// once runs program with the arguments of s from a measuring process, and
// returns its wall time and its peak RSS in MiB.
func (f *fixture) once(b *testing.B, program string, s scenario) (time.Duration, float64) {
	if s.prep != nil {
		s.prep()
	}
	cmd := exec.Command(os.Args[0], append([]string{program}, s.args...)...)
	cmd.Env = slices.Concat(f.env, s.env, []string{measureEnv + "=1"})
	if s.stdin != "" {
		in, err := os.Open(s.stdin)
		if err != nil {
			b.Fatal(err)
		}
		defer in.Close()
		cmd.Stdin = in
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ns, kib int64
	if err == nil {
		_, err = fmt.Sscan(string(out), &ns, &kib)
	}
	if err != nil {
		b.Fatalf("%s: %v: %s", s.name, err, bytes.TrimSpace(stderr.Bytes()))
	}
	if s.then != nil {
		s.then(b)
	}
	return time.Duration(ns), float64(kib) / 1024
}
