package revisions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

const (
	batchPath = "/v1/instances/prod-pg/databases/orders/revisions:batchCreate"
	parent    = "instances/prod-pg/databases/orders"
)

// sentThree is the body dbgov sends for testdata/revisions.yaml and
// testdata/request.json.
const sentThree = `{"parent": "instances/prod-pg/databases/orders", "requests": [
 {"parent": "instances/prod-pg/databases/orders", "revision": {"version": "1.0.0", "type": "VERSIONED", "file": "migrations/1.0.0_init.sql", "sheet": "projects/orders/sheets/16dc368a89b428b2485484313ba67a3912ca03f2b2b42429174a4f8b3dc84e44", "release": "releases/2024.05"}},
 {"parent": "instances/prod-pg/databases/orders", "revision": {"version": "1.1.0", "type": "VERSIONED", "file": "migrations/1.1.0_add_email.sql", "sheet": "projects/orders/sheets/37834f2f25762f23e1f74a531cbe445db73d6765ebe60878a7dfbecd7d4af6e1", "release": "releases/2024.05"}},
 {"parent": "instances/prod-pg/databases/orders", "revision": {"version": "2024.06", "type": "DECLARATIVE", "file": "schema/orders.sql", "sheet": "projects/orders/sheets/454f63ac30c8322997ef025edff6abd23e0dbe7b8a3d5126a894e4a168c1b59b", "release": "releases/2024.06"}}]}`

// createdThree is the service's answer to sentThree, with a field this
// version does not know and a hostile file name.
const createdThree = `{"revisions": [
 {"name": "instances/prod-pg/databases/orders/revisions/101", "release": "releases/2024.05", "file": "migrations/1.0.0_init.sql", "version": "1.0.0",
  "sheet": "projects/orders/sheets/16dc368a89b428b2485484313ba67a3912ca03f2b2b42429174a4f8b3dc84e44", "type": "VERSIONED", "createTime": "2024-05-02T10:00:00Z", "sheetSha256": "9f2c0e", "statementSize": "2048", "futureField": {"x": 1}},
 {"name": "instances/prod-pg/databases/orders/revisions/102", "release": "releases/2024.05", "file": "migrations/1.1.0_add_email.sql\u001b[8m", "version": "1.1.0",
  "sheet": "projects/orders/sheets/37834f2f25762f23e1f74a531cbe445db73d6765ebe60878a7dfbecd7d4af6e1", "type": "VERSIONED", "createTime": "2024-05-02T10:00:01Z", "sheetSha256": "41aa07", "statementSize": "312"},
 {"name" : "instances/prod-pg/databases/orders/revisions/103", "file": "schema/orders.sql", "version": "2024.06", "type": "DECLARATIVE", "createTime": "2024-05-02T10:00:02Z"}
]}`

// createdDaysAgo is answer with its revisions created three days ago, an
// age a terminal shows as 3d whenever the test runs.
func createdDaysAgo(answer string) string {
	return strings.ReplaceAll(answer, "2024-05-02T10:00:0", time.Now().Add(-72*time.Hour-time.Minute).UTC().Format("2006-01-02T15:04:0"))
}

// timing matches the elapsed time and rate of a progress or summary line,
// which vary from run to run.
var timing = regexp.MustCompile(` in [0-9.hms]+, [0-9]+/s`)

func untimed(s string) string { return timing.ReplaceAllString(s, " in T, R/s") }

func batchCreate(extra ...string) []string {
	return append([]string{"revisions", "batch-create", "--instance", "prod-pg", "--database", "orders"}, extra...)
}

// generated writes n revisions, versions 1.0.1 to 1.0.n, as a JSON list and
// returns the file's path.
func generated(t testing.TB, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("[")
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"version": "1.0.%d", "type": "VERSIONED", "file": "migrations/1.0.%d.sql", "release": "releases/1.0", "sheet": "projects/orders/sheets/%064d"}`, i, i, i)
	}
	b.WriteString("]\n")
	return cmdtest.WriteFile(t, "revisions.json", b.String())
}

// sentBatch is the body creating the generated entries first to last (from 1).
func sentBatch(first, last int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"parent": %q, "requests": [`, parent)
	for i := first; i <= last; i++ {
		if i > first {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"parent": %q, "revision": {"version": "1.0.%d", "type": "VERSIONED", "file": "migrations/1.0.%d.sql", "release": "releases/1.0", "sheet": "projects/orders/sheets/%064d"}}`, parent, i, i, i)
	}
	b.WriteString("]}")
	return b.String()
}

// createdBatch is the answer creating the generated entries first to last.
func createdBatch(first, last int) string {
	var b strings.Builder
	b.WriteString(`{"revisions": [`)
	for i := first; i <= last; i++ {
		if i > first {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name": "%s/revisions/%d", "version": "1.0.%d", "type": "VERSIONED", "file": "migrations/1.0.%d.sql", "createTime": "2024-05-02T10:00:00Z", "futureField": %d}`,
			parent, i, i, i, i)
	}
	b.WriteString("]}")
	return b.String()
}

func names(first, last int) string {
	var b strings.Builder
	for i := first; i <= last; i++ {
		fmt.Fprintf(&b, "%s/revisions/%d\n", parent, i)
	}
	return b.String()
}

// created is `dbgov revisions batch-create` of testdata/revisions.yaml,
// answered with createdThree (on a terminal, created three days ago).
var created = cmdtest.Command{
	Args: batchCreate("-f", "testdata/revisions.yaml"),
	Serve: func(reg *httpmock.Registry, tty bool) {
		answer := createdThree
		if tty {
			answer = createdDaysAgo(createdThree)
		}
		reg.Register(http.MethodPost, batchPath, 200, answer).Query("").JSONBody(sentThree)
	},
	JQ:       `.revisions[] | select(.type == "VERSIONED") | .version`,
	Template: `{{range .revisions}}{{.version}} {{.name}}{{"\n"}}{{end}}`,
	Check: func(t *testing.T, tty bool, res cmdtest.Result) {
		want := ""
		if tty { // progress, then the line erased and a summary
			want = "\rcreated 0/3 revisions in T, R/s\x1b[K\rcreated 3/3 revisions in T, R/s\x1b[K\r\x1b[Kcreated 3/3 revisions in T, R/s\n"
		}
		if untimed(res.Stderr) != want {
			t.Errorf("stderr %q, want %q", res.Stderr, want)
		}
	},
}

func TestBatchCreate_formats(t *testing.T) {
	created.Goldens(t, "batch_create_", "table", "table_tty", "json", "yaml", "name", "jq", "template", "no_headers")
}

func TestBatchCreate_fillsEveryParent(t *testing.T) {
	yamlList, err := os.ReadFile("testdata/revisions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile("testdata/request.json")
	if err != nil {
		t.Fatal(err)
	}
	jsonList := `[{"version": "1.0.0", "type": "VERSIONED", "file": "migrations/1.0.0_init.sql", "sheet": "projects/orders/sheets/16dc368a89b428b2485484313ba67a3912ca03f2b2b42429174a4f8b3dc84e44", "release": "releases/2024.05"},
	 {"version": "1.1.0", "type": "VERSIONED", "file": "migrations/1.1.0_add_email.sql", "sheet": "projects/orders/sheets/37834f2f25762f23e1f74a531cbe445db73d6765ebe60878a7dfbecd7d4af6e1", "release": "releases/2024.05"},
	 {"version": "2024.06", "type": "DECLARATIVE", "file": "schema/orders.sql", "sheet": "projects/orders/sheets/454f63ac30c8322997ef025edff6abd23e0dbe7b8a3d5126a894e4a168c1b59b", "release": "releases/2024.06"}]`
	yamlBody := `requests:
  - revision: {version: "1.0.0", type: VERSIONED, file: migrations/1.0.0_init.sql, sheet: projects/orders/sheets/16dc368a89b428b2485484313ba67a3912ca03f2b2b42429174a4f8b3dc84e44, release: releases/2024.05}
  - revision: {version: "1.1.0", type: VERSIONED, file: migrations/1.1.0_add_email.sql, sheet: projects/orders/sheets/37834f2f25762f23e1f74a531cbe445db73d6765ebe60878a7dfbecd7d4af6e1, release: releases/2024.05}
  - parent: instances/prod-pg/databases/orders
    revision: {version: "2024.06", type: DECLARATIVE, file: schema/orders.sql, sheet: projects/orders/sheets/454f63ac30c8322997ef025edff6abd23e0dbe7b8a3d5126a894e4a168c1b59b, release: releases/2024.06}
`
	tests := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"yaml list file", batchCreate("-f", "testdata/revisions.yaml"), ""},
		{"json request body file", batchCreate("-f", "testdata/request.json"), ""},
		{"yaml list on stdin", batchCreate("-f", "-"), string(yamlList)},
		{"json list on stdin", batchCreate("-f", "-"), jsonList},
		{"json body on stdin", batchCreate("--file", "-"), string(body)},
		{"yaml body without parents on stdin", batchCreate("-f", "-"), yamlBody},
		{"full database name", []string{"revisions", "batch-create", "--database", parent, "-f", "testdata/request.json"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodPost, batchPath, 200, createdThree).Query("").JSONBody(sentThree)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Stdin: tt.stdin}, append(tt.args, "-o", "name")...).Expect(t, 0)
			if want := parent + "/revisions/101\n" + parent + "/revisions/102\n" + parent + "/revisions/103\n"; res.Stdout != want {
				t.Errorf("stdout %q, want %q", res.Stdout, want)
			}
			if n := len(reg.Requests()); n != 1 {
				t.Errorf("sent %d requests, want 1", n)
			}
		})
	}
}

func TestBatchCreate_sendsBatchesInFileOrder(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		args    []string
		batches [][2]int
	}{
		{"250 by the default 100", 250, nil, [][2]int{{1, 100}, {101, 200}, {201, 250}}},
		{"250 by 100", 250, []string{"--batch-size", "100"}, [][2]int{{1, 100}, {101, 200}, {201, 250}}},
		{"250 in one batch", 250, []string{"--batch-size", "250"}, [][2]int{{1, 250}}},
		{"5 by 1", 5, []string{"--batch-size", "1"}, [][2]int{{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}}},
		{"1000 by the largest batch", 1000, []string{"--batch-size", "1000"}, [][2]int{{1, 1000}}},
		{"10 by 4", 10, []string{"--batch-size=4"}, [][2]int{{1, 4}, {5, 8}, {9, 10}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := generated(t, tt.n)
			for _, format := range []string{"json", "name"} {
				reg := httpmock.New(t)
				for _, b := range tt.batches {
					reg.Register(http.MethodPost, batchPath, 200, createdBatch(b[0], b[1])).JSONBody(sentBatch(b[0], b[1])).Times(1)
				}
				res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, batchCreate(append([]string{"-f", file, "-o", format}, tt.args...)...)...).Expect(t, 0)
				if res.Stderr != "" {
					t.Errorf("stderr: %q", res.Stderr)
				}
				// The batches were sent in file order.
				for i, req := range reg.Requests() {
					var body struct {
						Requests []struct {
							Revision struct{ Version string }
						}
					}
					if err := json.Unmarshal(req.Body, &body); err != nil {
						t.Fatal(err)
					}
					if want := "1.0." + strconv.Itoa(tt.batches[i][0]); body.Requests[0].Revision.Version != want {
						t.Errorf("request %d begins with %s, want %s", i+1, body.Requests[0].Revision.Version, want)
					}
				}
				if format == "name" {
					if res.Stdout != names(1, tt.n) {
						t.Errorf("-o name printed\n%s", res.Stdout)
					}
					continue
				}
				var doc struct {
					Revisions []map[string]any `json:"revisions"`
				}
				if err := json.Unmarshal([]byte(res.Stdout), &doc); err != nil {
					t.Fatalf("stdout is not JSON: %v", err)
				}
				if len(doc.Revisions) != tt.n {
					t.Fatalf("%d revisions printed, want %d", len(doc.Revisions), tt.n)
				}
				for i, rev := range doc.Revisions {
					if rev["name"] != fmt.Sprintf("%s/revisions/%d", parent, i+1) || rev["futureField"] != float64(i+1) {
						t.Errorf("revision %d printed as %v", i+1, rev)
					}
				}
			}
		})
	}
}

func TestBatchCreate_partialFailure(t *testing.T) {
	conflict := `{"code": 6, "message": "revision 1.0.3 already exists"}`
	tests := []struct {
		name string
		args []string
	}{
		{"table", nil},
		{"json", []string{"-o", "json"}},
		{"name", []string{"-o", "name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodPost, batchPath, 200, createdBatch(1, 2)).JSONBody(sentBatch(1, 2)).Times(1)
			reg.Register(http.MethodPost, batchPath, 409, conflict).JSONBody(sentBatch(3, 4)).Times(1)
			// No third request: the run stops at the failed batch.
			args := batchCreate(append([]string{"-f", generated(t, 5), "--batch-size", "2"}, tt.args...)...)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, args...).Expect(t, 6)
			cmdtest.Golden(t, "batch_create_partial_"+tt.name, res.Stdout)
			if tt.name == "json" {
				lines := strings.Split(strings.TrimSuffix(res.Stderr, "\n"), "\n")
				if len(lines) != 1 {
					t.Fatalf("stderr is not one JSON line:\n%s", res.Stderr)
				}
				var report struct {
					Error struct {
						Code       string
						Incomplete struct {
							Created, Total     int
							NotCreated         struct{ First, Last int }
							MaybePartlyCreated struct{ First, Last int }
						}
					}
				}
				if err := json.Unmarshal([]byte(lines[0]), &report); err != nil {
					t.Fatalf("stderr line: %v", err)
				}
				r := report.Error.Incomplete
				if report.Error.Code != "ALREADY_EXISTS" || r.Created != 2 || r.Total != 5 || r.NotCreated.First != 3 || r.NotCreated.Last != 5 ||
					r.MaybePartlyCreated.First != 3 || r.MaybePartlyCreated.Last != 4 {
					t.Errorf("report %+v", report)
				}
				return
			}
			want := "dbgov: create entries 3-4 (versions 1.0.3, 1.0.4) in instances/prod-pg/databases/orders: revision 1.0.3 already exists (HTTP 409 ALREADY_EXISTS)\n" +
				"note: created 2 of 5 revisions for certain\n" +
				"note: the failed batch, entries 3-4 (versions 1.0.3, 1.0.4), may be partly created: the service does not create a batch atomically; a rerun with --skip-existing skips the versions that exist (reported as ALREADY_EXISTS, or INTERNAL with SQLSTATE 23505) and creates the rest\n" +
				"note: entry 5 (version 1.0.5) was not sent\n"
			if res.Stderr != want {
				t.Errorf("stderr\n%s\nwant\n%s", res.Stderr, want)
			}
		})
	}
}

func TestBatchCreate_reportsWhatWasNotCreated(t *testing.T) {
	tests := []struct {
		name      string
		n, size   int
		ok        [][2]int // batches answered with success
		failed    [2]int
		status    int
		body      string
		exit      int
		stdout    string
		stderrHas []string
		stderrNot []string
	}{
		{"second of four batches", 350, 100, [][2]int{{1, 100}}, [2]int{101, 200}, 409, `{"code": 6, "message": "exists"}`, 6, names(1, 100),
			[]string{"created 100 of 350 revisions for certain\n",
				"the failed batch, entries 101-200 (versions 1.0.101 ... 1.0.200), may be partly created",
				"entries 201-350 (versions 1.0.201 ... 1.0.350) were not sent\n"}, []string{"were not created"}},
		{"the last entry alone", 3, 2, [][2]int{{1, 2}}, [2]int{3, 3}, 500, `{"code": 13, "message": "boom"}`, 7, names(1, 2),
			[]string{"created 2 of 3 revisions for certain\n",
				"the failed batch, entry 3 (version 1.0.3), may be partly created",
				"create entry 3 (version 1.0.3) in instances/prod-pg/databases/orders: boom (HTTP 500 INTERNAL)"}, nil},
		{"the first batch", 5, 2, nil, [2]int{1, 2}, 400, `{"code": 3, "message": "bad sheet"}`, 6, "",
			[]string{"created 0 of 5 revisions for certain\n",
				"the failed batch, entries 1-2 (versions 1.0.1, 1.0.2), may be partly created",
				"entries 3-5 (versions 1.0.3, 1.0.4, 1.0.5) were not sent\n"}, nil},
		{"refused credentials create nothing", 5, 2, nil, [2]int{1, 2}, 401, `{"code": 16, "message": "token expired"}`, 3, "",
			[]string{"token expired (HTTP 401 UNAUTHENTICATED)"}, []string{"created 0", "partly"}},
		{"refused permission after a batch", 5, 2, [][2]int{{1, 2}}, [2]int{3, 4}, 403, `{"code": 7, "message": "denied"}`, 4, names(1, 2),
			[]string{"created 2 of 5 revisions; entries 3-5 (versions 1.0.3, 1.0.4, 1.0.5) were not created\n", "denied (HTTP 403 PERMISSION_DENIED)"}, []string{"partly"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			for _, b := range tt.ok {
				reg.Register(http.MethodPost, batchPath, 200, createdBatch(b[0], b[1])).JSONBody(sentBatch(b[0], b[1])).Times(1)
			}
			reg.Register(http.MethodPost, batchPath, tt.status, tt.body).JSONBody(sentBatch(tt.failed[0], tt.failed[1])).Times(1)
			args := batchCreate("-f", generated(t, tt.n), "--batch-size", strconv.Itoa(tt.size), "-o", "name")
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, args...).Expect(t, tt.exit).StderrHas(t, tt.stderrHas...)
			if res.Stdout != tt.stdout {
				t.Errorf("stdout\n%s\nwant\n%s", res.Stdout, tt.stdout)
			}
			for _, s := range tt.stderrNot {
				if strings.Contains(res.Stderr, s) {
					t.Errorf("stderr holds %q:\n%s", s, res.Stderr)
				}
			}
		})
	}
}

func TestBatchCreate_aRefusalBeforeCreatingClaimsNothingCreated(t *testing.T) {
	// The service checks every entry's parent, version and sheet before it
	// creates the first; a release, file or task run only in the entry's turn.
	plain := `{"version": "1.0.%d", "type": "VERSIONED", "sheet": "projects/orders/sheets/%064d"}`
	tests := []struct {
		name      string
		entry     string // the format of entry i, given i twice
		ok        bool   // the first batch (entries 1-2) is created
		stderrHas string
		stderrNot []string
	}{
		{"first batch", plain, false, "bad version (HTTP 400 INVALID_ARGUMENT)", []string{"partly", "created 0"}},
		{"second batch", plain, true, "created 2 of 5 revisions; entries 3-5 (versions 1.0.3, 1.0.4, 1.0.5) were not created\n", []string{"partly"}},
		{"a later entry checked in its turn", `{"version": "1.0.%d", "type": "VERSIONED", "sheet": "projects/orders/sheets/%064d", "taskRun": "projects/orders/plans/1/rollout/stages/prod/tasks/1/taskRuns/1"}`, true,
			"the failed batch, entries 3-4 (versions 1.0.3, 1.0.4), may be partly created", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries := make([]string, 5)
			for i := range entries {
				entries[i] = fmt.Sprintf(tt.entry, i+1, i+1)
			}
			file := cmdtest.WriteFile(t, "revisions.json", "["+strings.Join(entries, ",")+"]")
			reg := httpmock.New(t)
			if tt.ok {
				reg.Register(http.MethodPost, batchPath, 200, createdBatch(1, 2)).Times(1)
			}
			reg.Register(http.MethodPost, batchPath, 400, `{"code": 3, "message": "bad version"}`).Times(1)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, batchCreate("-f", file, "--batch-size", "2", "-o", "name")...).
				Expect(t, 6).StderrHas(t, tt.stderrHas)
			for _, s := range tt.stderrNot {
				if strings.Contains(res.Stderr, s) {
					t.Errorf("stderr holds %q:\n%s", s, res.Stderr)
				}
			}
		})
	}
}

func TestBatchCreate_progressOnlyOnATerminal(t *testing.T) {
	for _, tty := range []bool{false, true} {
		t.Run("tty="+strconv.FormatBool(tty), func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodPost, batchPath, 200, createdBatch(1, 2)).JSONBody(sentBatch(1, 2)).Times(1)
			reg.Register(http.MethodPost, batchPath, 200, createdBatch(3, 4)).JSONBody(sentBatch(3, 4)).Times(1)
			reg.Register(http.MethodPost, batchPath, 503, `{"code": 14, "message": "try later"}`).JSONBody(sentBatch(5, 5)).Times(1)
			args := batchCreate("-f", generated(t, 5), "--batch-size", "2", "-o", "name")
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), TTY: tty, Env: map[string]string{"NO_COLOR": "1"}}, args...).Expect(t, 7)
			report := "dbgov: create entry 5 (version 1.0.5) in instances/prod-pg/databases/orders: try later (HTTP 503 UNAVAILABLE)\n" +
				"note: created 4 of 5 revisions for certain\n"
			want := report
			if tty {
				want = "\rcreated 0/5 revisions in T, R/s\x1b[K\rcreated 2/5 revisions in T, R/s\x1b[K\rcreated 4/5 revisions in T, R/s\x1b[K\r\x1b[K" + report
			}
			if !strings.HasPrefix(untimed(res.Stderr), want) {
				t.Errorf("stderr %q, want it to begin with %q", res.Stderr, want)
			}
			if res.Stdout != names(1, 4) {
				t.Errorf("stdout %q", res.Stdout)
			}
		})
	}
}

func TestBatchCreate_dryRunSendsNothing(t *testing.T) {
	file := generated(t, 5)
	tests := []struct {
		name string
		args []string
	}{
		{"table", nil},
		{"json", []string{"-o", "json"}},
		{"jq", []string{"--jq", `.requests[] | [.body.requests[].revision.version] | join(" ")`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			args := batchCreate(append([]string{"-f", file, "--batch-size", "2", "--dry-run"}, tt.args...)...)
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), TTY: true}, args...).Expect(t, 0)
			if len(reg.Requests()) != 0 {
				t.Errorf("sent %d requests", len(reg.Requests()))
			}
			if res.Stderr != "" {
				t.Errorf("stderr %q", res.Stderr)
			}
			cmdtest.Golden(t, "batch_create_dry_run_"+tt.name, strings.ReplaceAll(res.Stdout, reg.URL(), "http://dbgov.test"))
		})
	}
}

func TestBatchCreate_refusesBadInput(t *testing.T) {
	write := func(name, content string) string { return cmdtest.WriteFile(t, name, content) }
	other := "instances/prod-pg/databases/inventory"
	sheet := "projects/p/sheets/" + strings.Repeat("0a", 32)
	tests := []struct {
		name  string
		file  string
		stdin string
		want  []string
	}{
		{"unknown field", write("unknown.yaml", "- version: \"1\"\n  type: VERSIONED\n  statment: x\n"),
			"", []string{"unknown.yaml", "line 3", `unknown field "statment"`}},
		{"unknown field of the body", write("body.json", `{"parent": "x", "request": []}`), "", []string{"body.json", `unknown field "request"`}},
		{"output-only field", write("out.json", `[{"version": "1", "type": "VERSIONED", "createTime": "2024-01-01T00:00:00Z"}]`),
			"", []string{"out.json", `unknown field "createTime"`}},
		{"wrong type", write("type.yaml", "- version: 1.2\n  type: VERSIONED\n"), "", []string{"type.yaml", "line 1", "version", "wrong type", "quote"}},
		{"wrong type in json", write("type.json", `{"requests": {"revision": {}}}`), "", []string{"type.json", "requests", "wrong type"}},
		{"unknown enum", write("enum.json", `[{"version": "1", "type": "IMPERATIVE"}]`), "", []string{"enum.json", "type", `"IMPERATIVE"`}},
		{"empty file", write("empty.yaml", "  \n"), "", []string{"empty.yaml is empty"}},
		{"empty stdin", "-", "", []string{"standard input", "empty"}},
		{"missing file", filepath.Join(t.TempDir(), "nope.yaml"), "", []string{"nope.yaml", "no such file"}},
		{"empty list", write("none.json", "[]"), "", []string{"none.json holds no revisions"}},
		{"no requests", write("none.yaml", "parent: "+parent+"\n"), "", []string{"none.yaml holds no revisions"}},
		{"type missing", write("notype.yaml", "- {version: \"1.0\", type: VERSIONED, sheet: "+sheet+"}\n- {version: \"1.1\", type: VERSIONED, sheet: "+sheet+"}\n- {version: \"1.2\", sheet: "+sheet+"}\n"),
			"", []string{`notype.yaml: entry 3 (version "1.2"): type is required (VERSIONED or DECLARATIVE); nothing was sent`}},
		{"type unspecified", write("unspec.json", `[{"version": "1.2", "type": "TYPE_UNSPECIFIED"}]`),
			"", []string{`entry 1 (version "1.2"): type TYPE_UNSPECIFIED is not allowed`}},
		{"version missing", write("nover.json", `[{"version": "1.0", "type": "VERSIONED", "sheet": "`+sheet+`"}, {"type": "VERSIONED", "sheet": "`+sheet+`"}]`),
			"", []string{"nover.json: entry 2: version is required"}},
		{"bad sheet", write("sheet.json", `[{"version": "1.0", "type": "VERSIONED", "sheet": "sheets/12"}]`),
			"", []string{`entry 1 (version "1.0"): sheet "sheets/12" is not of the form projects/{project}/sheets/{id}`}},
		{"sheet missing", write("nosheet.yaml", "- {version: \"1.0\", type: VERSIONED, file: a.sql, release: releases/1, sheet: "+sheet+"}\n- {version: \"1.1\", type: VERSIONED, file: b.sql, release: releases/1}\n"),
			"", []string{`nosheet.yaml: entry 2 (version "1.1"): sheet is required (projects/{project}/sheets/{id}, holding its statement); nothing was sent`}},
		{"file without its release", write("file.yaml", "- {version: \"1.0\", type: VERSIONED, file: a.sql, sheet: "+sheet+"}\n"),
			"", []string{`file.yaml: entry 1 (version "1.0"): file and release go together: give both or neither; nothing was sent`}},
		{"release without its file", write("release.yaml", "- {version: \"1.0\", type: VERSIONED, release: releases/1, sheet: "+sheet+"}\n"),
			"", []string{`release.yaml: entry 1 (version "1.0"): file and release go together`}},
		{"a sheet of another release's form", write("old.yaml", "- {version: \"1.0\", type: VERSIONED, sheet: projects/p/sheets/101}\n"),
			"", []string{`old.yaml: entry 1 (version "1.0"): sheet "101" cannot be a sheet of release 3.14.1: from 3.14.0, a sheet is named by the SHA-256 of its statement (64 hex digits); nothing was sent`}},
		{"sheet without id", write("sheet2.json", `[{"version": "1.0", "type": "VERSIONED", "sheet": "projects/p/sheets/"}]`),
			"", []string{`sheet "projects/p/sheets/"`}},
		{"duplicate", write("dup.json", `[{"version": "1.0", "type": "VERSIONED"}, {"version": "1.0", "type": "DECLARATIVE"}, {"version": "1.0", "type": "VERSIONED"}]`),
			"", []string{`entry 3 (version "1.0"): the VERSIONED revision "1.0" is already entry 1`}},
		{"batch parent of another database", write("parent.json", `{"parent": "`+other+`", "requests": [{"revision": {"version": "1", "type": "VERSIONED"}}]}`),
			"", []string{`parent "` + other + `" is not ` + parent}},
		{"request parent of another database", write("rparent.yaml", "requests:\n  - revision: {version: \"1\", type: VERSIONED}\n  - parent: "+other+"\n    revision: {version: \"2\", type: VERSIONED}\n"),
			"", []string{`entry 2 (version "2"): parent "` + other + `" is not ` + parent}},
		{"many problems", write("many.json", `[{}, {}, {}, {}, {}, {}]`),
			"", []string{"many.json has 18 problems; nothing was sent:\n  entry 1: version is required\n  entry 1: type is required", "\n  ... and 8 more"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmdtest.Refused(t, cmdtest.Options{Stdin: tt.stdin}, batchCreate("-f", tt.file), tt.want...)
		})
	}
}

func TestBatchCreate_usage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", batchCreate(), "-f/--file is required"},
		{"no database", []string{"revisions", "batch-create", "--instance", "prod-pg", "-f", "testdata/revisions.yaml"}, "--database is required"},
		{"bad database id", batchCreate("-f", "testdata/revisions.yaml", "--database", "a b"), "a b"},
		{"batch size 0", batchCreate("-f", "testdata/revisions.yaml", "--batch-size", "0"), "--batch-size must be between 1 and 1000, not 0"},
		{"batch size 1001", batchCreate("-f", "testdata/revisions.yaml", "--batch-size", "1001"), "not 1001"},
		{"negative batch size", batchCreate("-f", "testdata/revisions.yaml", "--batch-size", "-3"), "not -3"},
		{"batch size not a number", batchCreate("-f", "testdata/revisions.yaml", "--batch-size", "ten"), "ten"},
		{"an argument", batchCreate("-f", "testdata/revisions.yaml", "extra"), "takes no arguments"},
		{"bad output", batchCreate("-f", "testdata/revisions.yaml", "-o", "csv"), "csv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { cmdtest.Refused(t, cmdtest.Options{}, tt.args, tt.want) })
	}
}

func TestBatchCreate_serviceErrors(t *testing.T) {
	var failures []cmdtest.Failure
	for _, e := range cmdtest.ServiceErrors() {
		failures = append(failures, cmdtest.Failure{Name: e.CodeName, Status: e.Status, Body: e.Body("revisions say no"), Code: e.Exit,
			Line: fmt.Sprintf("dbgov: create entries 1-3 (versions 1.0.0, 1.1.0, 2024.06) in instances/prod-pg/databases/orders: revisions say no (HTTP %d %s)\n", e.Status, e.CodeName),
			JSON: fmt.Sprintf(`{"error":{"httpStatus":%d,"code":%q,"message":"revisions say no",`, e.Status, e.CodeName)})
	}
	created.Failures(t, http.MethodPost, batchPath, failures)
}

func TestBatchCreate_interruptedDuringABatch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, createdBatch(1, 2))
			return
		}
		// Ctrl-C while the second batch is in flight. The body is read so
		// that the server notices when the client hangs up.
		_, _ = io.ReadAll(r.Body)
		cancel()
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer srv.Close()
	args := batchCreate("-f", generated(t, 5), "--batch-size", "2", "-o", "name")
	res := cmdtest.Run(t, cmdtest.Options{URL: srv.URL, Ctx: ctx}, args...).Expect(t, 130).
		StderrHas(t, "note: created 2 of 5 revisions for certain\n", "note: entry 5 (version 1.0.5) was not sent\n",
			"the failed batch, entries 3-4 (versions 1.0.3, 1.0.4), may be partly created", "interrupted")
	if res.Stdout != names(1, 2) {
		t.Errorf("stdout %q", res.Stdout)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestBatchCreate_unknownAnswerFieldsSurvive(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodPost, batchPath, 200, `{"revisions": [{"name": "`+parent+`/revisions/1", "shard": {"id": 7}}], "nextHint": "x"}`).Times(1)
	reg.Register(http.MethodPost, batchPath, 200, `{"revisions": [{"name": "`+parent+`/revisions/2", "shard": {"id": 8}}]}`).Times(1)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, batchCreate("-f", generated(t, 2), "--batch-size", "1", "--jq", ".revisions[].shard.id")...).Expect(t, 0)
	if res.Stdout != "7\n8\n" {
		t.Errorf("stdout %q", res.Stdout)
	}
}

func TestBatchCreate_answerThatOmitsTheList(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodPost, batchPath, 200, `{}`)
	// An answer that names none of the revisions sent does not match the
	// request: it is invalid, and nothing is claimed created.
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, batchCreate("-f", "testdata/revisions.yaml", "-o", "json")...).Expect(t, 1)
	if res.Stdout != "" || !strings.Contains(res.Stderr, `"code":"INVALID_RESPONSE"`) {
		t.Errorf("stdout %q, stderr %q", res.Stdout, res.Stderr)
	}
}

func TestBatchCreate_noConnectionClaimsNothingCreated(t *testing.T) {
	// The host does not resolve: nothing left dbgov, so nothing may be
	// partly created, and no account of created entries is due.
	res := cmdtest.Run(t, cmdtest.Options{URL: "http://gov.invalid", Env: map[string]string{"DBGOV_TIMEOUT": "5s"}},
		batchCreate("-f", generated(t, 3))...).Expect(t, 8)
	if strings.Contains(res.Stderr, "partly created") || strings.Contains(res.Stderr, "created 0 of") {
		t.Errorf("stderr claims a partial creation:\n%s", res.Stderr)
	}
	if res.Stdout != "" {
		t.Errorf("stdout %q", res.Stdout)
	}
}

func TestBatchCreate_fitsTheTerminal(t *testing.T) {
	created.Goldens(t, "batch_create_", "tty_60", "tty_80", "tty_120")
}

// sentEntries lists the entries each request sent, as "1-2" or "3".
func sentEntries(t *testing.T, reqs []httpmock.Request) []string {
	t.Helper()
	var out []string
	for _, r := range reqs {
		var body struct {
			Requests []struct{ Revision struct{ Version string } }
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		first := strings.TrimPrefix(body.Requests[0].Revision.Version, "1.0.")
		if n := len(body.Requests); n > 1 {
			first += "-" + strings.TrimPrefix(body.Requests[n-1].Revision.Version, "1.0.")
		}
		out = append(out, first)
	}
	return out
}

func TestBatchCreate_skippedVersionsToldAsAJSONLineUnderJSONOutput(t *testing.T) {
	reg := httpmock.New(t)
	dup := `{"code": 6, "message": "revision exists"}`
	reg.Register(http.MethodPost, batchPath, 409, dup).JSONBody(sentBatch(1, 2)).Times(1)
	reg.Register(http.MethodPost, batchPath, 409, dup).JSONBody(sentBatch(1, 1)).Times(1)
	reg.Register(http.MethodPost, batchPath, 200, createdBatch(2, 2)).JSONBody(sentBatch(2, 2)).Times(1)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()},
		batchCreate("-f", generated(t, 2), "--batch-size", "2", "--skip-existing", "-o", "json")...).Expect(t, 0)
	if want := `{"warning":"created 1/2 revisions, skipped 1 existing in T, R/s"}` + "\n"; untimed(res.Stderr) != want {
		t.Errorf("stderr %q, want %q", res.Stderr, want)
	}
}

func TestBatchCreate_skipExistingFinishesAnInterruptedRun(t *testing.T) {
	exists := map[string]string{
		"ALREADY_EXISTS": `{"code": 6, "message": "revision exists"}`,
		"INTERNAL 23505": `{"code": 13, "message": "failed to create revision: ERROR: duplicate key value violates unique constraint \"revision_unique\" (SQLSTATE 23505)"}`,
	}
	for name, dup := range exists {
		status := 409
		if strings.HasPrefix(name, "INTERNAL") {
			status = 500
		}
		t.Run(name, func(t *testing.T) {
			// Entries 1-3 exist; the batch 3-4 fails at its first entry.
			reg := httpmock.New(t)
			for _, b := range [][2]int{{1, 2}, {1, 1}, {2, 2}, {3, 4}, {3, 3}} {
				reg.Register(http.MethodPost, batchPath, status, dup).JSONBody(sentBatch(b[0], b[1])).Times(1)
			}
			reg.Register(http.MethodPost, batchPath, 200, createdBatch(4, 4)).JSONBody(sentBatch(4, 4)).Times(1)
			reg.Register(http.MethodPost, batchPath, 200, createdBatch(5, 5)).JSONBody(sentBatch(5, 5)).Times(1)
			args := batchCreate("-f", generated(t, 5), "--batch-size", "2", "--skip-existing", "-o", "name")
			res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, args...).Expect(t, 0)
			if res.Stdout != names(4, 5) {
				t.Errorf("stdout %q, want the two created", res.Stdout)
			}
			if want := "created 2/5 revisions, skipped 3 existing in T, R/s\n"; untimed(res.Stderr) != want {
				t.Errorf("stderr %q, want %q", res.Stderr, want)
			}
			if got, want := sentEntries(t, reg.Requests()), []string{"1-2", "1", "2", "3-4", "3", "4", "5"}; strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("sent %q, want %q", got, want)
			}
		})
	}
}

func TestBatchCreate_skipExistingStopsAtOtherFailures(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		exit   int
		stderr []string
	}{
		{"a service failure without SQLSTATE 23505", 500, `{"code": 13, "message": "disk full"}`, 7,
			[]string{"disk full (HTTP 500 INTERNAL)", "note: created 0 of 3 revisions for certain (1 existing skipped)\n"}},
		{"a rejection", 400, `{"code": 3, "message": "bad sheet"}`, 6,
			[]string{"bad sheet (HTTP 400 INVALID_ARGUMENT)", "note: created 0 of 3 revisions (1 existing skipped); entries 2-3 (versions 1.0.2, 1.0.3) were not created\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, format := range []string{"name", "json"} {
				reg := httpmock.New(t)
				reg.Register(http.MethodPost, batchPath, 409, `{"code": 6, "message": "exists"}`).JSONBody(sentBatch(1, 2)).Times(1)
				reg.Register(http.MethodPost, batchPath, 409, `{"code": 6, "message": "exists"}`).JSONBody(sentBatch(1, 1)).Times(1)
				reg.Register(http.MethodPost, batchPath, tt.status, tt.body).JSONBody(sentBatch(2, 2)).Times(1)
				args := batchCreate("-f", generated(t, 3), "--batch-size", "2", "--skip-existing", "-o", format)
				res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, args...).Expect(t, tt.exit)
				if format == "json" {
					res.StderrHas(t, `"created":0,"skipped":1,"total":3`)
					continue
				}
				res.StderrHas(t, tt.stderr...)
			}
		})
	}
}

func TestBatchCreate_answerWithFewerRevisionsIsInvalid(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodPost, batchPath, 200, createdBatch(1, 2)).JSONBody(sentBatch(1, 2)).Times(1)
	reg.Register(http.MethodPost, batchPath, 200, `{}`).JSONBody(sentBatch(3, 4)).Times(1)
	args := batchCreate("-f", generated(t, 5), "--batch-size", "2", "-o", "name")
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, args...).Expect(t, 1)
	if !strings.Contains(res.Stderr, "invalid response: the service answered 0 revisions for the 2 sent") ||
		!strings.Contains(res.Stderr, "created 2 of 5 revisions") {
		t.Errorf("stderr does not say what is missing:\n%s", res.Stderr)
	}
	if res.Stdout != names(1, 2) {
		t.Errorf("stdout %q, want the two created", res.Stdout)
	}
}

// Piped, a creation of many batches is printed as they are created; what it
// prints is what the same revisions created in one batch print.
func TestBatchCreate_batchesPrintAsOneDocument(t *testing.T) {
	for _, format := range []string{"json", "jsonl", "yaml", "table", "wide", "name"} {
		t.Run(format, func(t *testing.T) {
			file := generated(t, 12)
			run := func(batches ...[2]int) string {
				reg := httpmock.New(t)
				for _, b := range batches {
					reg.Register(http.MethodPost, batchPath, 200, createdBatch(b[0], b[1])).JSONBody(sentBatch(b[0], b[1])).Times(1)
				}
				size := strconv.Itoa(batches[0][1])
				return cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, batchCreate("-f", file, "--batch-size", size, "-o", format)...).Expect(t, 0).Stdout
			}
			whole := run([2]int{1, 12})
			if got := run([2]int{1, 5}, [2]int{6, 10}, [2]int{11, 12}); got != whole {
				t.Errorf("in three batches:\n%s\nin one:\n%s", got, whole)
			}
		})
	}
}

// Piped, a batch that fails ends the document with the revisions created
// before it, and the error follows on stderr, saying what was created.
func TestBatchCreate_aFailedBatchEndsTheDocument(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodPost, batchPath, 200, createdBatch(1, 2)).JSONBody(sentBatch(1, 2)).Times(1)
	reg.Register(http.MethodPost, batchPath, 200, createdBatch(3, 4)).JSONBody(sentBatch(3, 4)).Times(1)
	reg.Register(http.MethodPost, batchPath, 503, `{"code": 14, "message": "try later"}`).JSONBody(sentBatch(5, 5)).Times(1)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, batchCreate("-f", generated(t, 5), "--batch-size", "2", "-o", "json")...).
		Expect(t, 7).StderrHas(t, `"incomplete":{"created":4,"total":5,`)
	var doc struct{ Revisions []struct{ Name string } }
	if err := json.Unmarshal([]byte(res.Stdout), &doc); err != nil || len(doc.Revisions) != 4 || doc.Revisions[3].Name != parent+"/revisions/4" {
		t.Errorf("stdout %q: %v", res.Stdout, err)
	}
}

// Piped, a batch whose revisions cannot be printed stops the creation: the
// batches after it are not sent.
func TestBatchCreate_aBatchThatCannotBePrintedStopsTheSending(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodPost, batchPath, 200, createdBatch(1, 2)).JSONBody(sentBatch(1, 2)).Times(1)
	reg.Register(http.MethodPost, batchPath, 200, `{"revisions": [{"name": 3}, {"name": 4}]}`).JSONBody(sentBatch(3, 4)).Times(1)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, batchCreate("-f", generated(t, 5), "--batch-size", "2", "-o", "name")...).
		Expect(t, 1).StderrHas(t, "show the created revisions: ").StderrHas(t, "note: created 4 of 5 revisions; entry 5 (version 1.0.5) was not created")
	if res.Stdout != names(1, 2) {
		t.Errorf("stdout %q", res.Stdout)
	}
}

// Piped, an answer giving a key twice is refused as an invalid response, as
// when the revisions are printed at once, and the batches after it are not
// sent.
func TestBatchCreate_aBatchGivingAKeyTwiceIsRefused(t *testing.T) {
	tests := []struct {
		format string
		note   string
	}{
		{"json", `"incomplete":{"created":4,"total":5,`},
		{"yaml", "note: created 4 of 5 revisions; entry 5 (version 1.0.5) was not created"},
		{"name", "note: created 4 of 5 revisions; entry 5 (version 1.0.5) was not created"},
		{"table", "note: created 4 of 5 revisions; entry 5 (version 1.0.5) was not created"},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			reg := httpmock.New(t)
			reg.Register(http.MethodPost, batchPath, 200, createdBatch(1, 2)).JSONBody(sentBatch(1, 2)).Times(1)
			twice := strings.Replace(createdBatch(3, 4), `"type"`, `"version": "9", "type"`, 1)
			reg.Register(http.MethodPost, batchPath, 200, twice).JSONBody(sentBatch(3, 4)).Times(1)
			cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, batchCreate("-f", generated(t, 5), "--batch-size", "2", "-o", tt.format)...).
				Expect(t, 1).StderrHas(t, "show the created revisions: ").StderrHas(t, "invalid response: key ").StderrHas(t, " is given twice (at /revisions/0/version)").StderrHas(t, tt.note)
		})
	}
}
