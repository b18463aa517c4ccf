package cmdtest

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// recordingTB is a testing.TB that records failures instead of failing the
// test; Fatalf stops the calling goroutine as testing.T's does.
type recordingTB struct {
	testing.TB
	mu       sync.Mutex
	failures []string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) record(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Errorf(format string, args ...any) { r.record(format, args...) }

func (r *recordingTB) Fatalf(format string, args ...any) {
	r.record(format, args...)
	runtime.Goexit()
}

// check runs f with a recorder in a goroutine of its own, so that Fatalf
// can stop it, and returns what failed.
func check(t *testing.T, f func(testing.TB)) []string {
	rec := &recordingTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(rec)
	}()
	<-done
	return rec.failures
}

func TestResultExpect_checksTheExitCodeAlone(t *testing.T) {
	tests := []struct {
		name     string
		result   Result
		code     int
		wantFail string // "" when Expect passes
	}{
		{name: "same code, empty streams", result: Result{Code: 0}, code: 0},
		{name: "same code, output on both streams", result: Result{Stdout: "out\n", Stderr: "err\n", Code: 3}, code: 3},
		{name: "other code", result: Result{Stdout: "out\n", Stderr: "err\n", Code: 1}, code: 0, wantFail: "exit code 1, want 0\nstdout:\nout\n\nstderr:\nerr\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got Result
			failures := check(t, func(tb testing.TB) { got = tc.result.Expect(tb, tc.code) })
			if strings.Join(failures, "\n") != tc.wantFail {
				t.Errorf("Expect reported %q, want %q", failures, tc.wantFail)
			}
			if tc.wantFail == "" && got != tc.result {
				t.Errorf("Expect returned %+v, want %+v", got, tc.result)
			}
		})
	}
}

func TestResultHas_checksEachFragment(t *testing.T) {
	r := Result{Stdout: "name: users/a\n", Stderr: "dbgov: not found\n"}
	tests := []struct {
		name      string
		check     func(testing.TB)
		wantFails int
	}{
		{name: "stdout holds every fragment", check: func(tb testing.TB) { r.StdoutHas(tb, "name:", "users/a") }},
		{name: "stdout lacks one fragment", check: func(tb testing.TB) { r.StdoutHas(tb, "name:", "users/b", "not found") }, wantFails: 2},
		{name: "stderr holds every fragment", check: func(tb testing.TB) { r.StderrHas(tb, "dbgov:", "not found") }},
		{name: "stderr lacks one fragment", check: func(tb testing.TB) { r.StderrHas(tb, "users/a") }, wantFails: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if failures := check(t, tc.check); len(failures) != tc.wantFails {
				t.Errorf("failures %q, want %d", failures, tc.wantFails)
			}
		})
	}
}
