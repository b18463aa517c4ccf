package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestSharedBackoff_aBusyAnswerPausesEveryRequest(t *testing.T) {
	tests := []struct {
		name      string
		shared    bool
		header    string
		wantSlept []time.Duration
	}{
		{"Retry-After in seconds", true, "60", []time.Duration{time.Minute}},
		{"Retry-After past the timeout", true, "600", []time.Duration{2 * time.Minute}},
		{"no Retry-After: the first backoff", true, "", []time.Duration{time.Second}},
		{"not shared", false, "60", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				if r.Method == http.MethodPost {
					w.Header().Set("Retry-After", tt.header)
					answer(w, http.StatusTooManyRequests, `{"code":8,"message":"slow down"}`)
					return
				}
				answer(w, http.StatusOK, `{"name":"reviewConfigs/x"}`)
			})
			clock := newFakeClock()
			c := newTestClient(t, svc.URL, func(o *Options) {
				o.SharedBackoff, o.Clock, o.RetryWait, o.Timeout = tt.shared, clock, time.Second, 2*time.Minute
			})
			// A POST is not retried: the pause is what the next request waits.
			if _, _, err := c.UndeleteUser(context.Background(), "a@x.com"); err == nil {
				t.Fatal("want the 429")
			}
			if _, _, err := c.GetReviewConfig(context.Background(), "x"); err != nil {
				t.Fatal(err)
			}
			if got := clock.Slept(); !slices.Equal(got, tt.wantSlept) {
				t.Errorf("the next request waited %v, want %v", got, tt.wantSlept)
			}
		})
	}
}

func TestSharedBackoff_aRefusingServiceEndsTheRunAfterTheFirstRetries(t *testing.T) {
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			svc := newFakeService(t, answerWith(status, `{"code":8,"message":"slow down"}`))
			c := newTestClient(t, svc.URL, func(o *Options) { o.SharedBackoff, o.Clock = true, newFakeClock() })
			var wg sync.WaitGroup
			var refused atomic.Int32
			for range 4 { // four workers of a run over 100 databases
				wg.Go(func() {
					for range 25 {
						_, _, err := c.GetReviewConfig(context.Background(), "x")
						var apiErr *APIError
						if !errors.As(err, &apiErr) || apiErr.HTTPStatus != status {
							t.Errorf("err = %v, want the busy answer", err)
						}
						if strings.Contains(err.Error(), "not sent") {
							refused.Add(1)
						}
					}
				})
			}
			wg.Wait()
			if n := len(svc.Requests()); n > 4*4 {
				t.Errorf("%d requests, want at most the 4 attempts of each worker's first request", n)
			}
			if refused.Load() < 100-4 {
				t.Errorf("%d requests refused without being sent, want at least 96", refused.Load())
			}
		})
	}
}

func TestTransport_keepsAConnectionForEachRequestInFlight(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answer(w, http.StatusOK, `{"name":"reviewConfigs/x"}`)
	}))
	srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	for _, concurrency := range []int{1, 4, 16} {
		conns.Store(0)
		c := newTestClient(t, srv.URL, func(o *Options) { o.Concurrency = concurrency })
		var wg sync.WaitGroup
		for range concurrency {
			wg.Go(func() {
				for range 100 {
					if _, _, err := c.GetReviewConfig(context.Background(), "x"); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		// A connection may come back to the pool a moment after its answer
		// was read, so the next request may open one more; without a pool as
		// large as the requests in flight, most requests open their own.
		if n := int(conns.Load()); n > 2*concurrency {
			t.Errorf("%d requests at a time opened %d connections for %d requests", concurrency, n, 100*concurrency)
		}
	}
}
