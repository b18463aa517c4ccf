package client

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Clock tells the time and waits. The client's retries read the time from
// it and its shared backoff waits on it, so that tests can give their own.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Sleep waits for d, or until ctx is done, and then returns ctx's error.
	Sleep(ctx context.Context, d time.Duration) error
}

// realClock is the Clock of the wall.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sharedBackoff is the backoff of Options.SharedBackoff: the pause every
// request of the client waits out, and the refusal that ends them all.
type sharedBackoff struct {
	clock Clock
	first time.Duration // the pause of a busy answer without Retry-After
	max   time.Duration // the longest pause

	mu      sync.Mutex
	until   time.Time // no attempt starts before this
	refused error     // once set, returned to every attempt
}

// hold pauses every request for the Retry-After of a busy answer's header,
// or the first backoff, at most b.max.
func (b *sharedBackoff) hold(header http.Header) {
	now := b.clock.Now()
	d, ok := parseRetryAfter(header.Get("Retry-After"), now)
	if !ok {
		d = b.first
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if until := now.Add(min(d, b.max)); until.After(b.until) {
		b.until = until
	}
}

// refuse ends every later request with err, the busy answer a request got
// after all its retries: the service is refusing the run, not one request.
func (b *sharedBackoff) refuse(err *APIError) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.refused == nil {
		b.refused = fmt.Errorf("not sent: the service refused an earlier request after its retries: %w", err)
	}
}

// wait waits until the pause is over, or returns the refusal.
func (b *sharedBackoff) wait(ctx context.Context) error {
	b.mu.Lock()
	refused, pause := b.refused, b.until.Sub(b.clock.Now())
	b.mu.Unlock()
	switch {
	case refused != nil:
		return refused
	case pause > 0:
		return b.clock.Sleep(ctx, pause)
	}
	return nil
}
