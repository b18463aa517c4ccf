package faults

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
)

// TestOutput_manyDatabasesStopWhenStdoutFails runs batch-create over 12
// databases with stdout a full disk: under -o jsonl, no database is started
// after the first line could not be written, and stderr says which were
// sent and which results were lost; -o json and the table, written at the
// end, say that every database was sent and name them. None is exit 2: the
// service was written to. (A closed stdout is no failure: Go gives the
// process /dev/null in its place.)
func TestOutput_manyDatabasesStopWhenStdoutFails(t *testing.T) {
	t.Parallel()
	revisions := writeFile(t, "revisions.json", []byte(goodRevisions))
	list := databaseList(12, "i/d%02d")
	tests := []struct {
		format string
		sent   int
		want   []string
	}{
		{"jsonl", 1, []string{"no space left on device", `"incomplete":{"databases":12,"notSent":11,"notWritten":["instances/i/databases/d00"],"sent":1,"written":[]}`}},
		{"json", 12, []string{"no space left on device", `"notSent":0,"notWritten":["instances/i/databases/d00","instances/i/databases/d01",`, `"sent":12,"written":[]`}},
		{"table", 12, []string{"no space left on device", "12 of 12 databases sent, 0 not sent", "sent, results not written: instances/i/databases/d00, instances/i/databases/d01"}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			t.Parallel()
			full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Skipf("no /dev/full here: %v", err)
			}
			defer full.Close()
			srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				db := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v1/"), "/revisions:batchCreate")
				respond(w, http.StatusOK, `{"revisions": [{"name": "`+db+`/revisions/1", "version": "1.0.0", "type": "VERSIONED"}]}`)
			})
			run(t, opts{env: withURL(srv, nil), stdin: list, stdout: full},
				"revisions", "batch-create", "--databases-from", "-", "-f", revisions, "--concurrency", "1", "-o", tt.format).
				expect(t, 1).stderrHas(t, tt.want...)
			srv.expectRequests(t, tt.sent)
		})
	}
}

// TestOutput_batchCreateStopsWhenStdoutsReaderGoesAway runs batch-create
// piped into a reader that has gone away, as `| head` does: the revisions
// are printed as each batch is created, so a write fails before the last
// batch, and dbgov stops sending and says what was created instead of being
// killed by SIGPIPE in the middle of the creation.
func TestOutput_batchCreateStopsWhenStdoutsReaderGoesAway(t *testing.T) {
	t.Parallel()
	var file strings.Builder
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&file, "- {version: '1.0.%d', type: VERSIONED, sheet: projects/shop/sheets/16dc368a89b428b2485484313ba67a3912ca03f2b2b42429174a4f8b3dc84e44}\n", i)
	}
	revisions := writeFile(t, "revisions.yaml", []byte(file.String()))
	// Each answer is larger than the output's buffer, so it is written
	// before the last batch is sent.
	statement := strings.Repeat("x", 100<<10)
	tests := []struct {
		format string
		want   string
	}{
		{"json", `"total":5,"notCreated":`},
		{"name", "of 5 revisions; entries "},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, func(w http.ResponseWriter, _ *http.Request, n int) {
				respond(w, http.StatusOK, fmt.Sprintf(`{"revisions": [{"name": "instances/i/databases/d/revisions/%d", "version": "1.0.%d", "type": "VERSIONED", "statement": %q}]}`, n+1, n+1, statement))
			})
			read, write, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			read.Close()
			defer write.Close()
			run(t, opts{env: withURL(srv, nil), stdout: write},
				"revisions", "batch-create", "--instance", "i", "--database", "d", "-f", revisions, "--batch-size", "1", "-o", tt.format).
				expect(t, 1).stderrHas(t, "broken pipe", tt.want)
			if n := len(srv.requests()); n >= 5 {
				t.Errorf("server received %d requests: the creation went on after stdout failed", n)
			}
		})
	}
}
