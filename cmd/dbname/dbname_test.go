package dbname_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbgov/dbgov/internal/cmdtest"
)

func list(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "prod/db%02d\n", i)
	}
	return b.String()
}

func TestRun_boundsTheRequestsInFlightOfAllDatabases(t *testing.T) {
	var inFlight, peak atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(10 * time.Millisecond)
		inFlight.Add(-1)
		io.WriteString(w, `{"policies": []}`)
	}))
	defer srv.Close()
	for _, n := range []int{1, 3, 8} {
		peak.Store(0)
		res := cmdtest.Run(t, cmdtest.Options{URL: srv.URL, Stdin: list(40)},
			"policies", "list", "--databases-from", "-", "--concurrency", strconv.Itoa(n), "-o", "jsonl").Expect(t, 0)
		if lines := strings.Count(res.Stdout, "\n"); lines != 40 {
			t.Errorf("--concurrency %d: %d results, want 40", n, lines)
		}
		if p := int(peak.Load()); p > n || p < min(n, 2) {
			t.Errorf("--concurrency %d: the server saw %d requests at once", n, p)
		}
	}
}

// frozenClock is a client clock whose time never moves: it records each
// wait and returns at once, so a pause the service asks for is never over
// and every request that honours it waits.
type frozenClock struct {
	mu    sync.Mutex
	waits int
}

func (*frozenClock) Now() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) }

func (c *frozenClock) Sleep(ctx context.Context, _ time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits++
	return ctx.Err()
}

func TestRun_aBusyAnswerPausesEveryDatabase(t *testing.T) {
	schema := cmdtest.WriteFile(t, "schema.sql", "CREATE TABLE t (id int);")
	for _, tc := range []struct {
		args []string
		code int // a POST is not sent again: its database fails
	}{ // one command makes its client in Run, the other before
		{[]string{"policies", "list"}, 0},
		{[]string{"schema", "diff", "--schema-file", schema}, 7},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			var busy atomic.Bool
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.Contains(r.URL.Path, "/db05") && busy.CompareAndSwap(false, true) {
					w.Header().Set("Retry-After", "1")
					w.WriteHeader(http.StatusServiceUnavailable)
					io.WriteString(w, `{"code": 14, "message": "busy"}`)
					return
				}
				io.WriteString(w, `{"policies": [], "diff": ""}`)
			}))
			defer srv.Close()
			clock := &frozenClock{}
			cmdtest.Run(t, cmdtest.Options{URL: srv.URL, Stdin: list(20), Clock: clock},
				append(tc.args, "--databases-from", "-", "--concurrency", "1", "-o", "jsonl")...).Expect(t, tc.code)
			// One database at a time: db07 to db20 (db06 too, unless it was
			// handed on before db05's answer) start after that answer, and
			// each waits for the pause; without it none would.
			if !busy.Load() || clock.waits < 14 {
				t.Errorf("the busy answer was met: %t; requests that waited for the pause: %d, want at least 14", busy.Load(), clock.waits)
			}
		})
	}
}

func TestRun_progressAndSummaryOnATerminal(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/db01/") {
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `{"code": 7, "message": "no"}`)
			return
		}
		io.WriteString(w, `{"policies": []}`)
	}))
	defer srv.Close()
	res := cmdtest.Run(t, cmdtest.Options{URL: srv.URL, Stdin: list(3), TTY: true, Env: map[string]string{"NO_COLOR": "1"}},
		"policies", "list", "--databases-from", "-", "--concurrency", "1").Expect(t, 4)
	for _, want := range []string{"\r1/3 databases, 0 failed\x1b[K", "\r2/3 databases, 1 failed\x1b[K", "\r3/3 databases, 1 failed\x1b[K",
		"(HTTP 403 PERMISSION_DENIED)", "\r\x1b[Kdbgov: 1 of 3 databases failed (1 permission denied)\n"} {
		if !strings.Contains(res.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%q", want, res.Stderr)
		}
	}
}

func TestDatabases_standardInputGivesTheListOrAFileNotBoth(t *testing.T) {
	for _, args := range [][]string{
		{"schema", "diff", "--schema-file", "-"},
		{"catalog", "update", "-f", "-"},
		{"revisions", "batch-create", "-f", "-"},
	} {
		res := cmdtest.Run(t, cmdtest.Options{URL: "http://127.0.0.1:1", Stdin: list(2)}, append(args, "--databases-from", "-")...).Expect(t, 2)
		if !strings.Contains(res.Stderr, "standard input already gave the list of --databases-from") {
			t.Errorf("%v: stderr %q", args, res.Stderr)
		}
	}
}

func TestRun_anAnswerItsFormatRefusesFailsItsDatabase(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/db02/") {
			io.WriteString(w, `{"schemas": 5}`)
			return
		}
		io.WriteString(w, `{"name": "`+strings.TrimPrefix(r.URL.Path, "/v1/")+`", "schemas": []}`)
	}))
	defer srv.Close()
	res := cmdtest.Run(t, cmdtest.Options{URL: srv.URL, Stdin: list(3)}, "catalog", "get", "--databases-from", "-", "-o", "name").Expect(t, 1)
	if res.Stdout != "instances/prod/databases/db00/catalog\ninstances/prod/databases/db01/catalog\n" {
		t.Errorf("stdout %q", res.Stdout)
	}
	for _, want := range []string{"db02", "not a catalog", "1 of 3 databases failed"} {
		if !strings.Contains(res.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, res.Stderr)
		}
	}
}

func TestRun_aRefusedCredentialStartsNoFurtherDatabase(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"code": 16, "message": "token revoked"}`)
	}))
	defer srv.Close()
	res := cmdtest.Run(t, cmdtest.Options{URL: srv.URL, Stdin: list(20)},
		"policies", "list", "--databases-from", "-", "--concurrency", "1").Expect(t, 3)
	if n := requests.Load(); n != 1 {
		t.Errorf("%d requests after the first was refused its credentials, want 1", n)
	}
	if !strings.Contains(res.Stderr, "20 of 20 databases failed (19 not sent, 1 unauthenticated)") {
		t.Errorf("stderr %q", res.Stderr)
	}
}
