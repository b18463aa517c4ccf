// Package fleet runs one command over many databases: it reads the list of
// --databases-from, schedules the work with bounded concurrency, and sums the
// outcomes up in one exit code.
package fleet

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbgov/dbgov/client"
)

// Parse reads a list of databases, one a line, as instances/I/databases/D or
// I/D; blank lines and lines starting with # are skipped, and a database
// named twice is kept once. A bad line is an error naming it.
func Parse(r io.Reader, source string) ([]client.DatabaseName, error) {
	var dbs []client.DatabaseName
	seen := map[client.DatabaseName]bool{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		full := line
		if i, d, ok := strings.Cut(line, "/"); ok && !strings.Contains(d, "/") {
			full = "instances/" + i + "/databases/" + d
		}
		db, err := client.ParseDatabase("", full)
		if err != nil {
			return nil, fmt.Errorf("%s, line %d: %w", source, n, err)
		}
		if !seen[db] {
			seen[db] = true
			dbs = append(dbs, db)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", source, err)
	}
	if len(dbs) == 0 {
		return nil, fmt.Errorf("%s names no database", source)
	}
	return dbs, nil
}

// Result is the outcome of one database.
type Result[T any] struct {
	DB    client.DatabaseName
	Sent  bool  // false when the database was never started
	Value T     // the command's result, when Err is nil
	Err   error // why it failed, or nil
}

// Options bound a run.
type Options struct {
	Concurrency int  // databases worked on at once
	FailFast    bool // start no database after the first failure
}

// Run calls do for every database, at most opts.Concurrency at a time, and
// done with each result as it finishes. It returns the results in the order
// of dbs. Once ctx is cancelled, or a database failed under FailFast, no
// further database is started: those are returned with Sent false.
func Run[T any](ctx context.Context, dbs []client.DatabaseName, opts Options,
	do func(context.Context, client.DatabaseName) (T, error), done func(Result[T])) []Result[T] {
	results := make([]Result[T], len(dbs))
	for i, db := range dbs {
		results[i].DB = db
	}
	var (
		mu     sync.Mutex
		next   int
		failed bool
		wg     sync.WaitGroup
	)
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		if next == len(dbs) || ctx.Err() != nil || (opts.FailFast && failed) {
			return -1
		}
		next++
		return next - 1
	}
	for range max(1, min(opts.Concurrency, len(dbs))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := take(); i >= 0; i = take() {
				v, err := do(ctx, dbs[i])
				r := Result[T]{DB: dbs[i], Sent: true, Value: v, Err: err}
				mu.Lock()
				results[i] = r
				failed = failed || err != nil
				if done != nil {
					done(r)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return results
}

// ExitCode sums a run up: 0 when every database succeeded; differences (9)
// when some differ and none failed; otherwise the code all failed databases
// share, or 1 when they failed in different ways. code gives a failure's
// exit code; differ tells a result that found differences.
func ExitCode[T any](results []Result[T], code func(error) int, differ func(T) bool) int {
	failed, differs := map[int]bool{}, false
	for _, r := range results {
		switch {
		case r.Err != nil:
			failed[code(r.Err)] = true
		case !r.Sent:
			failed[1] = true
		case differ != nil && differ(r.Value):
			differs = true
		}
	}
	switch {
	case len(failed) == 1:
		for c := range failed {
			return c
		}
	case len(failed) > 1:
		return 1
	case differs:
		return 9
	}
	return 0
}

// Summary is the line said on stderr at the end of a run when anything
// failed, such as "3 of 120 databases failed (2 not found, 1 permission
// denied)"; it is empty when nothing failed. reason names a failure's kind.
func Summary[T any](results []Result[T], reason func(error) string) string {
	counts := map[string]int{}
	failed := 0
	for _, r := range results {
		if r.Err == nil && r.Sent {
			continue
		}
		failed++
		if !r.Sent {
			counts["not sent"]++
		} else {
			counts[reason(r.Err)]++
		}
	}
	if failed == 0 {
		return ""
	}
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if counts[kinds[i]] != counts[kinds[j]] {
			return counts[kinds[i]] > counts[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	for i, k := range kinds {
		kinds[i] = strconv.Itoa(counts[k]) + " " + k
	}
	return fmt.Sprintf("%d of %d databases failed (%s)", failed, len(results), strings.Join(kinds, ", "))
}

// Throttle wraps a transport so that at most n requests are in flight at
// once, and so that a 429 or 503 pauses every request, not only the one that
// met it, for its Retry-After (at most maxWait) or else for wait.
func Throttle(next http.RoundTripper, n int, wait, maxWait time.Duration) http.RoundTripper {
	return &throttle{next: next, slots: make(chan struct{}, max(1, n)), wait: wait, maxWait: maxWait}
}

type throttle struct {
	next          http.RoundTripper
	slots         chan struct{}
	wait, maxWait time.Duration

	mu    sync.Mutex
	until time.Time // no request starts before this
}

func (t *throttle) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	select {
	case t.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	release := sync.OnceFunc(func() { <-t.slots })
	t.mu.Lock()
	pause := time.Until(t.until)
	t.mu.Unlock()
	if pause > 0 {
		timer := time.NewTimer(pause)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			release()
			return nil, ctx.Err()
		}
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		release()
		return nil, err
	}
	// The request is in flight until its answer has been read.
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: release}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		d := t.wait
		if s, perr := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After"))); perr == nil && s >= 0 {
			d = time.Duration(s) * time.Second
		} else if at, perr := http.ParseTime(resp.Header.Get("Retry-After")); perr == nil {
			d = time.Until(at)
		}
		d = min(d, t.maxWait)
		t.mu.Lock()
		if u := time.Now().Add(d); u.After(t.until) {
			t.until = u
		}
		t.mu.Unlock()
	}
	return resp, nil
}

// releasingBody frees a throttle's slot when the answer is closed.
type releasingBody struct {
	io.ReadCloser
	release func()
}

func (b *releasingBody) Close() error {
	defer b.release()
	return b.ReadCloser.Close()
}
