package fleet

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/exitcode"
)

func db(i, d string) client.DatabaseName { return client.DatabaseName{Instance: i, Database: d} }

func TestParse_formatsCommentsAndDuplicates(t *testing.T) {
	in := "# fleet\n\nprod/orders\n  instances/prod/databases/users  \nprod/orders\n#staging/x\nstaging/orders\n"
	got, err := Parse([]byte(in), "dbs.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []client.DatabaseName{db("prod", "orders"), db("prod", "users"), db("staging", "orders")}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Parse = %v, want %v", got, want)
	}
}

func TestParse_badLineNamed(t *testing.T) {
	for _, in := range []string{"prod/orders\nprod\n", "a/b/c\n", "instances/p/databases/\n", "prod/ord ers\n"} {
		_, err := Parse([]byte(in), "dbs.txt")
		if err == nil || !strings.Contains(err.Error(), "dbs.txt, line ") {
			t.Errorf("Parse(%q) error = %v, want one naming the line", in, err)
		}
	}
	if _, err := Parse([]byte("# none\n\n"), "-"); err == nil {
		t.Error("an empty list was accepted")
	}
}

func fleetOf(n int) []client.DatabaseName {
	dbs := make([]client.DatabaseName, n)
	for i := range dbs {
		dbs[i] = db("i", fmt.Sprint(i))
	}
	return dbs
}

func TestRun_boundedAndInInputOrder(t *testing.T) {
	var inFlight, peak atomic.Int32
	var doneCount atomic.Int32
	results := Run(context.Background(), fleetOf(40), Options{Concurrency: 3},
		func(_ context.Context, d client.DatabaseName) (string, error) {
			n := inFlight.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			time.Sleep(time.Millisecond)
			inFlight.Add(-1)
			return d.Database, nil
		}, func(Result[string]) bool { doneCount.Add(1); return true })
	if p := peak.Load(); p > 3 || p < 2 {
		t.Errorf("peak concurrency %d, want 2 or 3 (at most 3)", p)
	}
	if doneCount.Load() != 40 {
		t.Errorf("done called %d times, want 40", doneCount.Load())
	}
	for i, r := range results {
		if !r.Sent || r.Value != fmt.Sprint(i) || r.DB.Database != fmt.Sprint(i) {
			t.Fatalf("result %d = %+v, out of order or not sent", i, r)
		}
	}
}

func TestRun_startsNoMoreAfter(t *testing.T) {
	refused := exitcode.WithCode(errors.New("HTTP 401"), exitcode.Auth, "UNAUTHENTICATED")
	tests := []struct {
		name     string
		failFast bool
		err      error                  // of the third database
		done     func(Result[int]) bool // nil: keep on
	}{
		{"fail fast after any error", true, errors.New("boom"), nil},
		{"a database refused its credentials", false, refused, nil},
		{"a result that cannot be written", false, nil, func(r Result[int]) bool { return r.DB.Database != "2" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			results := Run(context.Background(), fleetOf(20), Options{Concurrency: 1, FailFast: tt.failFast},
				func(_ context.Context, d client.DatabaseName) (int, error) {
					calls.Add(1)
					if d.Database == "2" {
						return 0, tt.err
					}
					return 1, nil
				}, tt.done)
			if calls.Load() != 3 {
				t.Errorf("%d databases started, want 3", calls.Load())
			}
			for i, r := range results {
				if r.Sent != (i <= 2) {
					t.Errorf("result %d sent = %v", i, r.Sent)
				}
			}
		})
	}
}

func TestRun_cancelStopsStarting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	results := Run(ctx, fleetOf(10), Options{Concurrency: 2},
		func(ctx context.Context, d client.DatabaseName) (int, error) {
			if d.Database == "3" {
				cancel()
			}
			return 0, ctx.Err()
		}, nil)
	sent := 0
	for _, r := range results {
		if r.Sent {
			sent++
		}
	}
	if sent < 4 || sent > 5 {
		t.Errorf("%d databases sent after a cancel at the fourth, want 4 or 5", sent)
	}
}

func TestOutcome_exitCodeRule(t *testing.T) {
	differ := func(v bool) bool { return v }
	ok := Result[bool]{Sent: true}
	diff := Result[bool]{Sent: true, Value: true}
	fail := func(c int) Result[bool] {
		return Result[bool]{Sent: true, Err: exitcode.WithCode(fmt.Errorf("%d", c), c, "")}
	}
	for _, tc := range []struct {
		name    string
		results []Result[bool]
		want    int
	}{
		{"all ok", []Result[bool]{ok, ok}, 0},
		{"some differ", []Result[bool]{ok, diff}, 9},
		{"same failure", []Result[bool]{fail(5), diff, fail(5)}, 5},
		{"mixed failures", []Result[bool]{fail(5), fail(4)}, 1},
		{"not sent", []Result[bool]{ok, {}}, 1},
		{"not sent after a failure", []Result[bool]{fail(5), {}, {}}, 5},
		{"not sent beside differences", []Result[bool]{diff, {}}, 1},
		{"usage failures beside a success", []Result[bool]{fail(2), ok, fail(2)}, 1},
		{"usage failures alone", []Result[bool]{fail(2), fail(2), {}}, 2},
	} {
		if got, _ := Outcome(tc.results, differ); got != tc.want {
			t.Errorf("%s: exit code %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestOutcome_summaryCountsKinds(t *testing.T) {
	fail := func(kind string) error { return exitcode.WithCode(errors.New(kind), exitcode.Failure, kind) }
	rs := []Result[int]{
		{Sent: true, Err: fail("NOT_FOUND")},
		{Sent: true},
		{Sent: true, Err: fail("PERMISSION_DENIED")},
		{Sent: true, Err: fail("NOT_FOUND")},
		{},
	}
	want := "4 of 5 databases failed (2 not found, 1 not sent, 1 permission denied)"
	if _, got := Outcome(rs, nil); got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if _, got := Outcome(rs[1:2], nil); got != "" {
		t.Errorf("summary of a success = %q", got)
	}
}
