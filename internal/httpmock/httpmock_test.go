package httpmock

import (
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// recordingTB is a testing.TB that records the errors reported to it
// instead of failing the test.
type recordingTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// Fatalf records the failure and stops the calling goroutine, as
// testing.T's does.
func (r *recordingTB) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recordingTB) Errors() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errors...)
}

func TestVerify_countsTheRequestsEachStubExpects(t *testing.T) {
	tests := []struct {
		name      string
		times     int // 0: no Times
		requests  int
		wantError string // "" when Verify passes
	}{
		{name: "any number, never requested", times: 0, requests: 0, wantError: "httpmock: expected GET /v1/x was never requested"},
		{name: "any number, requested once", times: 0, requests: 1},
		{name: "any number, requested thrice", times: 0, requests: 3},
		{name: "twice, never requested", times: 2, requests: 0, wantError: "httpmock: expected GET /v1/x was never requested"},
		{name: "twice, requested once", times: 2, requests: 1, wantError: "httpmock: expected GET /v1/x 2 times, requested 1"},
		{name: "twice, requested twice", times: 2, requests: 2},
		{name: "once, requested once", times: 1, requests: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			reg := New(rec)
			stub := reg.Register(http.MethodGet, "/v1/x", http.StatusOK, `{}`)
			if tc.times > 0 {
				stub.Times(tc.times)
			}
			for range tc.requests {
				res, err := http.Get(reg.URL() + "/v1/x")
				if err != nil {
					t.Fatal(err)
				}
				_ = res.Body.Close()
				if res.StatusCode != http.StatusOK {
					t.Fatalf("status %d", res.StatusCode)
				}
			}
			reg.Verify()
			got := strings.Join(rec.Errors(), "\n")
			if got != tc.wantError {
				t.Errorf("Verify reported %q, want %q", got, tc.wantError)
			}
		})
	}
}

func TestServe_stubsLimitedByTimesAnswerInTurn(t *testing.T) {
	tests := []struct {
		name       string
		requests   int
		wantStatus []int
		wantErrors int
	}{
		{name: "both stubs used up", requests: 3, wantStatus: []int{500, 500, 200}},
		{name: "one more than expected", requests: 4, wantStatus: []int{500, 500, 200, 501}, wantErrors: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			reg := New(rec)
			reg.Register(http.MethodGet, "/v1/x", http.StatusInternalServerError, `{}`).Times(2)
			reg.Register(http.MethodGet, "/v1/x", http.StatusOK, `{}`).Times(1)
			for i := range tc.requests {
				res, err := http.Get(reg.URL() + "/v1/x")
				if err != nil {
					t.Fatal(err)
				}
				_ = res.Body.Close()
				if res.StatusCode != tc.wantStatus[i] {
					t.Errorf("answer %d: status %d, want %d", i, res.StatusCode, tc.wantStatus[i])
				}
			}
			reg.Verify()
			if errs := rec.Errors(); len(errs) != tc.wantErrors {
				t.Errorf("errors %q, want %d", errs, tc.wantErrors)
			}
		})
	}
}

func TestOnly_returnsTheOneRequestOrStopsTheTest(t *testing.T) {
	for _, n := range []int{0, 1, 2} {
		t.Run(fmt.Sprintf("%d requests", n), func(t *testing.T) {
			rec := &recordingTB{TB: t}
			reg := New(rec)
			reg.Register(http.MethodGet, "/v1/x", http.StatusOK, `{}`)
			for range n {
				res, err := http.Get(reg.URL() + "/v1/x?n=1")
				if err != nil {
					t.Fatal(err)
				}
				_ = res.Body.Close()
			}
			var got Request
			done := make(chan struct{})
			go func() { // Only's Fatalf stops this goroutine
				defer close(done)
				got = reg.Only()
			}()
			<-done
			want := fmt.Sprintf("httpmock: %d requests received, want one", n)
			if n == 1 {
				want = ""
			}
			if errs := strings.Join(rec.Errors(), "\n"); errs != want || n == 1 && got.RawQuery != "n=1" {
				t.Errorf("Only reported %q and returned %+v; want %q", errs, got, want)
			}
		})
	}
}
