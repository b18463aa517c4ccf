// Package fleet runs one command over many databases: it reads the list of
// --databases-from, schedules the work with bounded concurrency, and sums the
// outcomes up in one exit code.
package fleet

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/exitcode"
)

// Parse reads a list of databases, one a line, as instances/I/databases/D or
// I/D; blank lines and lines starting with # are skipped, and a database
// named twice is kept once. A bad line is an error naming it.
func Parse(data []byte, source string) ([]client.DatabaseName, error) {
	var dbs []client.DatabaseName
	seen := map[client.DatabaseName]bool{}
	for n, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if i, d, ok := strings.Cut(line, "/"); ok && !strings.Contains(d, "/") {
			line = "instances/" + i + "/databases/" + d
		}
		db, err := client.ParseDatabase("", line)
		if err != nil {
			return nil, fmt.Errorf("%s, line %d: %w", source, n+1, err)
		}
		if !seen[db] {
			seen[db] = true
			dbs = append(dbs, db)
		}
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
// of dbs. No further database is started once ctx is cancelled, done
// returned false (its output cannot be written), a database failed under
// FailFast, or one was refused its credentials (exit 3: every other would
// be too): those are returned with Sent false.
func Run[T any](ctx context.Context, dbs []client.DatabaseName, opts Options,
	do func(context.Context, client.DatabaseName) (T, error), done func(Result[T]) bool) []Result[T] {
	results := make([]Result[T], len(dbs))
	for i, db := range dbs {
		results[i].DB = db
	}
	var (
		mu     sync.Mutex
		next   int
		halted bool
		wg     sync.WaitGroup
	)
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		if next == len(dbs) || ctx.Err() != nil || halted {
			return -1
		}
		next++
		return next - 1
	}
	for range max(1, min(opts.Concurrency, len(dbs))) {
		wg.Go(func() {
			for i := take(); i >= 0; i = take() {
				v, err := do(ctx, dbs[i])
				mu.Lock()
				results[i] = Result[T]{DB: dbs[i], Sent: true, Value: v, Err: err}
				if err != nil && (opts.FailFast || exitcode.Classify(err).Code == exitcode.Auth) {
					halted = true
				}
				if done != nil && !done(results[i]) {
					halted = true
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return results
}

// Outcome sums a run up: the exit code of the contract (databases not sent
// count as failing with 1 only when none failed; usage errors beside a
// success are 1, as exit 2 says that nothing was sent) and, when any
// failed, the summary "3 of 120 databases failed (2 not found, 1 not sent)".
// differ tells a difference found.
func Outcome[T any](results []Result[T], differ func(T) bool) (int, string) {
	codes, kinds := map[int]bool{}, map[string]int{}
	failed, differs := 0, false
	for _, r := range results {
		switch {
		case !r.Sent:
			kinds["not sent"]++
		case r.Err != nil:
			r := exitcode.Classify(r.Err)
			codes[r.Code] = true
			kinds[strings.ToLower(strings.ReplaceAll(r.Kind, "_", " "))]++ // NOT_FOUND: not found
		default:
			differs = differs || differ != nil && differ(r.Value)
			continue
		}
		failed++
	}
	code := exitcode.OK
	switch {
	case len(codes) == 1 && !(codes[exitcode.Usage] && failed < len(results)):
		for code = range codes {
		}
	case failed > 0:
		code = exitcode.Failure
	case differs:
		code = exitcode.Differences
	}
	if failed == 0 {
		return code, ""
	}
	var counts []string
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		counts = append(counts, strconv.Itoa(kinds[k])+" "+k)
	}
	return code, fmt.Sprintf("%d of %d databases failed (%s)", failed, len(results), strings.Join(counts, ", "))
}
