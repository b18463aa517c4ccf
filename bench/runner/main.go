// Command runner measures dbgov side by side with curl and jq against the
// reference server on loopback, and writes the report to bench/results.md.
// It is run by `make bench` (bench/run.sh), after the binary is built.
package main

import (
	"bufio"
	"bytes"
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
	"strings"
	"syscall"
	"time"
)

// measureFlag makes the runner's binary run one command and print its wall
// time and peak RSS. Go starts a command with vfork, and Linux counts the
// memory the child shares with its parent until exec in the child's peak RSS:
// started from a fresh small process rather than from the runner, which holds
// the large bodies, each command's peak is its own.
const measureFlag = "-measure"

func main() {
	if len(os.Args) > 3 && os.Args[1] == measureFlag {
		os.Exit(measureOnce(os.Args[2], os.Args[3:]))
	}
	b := &bench{}
	flag.StringVar(&b.bin, "bin", "bin/dbgov", "the dbgov binary to measure")
	out := flag.String("out", "bench/results.md", "where to write the report")
	flag.IntVar(&b.runs, "runs", 7, "measured runs of each command, after one warm-up")
	users := flag.Int("users", 50000, "users of the large batch-get")
	tables := flag.Int("tables", 5000, "tables of the large catalog")
	columns := flag.Int("columns", 20, "columns of each table of the large catalog")
	revisions := flag.Int("revisions", 10000, "revisions of the batch-create run")
	databases := flag.Int("databases", 50000, "databases of the long list")
	only := flag.String("only", "", "measure only the cases whose section: name matches this `regexp`")
	flag.Parse()
	var err error
	if b.only, err = regexp.Compile(*only); err != nil {
		fmt.Fprintf(os.Stderr, "bench: -only: %v\n", err)
		os.Exit(2)
	}
	err = b.run(*users, *tables, *columns, *revisions, *databases)
	if err == nil {
		err = os.WriteFile(*out, []byte(b.report()), 0o644)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "bench: report written to %s\n", *out)
}

// measureOnce runs argv, fed the file stdin unless it is "", and prints its
// wall time in nanoseconds and its peak RSS in bytes.
func measureOnce(stdin string, argv []string) int {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", strings.Join(argv, " "), err)
		return 1
	}
	fmt.Println(wall.Nanoseconds(), cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss*1024)
	return 0
}

type bench struct {
	bin, self, tmp string
	runs           int
	only           *regexp.Regexp
	env            []string
	notes          []string
	rows           []row
}

// benchCase is one dbgov command measured run by run, beside the reference
// command doing the same when there is one, with its targets.
type benchCase struct {
	section, name string
	args          []string // dbgov's arguments
	stdin         string   // a file fed to dbgov
	env           []string // more environment, such as another server's URL
	ref, refName  string   // the reference's shell line and name
	wall, rss     float64  // every run under this many seconds and MiB, when not 0
	wallNote      string
	rssNote       string
	prep          func(run int)              // before each run, the warm-up's 0
	then          func(wall []float64) error // after the runs, given dbgov's wall times
}

// row is one line of the report: the value of every run, and its target.
type row struct {
	section, what string
	runs          []float64
	unit          string  // "s", "MiB" or "×"
	limit         float64 // every run under it (at most it for a ratio), when not 0
	note          string
}

func (b *bench) run(users, tables, columns, revisions, databases int) (err error) {
	for _, tool := range []string{"curl", "jq", "bash", "xargs"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s is needed (bench/run.sh installs it): %w", tool, err)
		}
	}
	if b.self, err = os.Executable(); err != nil {
		return err
	}
	if b.tmp, err = os.MkdirTemp("", "dbgov-bench-"); err != nil {
		return err
	}
	defer os.RemoveAll(b.tmp)
	tmp := func(name string) string { return filepath.Join(b.tmp, name) }
	url, token, stop, err := b.startServer(tmp("server.log"), "--generate-users", fmt.Sprint(users),
		"--generate-tables", fmt.Sprint(tables), "--generate-columns", fmt.Sprint(columns), "--generate-databases", fmt.Sprint(b.runs+1))
	if err != nil {
		return err
	}
	defer stop()
	b.env = append(os.Environ(), "DBGOV_URL="+url, "DBGOV_TOKEN="+token, "DBGOV_CONFIG="+tmp("config.yaml"), "NO_COLOR=1")
	fleetURL, fleetToken, stopFleet, err := b.startServer(tmp("fleet.log"), "--generate-databases", "1000", "--latency", "20ms")
	if err != nil {
		return err
	}
	defer stopFleet()

	// users batch-get reads the names from a file; curl gets the same body
	// from a static copy, as it cannot send a query of 50,000 names.
	var names, query strings.Builder
	for i := 1; i <= users; i++ {
		fmt.Fprintf(&names, "user%06d@example.com\n", i)
		fmt.Fprintf(&query, "&names=users/user%06d%%40example.com", i)
	}
	usersSrv, usersBody, err := serve(http.MethodGet, url+"/v1/users:batchGet?"+query.String()[1:], token, nil)
	if err != nil {
		return fmt.Errorf("fetch the users: %w", err)
	}
	defer usersSrv.Close()
	b.notes = append(b.notes, fmt.Sprintf("users batch-get: curl cannot send the %s query of %d names, so curl | jq . fetches the same body from a static loopback server: its time leaves out the reference server's batchGet, which dbgov's includes", mib(query.Len()), users))

	// catalog update sends a catalog written here; catalog diff and update
	// --merge compare the generated one, served from a static copy so that
	// every merge writes, against a file reclassifying a third of its tables.
	db := "instances/bench-pg/databases/warehouse"
	catalogSrv, generated, err := serve(http.MethodGet, url+"/v1/"+db+"/catalog", token, nil)
	if err != nil {
		return fmt.Errorf("fetch the generated catalog: %w", err)
	}
	defer catalogSrv.Close()
	catalog := writeCatalog(tables, columns)
	patchSrv, answer, err := serve(http.MethodPatch, url+"/v1/"+db+"/catalog", token, catalog)
	if err != nil {
		return fmt.Errorf("update the catalog: %w", err)
	}
	patchSrv.Close()

	batches := (revisions + 99) / 100
	revs := make([]string, revisions)
	for i := range revs {
		revs[i] = fmt.Sprintf(`{"version":"1.%d","type":"VERSIONED","file":"migrations/%05d.sql","sheet":"projects/orders/sheets/101"}`, i+1, i+1)
	}
	var dbs, ids strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&dbs, "fleet-pg/db%04d\n", i) // 16 bytes a line
		fmt.Fprintf(&ids, "db%04d\n", i)          // 7 bytes a line
	}
	// The files the commands read, in the temporary directory.
	for name, data := range map[string][]byte{
		"names":          []byte(names.String()),
		"catalog.json":   catalog,
		"edited.json":    bytes.ReplaceAll(generated, []byte(`]},"classification":"1-1"}`), []byte(`]},"classification":"1-3"}`)),
		"revisions.json": []byte("[" + strings.Join(revs, ",") + "]"),
		"100":            []byte(dbs.String()[:16*100]),
		"500":            []byte(dbs.String()[:16*500]),
		"1000":           []byte(dbs.String()[:16*1000]),
		"ids":            []byte(ids.String()[:7*500]),
	} {
		if err := os.WriteFile(tmp(name), data, 0o600); err != nil {
			return err
		}
	}

	cases := []benchCase{
		{section: "1. start-up", name: "version", args: []string{"version"}, wall: 0.01},
		{section: "1. start-up", name: "--help", args: []string{"--help"}, wall: 0.01},
		{section: "2. one request", name: "idps list -o json", args: []string{"idps", "list", "-o", "json"},
			ref: "curl -sf " + url + "/v1/idps | jq .", refName: "curl | jq ."},
	}
	large := func(what string, body []byte, args []string, stdin, jq, ref string) {
		rss, note := 4*float64(len(body))/(1<<20), fmt.Sprintf("4 × the %s body", mib(len(body)))
		cases = append(cases,
			benchCase{section: "3. large answers", name: what + " -o json", args: slices.Concat(args, []string{"-o", "json"}), stdin: stdin,
				ref: ref + " | jq .", refName: "curl | jq .", rss: rss, rssNote: note},
			benchCase{section: "3. large answers", name: what + " -o table", args: slices.Concat(args, []string{"-o", "table"}), stdin: stdin,
				wall: 1, rss: rss, rssNote: note},
			benchCase{section: "3. large answers", name: what + " --jq", args: slices.Concat(args, []string{"--jq", jq}), stdin: stdin,
				rss: rss, rssNote: note})
	}
	large(fmt.Sprintf("users batch-get (%d users)", users), usersBody, []string{"users", "batch-get", "-"}, tmp("names"),
		".users[].email", "curl -sf "+usersSrv.URL)
	large(fmt.Sprintf("catalog update (%d×%d)", tables, columns), answer, []string{"catalog", "update", "--database", db, "-f", tmp("catalog.json")}, "",
		".schemas[].tables[].name", fmt.Sprintf("curl -sf -X PATCH -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' --data-binary @%s '%s/v1/%s/catalog'",
			token, tmp("catalog.json"), url, db))
	// Each run sends the revisions to a database of its own: the server checks
	// a revision against every one the database holds.
	revArgs := []string{"revisions", "batch-create", "--instance", "fleet-pg", "--database", "", "-f", tmp("revisions.json"), "--batch-size", "100", "-o", "json"}
	cases = append(cases, benchCase{section: "4. batch create", name: fmt.Sprintf("revisions batch-create (%d in batches of 100)", revisions),
		args: revArgs, prep: func(run int) { revArgs[5] = fmt.Sprintf("db%04d", run+1) },
		then: func(wall []float64) error { return b.serverTime(tmp("server.log"), batches, wall) }})
	for _, verb := range []string{"diff", "update --merge"} {
		cases = append(cases, benchCase{section: "5. catalog as code", name: fmt.Sprintf("catalog %s (%d×%d, %s)", verb, tables, columns, mib(len(generated))),
			args: append(append([]string{"catalog"}, strings.Fields(verb)...), "--database", db, "-f", tmp("edited.json")),
			env:  []string{"DBGOV_URL=" + catalogSrv.URL}, wall: 1, rss: 6 * float64(len(generated)) / (1 << 20), rssNote: "6 × the catalog"})
	}
	for _, f := range [][2]int{{500, 8}, {100, 8}, {1000, 8}, {500, 1}, {500, 4}, {500, 32}} {
		c := benchCase{section: "6. many databases at once (each answered after 20 ms)",
			name: fmt.Sprintf("policies list --databases-from (%d databases) --concurrency %d -o jsonl", f[0], f[1]),
			args: []string{"policies", "list", "--databases-from", tmp(fmt.Sprint(f[0])), "--concurrency", fmt.Sprint(f[1]), "-o", "jsonl"},
			env:  []string{"DBGOV_URL=" + fleetURL, "DBGOV_TOKEN=" + fleetToken}, wallNote: fmt.Sprintf("20 ms × databases / concurrency = %.2f s", float64(f[0])*0.02/float64(f[1]))}
		if f == [2]int{500, 8} {
			c.rss, c.refName = 50, "xargs -P 8 curl, to files"
			c.ref = fmt.Sprintf("mkdir -p %[1]s/out && xargs -P 8 -I{} curl -sf -H 'Authorization: Bearer %[2]s' -o %[1]s/out/{}.json "+
				"%[3]s/v1/instances/fleet-pg/databases/{}/policies < %[1]s/ids", b.tmp, fleetToken, fleetURL)
		}
		cases = append(cases, c)
	}

	// A list of databases is read a page at a time: the largest page bounds
	// the memory of every format.
	listURL, listToken, stopList, err := b.startServer(tmp("list.log"), "--generate-databases", fmt.Sprint(databases))
	if err != nil {
		return err
	}
	defer stopList()
	pageSrv, page, err := serve(http.MethodGet, listURL+"/v1/instances/fleet-pg/databases?pageSize=1000", listToken, nil)
	if err != nil {
		return fmt.Errorf("fetch a page of databases: %w", err)
	}
	pageSrv.Close()
	for _, format := range []string{"json", "jsonl", "name", "table", "yaml"} {
		c := benchCase{section: "7. long lists", name: fmt.Sprintf("databases list (%d databases) -o %s", databases, format),
			args: []string{"databases", "list", "--instance", "fleet-pg", "-o", format}, env: []string{"DBGOV_URL=" + listURL, "DBGOV_TOKEN=" + listToken},
			rss: 16 + 3*float64(len(page))/(1<<20), rssNote: fmt.Sprintf("16 MiB + 3 × the %s page", mib(len(page)))}
		if format == "yaml" { // the YAML encoder's garbage of a page: bounded, not within the target
			c.rss, c.rssNote = 0, ""
		}
		cases = append(cases, c)
	}

	for _, c := range cases {
		if !b.only.MatchString(c.section + ": " + c.name) {
			continue
		}
		fmt.Fprintf(os.Stderr, "bench: %s: %s\n", c.section, c.name)
		if err := b.measure(c); err != nil {
			return err
		}
	}
	st, err := os.Stat(b.bin)
	if err != nil {
		return err
	}
	b.rows = append(b.rows, row{section: "8. binary", what: "dbgov, stripped (-s -w) and static", runs: []float64{float64(st.Size()) / (1 << 20)}, unit: "MiB", limit: 20})
	for _, tool := range []string{"curl", "jq"} {
		v, _ := exec.Command(tool, "--version").Output()
		b.notes = append(b.notes, strings.SplitN(string(v), "\n", 2)[0])
	}
	return nil
}

// measure runs c a warm-up and b.runs times, each time beside its reference
// when it has one, and adds its rows to the report.
func (b *bench) measure(c benchCase) error {
	env := append(slices.Clone(b.env), c.env...)
	var wall, rss, refWall, refRSS, ratio []float64
	for i := 0; i <= b.runs; i++ {
		if c.prep != nil {
			c.prep(i)
		}
		w, m, err := b.once(env, c.stdin, append([]string{b.bin}, c.args...)...)
		rw, rm := 1.0, 0.0
		if err == nil && c.ref != "" {
			// pipefail: a curl that fails must fail the run, not feed jq nothing.
			rw, rm, err = b.once(env, "", "bash", "-o", "pipefail", "-c", c.ref)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if i > 0 { // after the warm-up
			wall, rss, refWall, refRSS, ratio = append(wall, w), append(rss, m), append(refWall, rw), append(refRSS, rm), append(ratio, w/rw)
		}
	}
	name := "dbgov " + c.name
	b.rows = append(b.rows, row{c.section, name + ": wall", wall, "s", c.wall, c.wallNote}, row{c.section, name + ": peak RSS", rss, "MiB", c.rss, c.rssNote})
	if c.ref != "" {
		b.rows = append(b.rows, row{c.section, c.refName + ": wall", refWall, "s", 0, ""}, row{c.section, c.refName + ": peak RSS", refRSS, "MiB", 0, ""},
			row{c.section, "wall time of dbgov / " + c.refName + ", run by run", ratio, "×", 1, "no slower"})
	}
	if c.then != nil {
		return c.then(wall)
	}
	return nil
}

// once runs argv from a fresh measuring process, and returns its wall time
// in seconds and its peak RSS in MiB.
func (b *bench) once(env []string, stdin string, argv ...string) (wall, rss float64, err error) {
	cmd := exec.Command(b.self, append([]string{measureFlag, stdin}, argv...)...)
	cmd.Env = env
	out, err := cmd.Output()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		return 0, 0, fmt.Errorf("%w: %s", err, bytes.TrimSpace(ee.Stderr))
	}
	var ns, bytes int64
	if err == nil {
		_, err = fmt.Sscan(string(out), &ns, &bytes)
	}
	return float64(ns) / 1e9, float64(bytes) / (1 << 20), err
}

// startServer runs the reference server with flags, its log in logPath, and
// returns its URL and admin token once it has printed them.
func (b *bench) startServer(logPath string, flags ...string) (url, token string, stop func(), err error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return "", "", nil, err
	}
	cmd := exec.Command(b.bin, append([]string{"dev-server", "--addr", "127.0.0.1:0", "--log"}, flags...)...)
	cmd.Stderr = logf
	stdout, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		return "", "", nil, err
	}
	stop = func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
		logf.Close()
	}
	for sc := bufio.NewScanner(stdout); sc.Scan(); {
		if _, rest, ok := strings.Cut(sc.Text(), "export DBGOV_URL="); ok {
			url, token, _ = strings.Cut(rest, " DBGOV_TOKEN=")
			go func() { _, _ = io.Copy(io.Discard, stdout) }()
			return url, token, stop, nil
		}
	}
	stop()
	return "", "", nil, errors.New("the reference server ended before printing its URL")
}

// serve sends one request with the admin token and serves its answer from a
// loopback server of its own, whatever the path and method.
func serve(method, url, token string, body []byte) (*httptest.Server, []byte, error) {
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
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // a PATCH is answered with the catalog too
		http.ServeContent(w, r, "answer.json", time.Time{}, bytes.NewReader(answer))
	})), answer, nil
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

// serverTime reads from the reference server's log the time it spent on
// each run's batches, and reports it and what dbgov adds per batch.
func (b *bench) serverTime(logPath string, batches int, wall []float64) error {
	time.Sleep(100 * time.Millisecond) // a request is logged once answered
	log, err := os.ReadFile(logPath)
	if err != nil {
		return err
	}
	var times []float64
	for _, line := range strings.Split(string(log), "\n") {
		if f := strings.Fields(line); len(f) == 4 && strings.HasSuffix(f[1], ":batchCreate") {
			d, err := time.ParseDuration(f[3])
			if err != nil {
				return fmt.Errorf("server log: %q: %w", line, err)
			}
			times = append(times, d.Seconds())
		}
	}
	if len(times) != batches*(len(wall)+1) {
		return fmt.Errorf("revisions batch-create sent %d batches in %d runs, not %d a run", len(times), len(wall)+1, batches)
	}
	var server, added []float64
	for i, w := range wall {
		var s float64
		for _, t := range times[batches*(i+1) : batches*(i+2)] {
			s += t
		}
		server, added = append(server, s), append(added, (w-s)/float64(batches))
	}
	b.rows = append(b.rows, row{"4. batch create", "the reference server's own time, in its log", server, "s", 0, fmt.Sprintf("%d requests a run", batches)},
		row{"4. batch create", "dbgov and loopback per batch, beyond the server's time", added, "s", 0, ""})
	return nil
}

func (b *bench) report() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# dbgov benchmark report\n\nEach command ran once as a warm-up, then %d times, against the reference server on loopback; "+
		"the tables give the min, median and max of those runs. A target is met only when every run meets it. %d cores, %s/%s, %s; the machine is shared and noisy.\n\n",
		b.runs, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
	for _, n := range b.notes {
		fmt.Fprintf(&sb, "- %s\n", n)
	}
	section := ""
	for _, r := range b.rows {
		if r.section != section {
			section = r.section
			fmt.Fprintf(&sb, "\n## %s\n\n| measurement | min | median | max | target | met |\n|---|---|---|---|---|---|\n", section)
		}
		v := slices.Sorted(slices.Values(r.runs))
		target, met := r.note, ""
		if r.limit > 0 {
			op, ok := "<", v[len(v)-1] < r.limit
			if r.unit == "×" {
				op, ok = "≤", v[len(v)-1] <= r.limit
			}
			target, met = strings.TrimSuffix(fmt.Sprintf("%s %s on every run (%s)", op, show(r.limit, r.unit), r.note), " ()"), "yes"
			if !ok {
				met = "**no**"
			}
		}
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s |\n", strings.ReplaceAll(r.what, "|", `\|`),
			show(v[0], r.unit), show(v[len(v)/2], r.unit), show(v[len(v)-1], r.unit), target, met)
	}
	return sb.String()
}

// show formats v of unit, seconds under one as milliseconds.
func show(v float64, unit string) string {
	switch {
	case unit == "s" && v < 1:
		return fmt.Sprintf("%.1f ms", v*1000)
	case unit == "×":
		return fmt.Sprintf("%.2f×", v)
	}
	return fmt.Sprintf("%.2f %s", v, unit)
}

func mib(n int) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
