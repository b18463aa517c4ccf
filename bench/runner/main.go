// Command runner measures dbgov side by side with curl and jq against the
// reference server on loopback, and writes the report to bench/results.md.
// It is run by `make bench` (bench/run.sh), after the binary is built.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == spawnFlag {
		if err := serveSpawns(); err != nil {
			fmt.Fprintf(os.Stderr, "bench spawner: %v\n", err)
			os.Exit(1)
		}
		return
	}
	// First, while the runner is still small (see spawn.go).
	sp, err := startSpawner()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
	bin := flag.String("bin", "bin/dbgov", "the dbgov binary to measure")
	out := flag.String("out", "bench/results.md", "where to write the report")
	runs := flag.Int("runs", 7, "measured runs of each command, after one warm-up")
	users := flag.Int("users", 50000, "users of the large batch-get")
	tables := flag.Int("tables", 5000, "tables of the large catalog")
	columns := flag.Int("columns", 20, "columns of each table of the large catalog")
	revisions := flag.Int("revisions", 10000, "revisions of the batch-create run")
	flag.Parse()
	b := &bench{bin: *bin, runs: *runs, spawn: sp}
	err = b.run(*users, *tables, *columns, *revisions)
	sp.stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
	report := b.report()
	fmt.Print(report)
	if err := os.WriteFile(*out, []byte(report), 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "bench: write %s: %v\n", *out, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "bench: report written to %s\n", *out)
}

// sample is one measured run: wall time and peak resident memory.
type sample struct {
	wall time.Duration
	rss  int64 // bytes
}

// result is the medians of a command's runs, and every run.
type result struct {
	name string
	wall time.Duration
	rss  int64
	runs []sample
}

// row is one line of the report: a measurement, its reference, the target.
type row struct {
	section, what string
	dbgov         result
	ref           *result // curl | jq, when there is one
	target        string
	met           bool
	note          string
}

type bench struct {
	spawn   *spawner
	bin     string
	runs    int
	url     string
	token   string
	tmp     string
	env     []string
	rows    []row
	details []string
	// sections are more parts of the report, each under its own heading.
	sections []string
	// idle is the peak memory of `dbgov version`: the process's own code
	// and runtime, paid by every command whatever its answer.
	idle int64
}

func (b *bench) run(users, tables, columns, revisions int) error {
	tmp, err := os.MkdirTemp("", "dbgov-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	b.tmp = tmp
	for _, tool := range []string{"curl", "jq", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s is needed (bench/run.sh installs it): %w", tool, err)
		}
	}
	serverLog := filepath.Join(tmp, "server.log")
	stop, err := b.startServer(serverLog, "--generate-users", strconv.Itoa(users), "--generate-tables", strconv.Itoa(tables), "--generate-columns", strconv.Itoa(columns))
	if err != nil {
		return err
	}
	defer stop()
	b.env = append(os.Environ(), "DBGOV_URL="+b.url, "DBGOV_TOKEN="+b.token, "DBGOV_CONFIG="+filepath.Join(tmp, "config.yaml"), "NO_COLOR=1")

	if err := b.startup(); err != nil {
		return err
	}
	if err := b.oneRequest(); err != nil {
		return err
	}
	if err := b.largeUsers(users); err != nil {
		return err
	}
	if err := b.catalogAsCode(tables, columns); err != nil {
		return err
	}
	if err := b.largeCatalog(tables, columns); err != nil {
		return err
	}
	if err := b.batchCreate(revisions, serverLog); err != nil {
		return err
	}
	return b.fleet()
}

// startServer runs the reference server with the flags given and waits for
// the URL it prints.
func (b *bench) startServer(logPath string, flags ...string) (func(), error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(b.bin, append([]string{"dev-server", "--addr", "127.0.0.1:0", "--log"}, flags...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = logf
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
		logf.Close()
	}
	found := make(chan error, 1)
	go func() {
		re := regexp.MustCompile(`export DBGOV_URL=(\S+) DBGOV_TOKEN=(\S+)`)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				b.url, b.token = m[1], m[2]
				found <- nil
				_, _ = io.Copy(io.Discard, stdout)
				return
			}
		}
		found <- errors.New("the reference server ended before printing its URL")
	}()
	select {
	case err := <-found:
		if err != nil {
			stop()
			return nil, err
		}
	case <-time.After(2 * time.Minute):
		stop()
		return nil, errors.New("the reference server did not start within 2 minutes")
	}
	return stop, nil
}

// measure runs argv (or a shell line when shell) warm-up plus b.runs times and
// returns the medians. stdin, when not empty, is a file fed to each run.
func (b *bench) measure(name string, shell bool, stdin string, argv ...string) (result, error) {
	argv = append([]string(nil), argv...)
	if shell {
		// pipefail: a curl that fails must fail the run, not feed jq nothing.
		argv = []string{"bash", "-o", "pipefail", "-c", argv[0]}
	}
	var samples []sample
	for i := 0; i <= b.runs; i++ {
		res, err := b.spawn.run(spawnRequest{Argv: argv, Env: b.env, Stdin: stdin})
		if err != nil {
			return result{}, err
		}
		if res.Err != "" {
			return result{}, fmt.Errorf("%s: %s: %s", name, res.Err, res.Stderr)
		}
		if i == 0 {
			continue // warm-up
		}
		samples = append(samples, sample{wall: res.Wall, rss: res.RSS})
	}
	return result{name: name, wall: median(samples, func(s sample) time.Duration { return s.wall }),
		rss: int64(median(samples, func(s sample) time.Duration { return time.Duration(s.rss) })), runs: samples}, nil
}

func median(samples []sample, key func(sample) time.Duration) time.Duration {
	v := make([]time.Duration, len(samples))
	for i, s := range samples {
		v[i] = key(s)
	}
	slices.Sort(v)
	return v[len(v)/2]
}

// initCost runs dbgov version with GODEBUG=inittrace=1 and sums what the
// package initialisers took, naming the heaviest.
func (b *bench) initCost() (string, error) {
	cmd := exec.Command(b.bin, "version")
	cmd.Env = append(append([]string(nil), b.env...), "GODEBUG=inittrace=1")
	cmd.Stdout = io.Discard
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("dbgov version with inittrace: %w", err)
	}
	type initLine struct {
		pkg   string
		clock float64 // ms
		bytes int64
	}
	var inits []initLine
	re := regexp.MustCompile(`^init (\S+) @\S+ ms, ([0-9.]+) ms clock, ([0-9]+) bytes`)
	for _, line := range strings.Split(stderr.String(), "\n") {
		m := re.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		clock, _ := strconv.ParseFloat(m[2], 64)
		n, _ := strconv.ParseInt(m[3], 10, 64)
		inits = append(inits, initLine{m[1], clock, n})
	}
	var clock float64
	var total int64
	for _, in := range inits {
		clock += in.clock
		total += in.bytes
	}
	slices.SortFunc(inits, func(a, b initLine) int { return cmp.Compare(b.clock, a.clock) })
	var top []string
	for _, in := range inits[:min(3, len(inits))] {
		top = append(top, fmt.Sprintf("%s %.2f ms, %s", in.pkg, in.clock, kib(in.bytes)))
	}
	return fmt.Sprintf("package init (GODEBUG=inittrace=1 dbgov version): %d packages, %.2f ms, %s allocated; heaviest: %s",
		len(inits), clock, kib(total), strings.Join(top, "; ")), nil
}

func kib(n int64) string { return fmt.Sprintf("%.0f KiB", float64(n)/1024) }

func (b *bench) startup() error {
	cost, err := b.initCost()
	if err != nil {
		return err
	}
	b.details = append(b.details, cost)
	for _, args := range [][]string{{"version"}, {"--help"}} {
		r, err := b.measure("dbgov "+strings.Join(args, " "), false, "", append([]string{b.bin}, args...)...)
		if err != nil {
			return err
		}
		b.rows = append(b.rows, row{section: "1. start-up", what: r.name, dbgov: r,
			target: "median < 10 ms", met: r.wall < 10*time.Millisecond})
		if args[0] == "version" {
			b.idle = r.rss
		}
	}
	return nil
}

func (b *bench) oneRequest() error {
	d, err := b.measure("dbgov idps list -o json", false, "", b.bin, "idps", "list", "-o", "json")
	if err != nil {
		return err
	}
	ref, err := b.measure("curl | jq .", true, "", fmt.Sprintf("curl -sf %s/v1/idps | jq .", b.url))
	if err != nil {
		return err
	}
	b.rows = append(b.rows, row{section: "2. one request", what: d.name, dbgov: d, ref: &ref,
		target: "no slower than curl \\| jq", met: d.wall <= ref.wall})
	return nil
}

// bodySize fetches a document once with curl to learn its size.
func (b *bench) bodySize(curlArgs string) (int64, error) {
	out, err := exec.Command("bash", "-o", "pipefail", "-c", "curl -sf "+curlArgs+" | wc -c").Output()
	if err != nil {
		return 0, fmt.Errorf("fetch with curl: %w", err)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err == nil && n == 0 {
		err = errors.New("curl fetched an empty body")
	}
	return n, err
}

// large measures the three output modes of one dbgov command against
// curl | jq . on the same request, with the memory and table targets.
func (b *bench) large(section, label string, size int64, rows int, stdin string, argv []string, jqExpr, curlLine string) error {
	ref, err := b.measure("curl | jq .", true, "", curlLine+" | jq .")
	if err != nil {
		return err
	}
	modes := []struct {
		name  string
		extra []string
	}{{"-o json", []string{"-o", "json"}}, {"-o table", []string{"-o", "table"}}, {"--jq", []string{"--jq", jqExpr}}}
	for _, m := range modes {
		args := append(append([]string{b.bin}, argv...), m.extra...)
		r, err := b.measure("dbgov "+label+" "+m.name, false, stdin, args...)
		if err != nil {
			return err
		}
		memOK := r.rss < 4*size
		rw := row{section: section, what: r.name, dbgov: r, target: fmt.Sprintf("peak < 4 × body (%s)", mib(4*size)), met: memOK}
		if !memOK && b.idle > 0 {
			// Say why: a small body leaves little room beside the process's
			// own memory, which every command pays.
			above := r.rss - b.idle
			rw.target += fmt.Sprintf(" (not met: %s of it is dbgov version's own; the answer's handling takes %s, %.1f× the body)",
				mib(b.idle), mib(above), float64(above)/float64(size))
		}
		switch m.name {
		case "-o json":
			rw.ref = &ref
			rw.target += "; no slower than curl \\| jq ."
			rw.met = memOK && r.wall <= ref.wall
		case "-o table":
			if rows >= 50000 {
				rw.target += fmt.Sprintf("; %d-row table < 1 s", rows)
				rw.met = memOK && r.wall < time.Second
			}
		}
		b.rows = append(b.rows, rw)
	}
	b.details = append(b.details, fmt.Sprintf("%s: body %s, %d table rows", label, mib(size), rows))
	return nil
}

func (b *bench) largeUsers(n int) error {
	names := filepath.Join(b.tmp, "names.txt")
	curlCfg := filepath.Join(b.tmp, "users.curl")
	var nb, qb strings.Builder
	qb.WriteString(b.url + "/v1/users:batchGet?")
	for i := 1; i <= n; i++ {
		email := fmt.Sprintf("user%06d@example.com", i)
		nb.WriteString(email + "\n")
		if i > 1 {
			qb.WriteByte('&')
		}
		qb.WriteString("names=users/" + strings.ReplaceAll(email, "@", "%40"))
	}
	if err := os.WriteFile(names, []byte(nb.String()), 0o600); err != nil {
		return err
	}
	cfg := fmt.Sprintf("url = \"%s\"\nheader = \"Authorization: Bearer %s\"\n", qb.String(), b.token)
	if err := os.WriteFile(curlCfg, []byte(cfg), 0o600); err != nil {
		return err
	}
	label := fmt.Sprintf("users batch-get (%d users)", n)
	curlLine := "curl -sf -K " + curlCfg
	size, err := b.bodySize("-K " + curlCfg)
	if err != nil {
		// 50,000 names make a 2 MB query, which curl 7.88 cannot send: it
		// fails to read so long a line of its config file (exit 26) and
		// refuses a request larger than 1 MB (exit 27). The reference then
		// fetches the very same body from a static loopback server: curl and
		// jq do the same work on it, without the reference server's own
		// batchGet time, which dbgov's wall time still includes.
		url, stop, body, serr := b.serveStatic(qb.String())
		if serr != nil {
			return fmt.Errorf("%v; and fetching the body to serve it: %w", err, serr)
		}
		defer stop()
		size = int64(len(body))
		curlLine = "curl -sf " + url
		b.details = append(b.details, fmt.Sprintf("%s: curl cannot send the %s query (%v); curl | jq . fetches the same %s body from a static loopback server instead, so its time leaves out the reference server's batchGet, which dbgov's includes",
			label, mib(int64(qb.Len())), err, mib(size)))
	}
	return b.large("3. large answers", label, size, n, names,
		[]string{"users", "batch-get", "-"}, ".users[].email", curlLine)
}

// serveStatic fetches url once with Go's HTTP client and serves the body it
// got from a loopback server of its own; it returns that server's URL.
func (b *bench) serveStatic(url string) (string, func(), []byte, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return "", nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+b.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", nil, nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return "", nil, nil, err
	}
	if resp.StatusCode != http.StatusOK || len(body) == 0 {
		return "", nil, nil, fmt.Errorf("HTTP %d, %d bytes", resp.StatusCode, len(body))
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // a PATCH is answered with the body too
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	}))
	return srv.URL + "/users.json", srv.Close, body, nil
}

func (b *bench) largeCatalog(tables, columns int) error {
	path := filepath.Join(b.tmp, "catalog.json")
	if err := writeCatalog(path, tables, columns); err != nil {
		return err
	}
	db := "instances/bench-pg/databases/warehouse"
	curlLine := fmt.Sprintf("curl -sf -X PATCH -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' --data-binary @%s '%s/v1/%s/catalog'", b.token, path, b.url, db)
	size, err := b.bodySize(strings.TrimPrefix(curlLine, "curl -sf "))
	if err != nil {
		return err
	}
	argv := []string{"catalog", "update", "--database", db, "-f", path}
	if err := b.large("3. large answers", fmt.Sprintf("catalog update (%d×%d)", tables, columns), size, tables*(columns+1), "",
		argv, ".schemas[].tables[].name", curlLine); err != nil {
		return err
	}
	return b.staticBuild(argv, ".schemas[].tables[].name")
}

// catalogAsCode measures catalog diff and catalog update --merge of the
// reference server's generated catalog against a file that reclassifies a
// third of its tables. The catalog is served from a static loopback server
// that keeps it as it is, so that every merge reads, reads again and
// writes, and the time is dbgov's, not the reference server's.
func (b *bench) catalogAsCode(tables, columns int) error {
	db := "instances/bench-pg/databases/warehouse"
	url, stop, data, err := b.serveStatic(b.url + "/v1/" + db + "/catalog")
	if err != nil {
		return fmt.Errorf("fetch the generated catalog: %w", err)
	}
	defer stop()
	edited := filepath.Join(b.tmp, "edited.json")
	if err := os.WriteFile(edited, bytes.ReplaceAll(data, []byte(`]},"classification":"1-1"}`), []byte(`]},"classification":"1-3"}`)), 0o600); err != nil {
		return err
	}
	size := int64(len(data))
	for _, verb := range []string{"diff", "update --merge"} {
		r, err := b.measure("catalog "+verb, true, "", fmt.Sprintf("DBGOV_URL=%s %s catalog %s --database %s -f %s",
			strings.TrimSuffix(url, "/users.json"), b.bin, verb, db, edited))
		if err != nil {
			return err
		}
		var walls []time.Duration
		var peaks []int64
		for _, s := range r.runs {
			walls, peaks = append(walls, s.wall), append(peaks, s.rss)
		}
		b.rows = append(b.rows, row{section: "5. catalog as code", what: fmt.Sprintf("dbgov %s (%d×%d, %s)", r.name, tables, columns, mib(size)), dbgov: r,
			target: fmt.Sprintf("every run < 1 s and peak < 6 × catalog (%s): wall %s–%s, peak %s–%s", mib(6*size),
				ms(slices.Min(walls)), ms(slices.Max(walls)), mib(slices.Min(peaks)), mib(slices.Max(peaks))),
			met: slices.Max(walls) < time.Second && slices.Max(peaks) < 6*size})
	}
	return nil
}

// staticBuild measures the peak memory of argv's three output modes again
// with dbgov built without cgo. A binary linked against the C library maps
// it and its loader too; for a 5 MB answer, that fixed cost is a fair part
// of the 4 × body budget.
func (b *bench) staticBuild(argv []string, jqExpr string) error {
	bin := filepath.Join(b.tmp, "dbgov-static")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, "./cmd/dbgov")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.details = append(b.details, fmt.Sprintf("static build (CGO_ENABLED=0) not measured: %v: %s", err, strings.TrimSpace(string(out))))
		return nil
	}
	var got []string
	for _, m := range []struct {
		name  string
		extra []string
	}{{"-o json", []string{"-o", "json"}}, {"-o table", []string{"-o", "table"}}, {"--jq", []string{"--jq", jqExpr}}} {
		r, err := b.measure(m.name, false, "", append(append([]string{bin}, argv...), m.extra...)...)
		if err != nil {
			return err
		}
		got = append(got, fmt.Sprintf("%s %s", m.name, mib(r.rss)))
	}
	b.details = append(b.details, fmt.Sprintf("catalog update built with CGO_ENABLED=0 (static, no C library mapped): peak RSS %s", strings.Join(got, ", ")))
	return nil
}

// writeCatalog writes a catalog of tables × columns for catalog update.
func writeCatalog(path string, tables, columns int) error {
	type column struct {
		Name           string            `json:"name"`
		SemanticType   string            `json:"semanticType,omitempty"`
		Classification string            `json:"classification,omitempty"`
		Labels         map[string]string `json:"labels,omitempty"`
	}
	type table struct {
		Name           string `json:"name"`
		Classification string `json:"classification,omitempty"`
		Columns        struct {
			Columns []column `json:"columns"`
		} `json:"columns"`
	}
	ts := make([]table, tables)
	for i := range ts {
		ts[i].Name = fmt.Sprintf("table_%05d", i+1)
		ts[i].Classification = []string{"1", "1-1", "2", ""}[i%4]
		for j := 0; j < columns; j++ {
			c := column{Name: fmt.Sprintf("column_%02d", j+1)}
			if j%3 == 0 {
				c.SemanticType = "default"
				c.Labels = map[string]string{"owner": "data-platform", "tier": strconv.Itoa(j % 3)}
			}
			if j%4 == 1 {
				c.Classification = "1-2"
			}
			ts[i].Columns.Columns = append(ts[i].Columns.Columns, c)
		}
	}
	doc := map[string]any{"name": "instances/bench-pg/databases/warehouse/catalog", "schemas": []any{map[string]any{"name": "public", "tables": ts}}}
	data, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o600)
}

// batchCreate sends n revisions in batches of 100 and compares the total
// with the time the server spent in its handlers, read from its log.
func (b *bench) batchCreate(n int, serverLog string) error {
	path := filepath.Join(b.tmp, "revisions.json")
	var sb strings.Builder
	sb.WriteString("[")
	stamp := time.Now().UnixNano()
	for i := 1; i <= n; i++ {
		if i > 1 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"version":"%d.%d","type":"VERSIONED","file":"migrations/%05d.sql","sheet":"projects/orders/sheets/101"}`, stamp, i, i)
	}
	sb.WriteString("]")
	if err := os.WriteFile(path, []byte(sb.String()), 0o600); err != nil {
		return err
	}
	before, _ := os.ReadFile(serverLog)
	res, err := b.spawn.run(spawnRequest{Env: b.env, Argv: []string{b.bin, "revisions", "batch-create", "--instance", "prod-pg", "--database", "orders",
		"-f", path, "--batch-size", "100", "-o", "json"}})
	if err != nil {
		return err
	}
	if res.Err != "" {
		return fmt.Errorf("revisions batch-create: %s: %s", res.Err, res.Stderr)
	}
	total, rss := res.Wall, res.RSS
	time.Sleep(100 * time.Millisecond)
	after, _ := os.ReadFile(serverLog)
	server, batches := serverTime(string(after[len(before):]), ":batchCreate")
	perBatch := time.Duration(0)
	if batches > 0 {
		perBatch = (total - server) / time.Duration(batches)
	}
	b.rows = append(b.rows, row{section: "4. batch create", what: fmt.Sprintf("revisions batch-create (%d in batches of 100)", n),
		dbgov: result{wall: total, rss: rss}, target: "report",
		met:  batches == (n+99)/100,
		note: fmt.Sprintf("%d requests; server's own time %s; dbgov + loopback per batch %s", batches, ms(server), ms(perBatch))})
	return nil
}

// serverTime sums the durations the reference server logged for requests
// whose line holds marker, and counts them.
func serverTime(log, marker string) (time.Duration, int) {
	var total time.Duration
	n := 0
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, marker) {
			continue
		}
		for _, f := range strings.Fields(line) {
			if d, err := time.ParseDuration(f); err == nil {
				total += d
				n++
				break
			}
		}
	}
	return total, n
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func (b *bench) report() string {
	var sb strings.Builder
	sb.WriteString("# dbgov benchmark report\n\n")
	fmt.Fprintf(&sb, "Medians of %d runs after one warm-up, against the reference server on loopback. The machine is shared and noisy: read the ratios.\n\n", b.runs)
	sb.WriteString("## Machine\n\n")
	for _, d := range b.machine() {
		fmt.Fprintf(&sb, "- %s\n", d)
	}
	for _, d := range b.details {
		fmt.Fprintf(&sb, "- %s\n", d)
	}
	sb.WriteString("\n## Results\n\n")
	sb.WriteString("| measurement | dbgov wall | dbgov peak RSS | curl \\| jq wall | curl \\| jq peak RSS | ratio | target | met |\n")
	sb.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, r := range b.rows {
		refWall, refRSS, ratio := "", "", ""
		if r.ref != nil {
			refWall, refRSS = ms(r.ref.wall), mib(r.ref.rss)
			ratio = fmt.Sprintf("%.2f×", float64(r.dbgov.wall)/float64(r.ref.wall))
		}
		met := "yes"
		if !r.met {
			met = "**no**"
		}
		target := r.target
		if r.note != "" {
			target = r.note
		}
		fmt.Fprintf(&sb, "| %s: %s | %s | %s | %s | %s | %s | %s | %s |\n", r.section, r.what, ms(r.dbgov.wall), mib(r.dbgov.rss), refWall, refRSS, ratio, target, met)
	}
	sb.WriteString("\nratio = dbgov wall time / curl | jq wall time (below 1 is faster).\n")
	for _, s := range b.sections {
		sb.WriteString(s)
	}
	return sb.String()
}

func (b *bench) machine() []string {
	var out []string
	if cpu := firstMatch("/proc/cpuinfo", "model name"); cpu != "" {
		out = append(out, "CPU: "+cpu)
	}
	out = append(out, fmt.Sprintf("cores: %d, %s/%s, %s", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version()))
	if mem := firstMatch("/proc/meminfo", "MemTotal"); mem != "" {
		out = append(out, "memory: "+mem)
	}
	if st, err := os.Stat(b.bin); err == nil {
		sz := st.Size()
		verdict := "met"
		if sz >= 20<<20 {
			verdict = "NOT met"
		}
		out = append(out, fmt.Sprintf("binary: %s stripped (-s -w): %s (target < 20 MiB: %s)", b.bin, mib(sz), verdict))
	}
	for _, tool := range [][]string{{"curl", "--version"}, {"jq", "--version"}} {
		if v, err := exec.CommandContext(context.Background(), tool[0], tool[1]).Output(); err == nil {
			out = append(out, strings.SplitN(strings.TrimSpace(string(v)), "\n", 2)[0])
		}
	}
	return out
}

func firstMatch(path, key string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, key) {
			if _, v, ok := strings.Cut(line, ":"); ok {
				return strings.TrimSpace(v)
			}
		}
	}
	return ""
}
