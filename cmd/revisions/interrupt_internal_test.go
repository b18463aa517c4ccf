package revisions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/httpmock"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

// interruptingStderr is a terminal's stderr that presses Ctrl-C as soon as
// a given progress line is shown, that is between two batches.
type interruptingStderr struct {
	bytes.Buffer
	at     string
	cancel context.CancelFunc
}

func (w *interruptingStderr) Write(p []byte) (int, error) {
	n, err := w.Buffer.Write(p)
	if strings.Contains(w.String(), w.at) {
		w.cancel()
	}
	return n, err
}

func TestRunBatchCreate_interruptedBetweenBatches(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := client.DatabaseName{Instance: "prod-pg", Database: "orders"}
	reg := httpmock.New(t)
	// Only the first batch may be sent.
	reg.Register(http.MethodPost, "/v1/instances/prod-pg/databases/orders/revisions:batchCreate", 200,
		`{"revisions": [{"name": "instances/prod-pg/databases/orders/revisions/1"}, {"name": "instances/prod-pg/databases/orders/revisions/2"}]}`).Times(1)

	var file strings.Builder
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&file, "- {version: \"1.0.%d\", type: VERSIONED, sheet: projects/p/sheets/%064d}\n", i, i)
	}
	in, out := &bytes.Buffer{}, &bytes.Buffer{}
	ios := &iostreams.IOStreams{In: in, Out: out}
	in.WriteString(file.String())
	stderr := &interruptingStderr{at: "created 2/5", cancel: cancel}
	ios.ErrOut, ios.ErrTTY = stderr, true
	opts := &batchCreateOptions{
		Deps: factory.Deps{
			IO: ios,
			Client: func() (*client.Client, error) {
				return client.New(client.Options{BaseURL: reg.URL(), Token: "t", ServerVersion: "3.14.1"})
			},
			Printer: func() (output.Printer, error) { return output.New(output.Options{Format: "name"}) },
		},
		dbs:       []client.DatabaseName{db},
		File:      "-",
		BatchSize: 2,
	}
	err := runBatchCreate(ctx, opts)
	if !errors.Is(err, context.Canceled) || exitcode.Classify(err).Code != exitcode.Interrupted {
		t.Fatalf("err = %v, want an interruption", err)
	}
	if !strings.Contains(err.Error(), "stopped before entries 3-5") {
		t.Errorf("err = %v", err)
	}
	if want := "instances/prod-pg/databases/orders/revisions/1\ninstances/prod-pg/databases/orders/revisions/2\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	want := "\rcreated 0/5 revisions in T, R/s\x1b[K\rcreated 2/5 revisions in T, R/s\x1b[K\r\x1b[K"
	if got := regexp.MustCompile(` in [0-9.hms]+, [0-9]+/s`).ReplaceAllString(stderr.String(), " in T, R/s"); got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	var report strings.Builder
	exitcode.Write(&report, err, false, false, nil)
	if want := "dbgov: interrupted\nnote: created 2 of 5 revisions; entries 3-5 (versions 1.0.3, 1.0.4, 1.0.5) were not created\n"; report.String() != want {
		t.Errorf("report %q, want %q", report.String(), want)
	}
	if n := len(reg.Requests()); n != 1 {
		t.Errorf("sent %d requests, want 1", n)
	}
}

func TestDescribe_namesEntriesCompactly(t *testing.T) {
	revs := make([]client.RevisionInput, 10)
	for i := range revs {
		revs[i].Version = fmt.Sprintf("v%d", i+1)
	}
	revs[9].Version = "v10\x1b[2J"
	tests := []struct {
		lo, hi int
		want   string
	}{
		{4, 5, "entry 5 (version v5)"},
		{4, 6, "entries 5-6 (versions v5, v6)"},
		{0, 3, "entries 1-3 (versions v1, v2, v3)"},
		{0, 4, "entries 1-4 (versions v1 ... v4)"},
		{2, 10, `entries 3-10 (versions v3 ... v10\x1b[2J)`},
		{3, 3, "no entries"},
	}
	for _, tt := range tests {
		if got := describe(revs, tt.lo, tt.hi); got != tt.want {
			t.Errorf("describe(%d, %d) = %q, want %q", tt.lo, tt.hi, got, tt.want)
		}
	}
}

func TestReadRevisions_keepsFileOrder(t *testing.T) {
	db := client.DatabaseName{Instance: "i", Database: "d"}
	data := []byte(`{"requests": [{"revision": {"version": "2", "type": "VERSIONED", "sheet": "projects/p/sheets/7902699be42c8a8e46fbbb4501726517e86b22c56a189f7625a6da49081b2451"}}, {"parent": "instances/i/databases/d", "revision": {"version": "1", "type": "DECLARATIVE", "sheet": "projects/p/sheets/7902699be42c8a8e46fbbb4501726517e86b22c56a189f7625a6da49081b2451"}}]}`)
	revs, err := readRevisions("body.json", data, db)
	if err != nil {
		t.Fatal(err)
	}
	want := []client.RevisionInput{{Version: "2", Type: "VERSIONED", Sheet: "projects/p/sheets/7902699be42c8a8e46fbbb4501726517e86b22c56a189f7625a6da49081b2451"}, {Version: "1", Type: "DECLARATIVE", Sheet: "projects/p/sheets/7902699be42c8a8e46fbbb4501726517e86b22c56a189f7625a6da49081b2451"}}
	if len(revs) != len(want) || revs[0] != want[0] || revs[1] != want[1] {
		t.Errorf("revisions %+v, want %+v", revs, want)
	}
	if _, err := readRevisions("bad.json", []byte(`[{"version": "1", "type": "NOPE"}]`), db); !errors.Is(err, input.ErrInvalid) {
		t.Errorf("an unknown type gave %v", err)
	}
}
