package client

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
)

// memoryCache is a TokenCache that records what it was told.
type memoryCache struct {
	mu    sync.Mutex
	token string
	calls []string
}

func (m *memoryCache) Get() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, "get")
	return m.token
}

func (m *memoryCache) Put(token string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, "put "+token)
	m.token = token
}

func (m *memoryCache) Drop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, "drop")
	m.token = ""
}

func (m *memoryCache) record() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.calls, ", ")
}

func withAccount(cache TokenCache) func(*Options) {
	return func(o *Options) {
		o.Token, o.ServiceAccount, o.ServiceKey, o.TokenCache = "", testAccount, testKey, cache
	}
}

func TestTokenCache_aCachedTokenSavesTheLogin(t *testing.T) {
	s := newLoginService(t, false)
	s.current.Store("cached-token")
	cache := &memoryCache{token: "cached-token"}
	c := newTestClient(t, s.URL, withAccount(cache))
	for range 2 {
		if _, _, err := c.UndeleteUser(context.Background(), "a@x.com"); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.logins.Load(); n != 0 {
		t.Errorf("%d logins, want none: the cache had a token", n)
	}
	if got := cache.record(); got != "get" {
		t.Errorf("cache calls = %s, want one get", got)
	}
}

func TestTokenCache_aLoginFillsTheCache(t *testing.T) {
	s := newLoginService(t, false)
	cache := &memoryCache{}
	c := newTestClient(t, s.URL, withAccount(cache))
	if _, _, err := c.UndeleteUser(context.Background(), "a@x.com"); err != nil {
		t.Fatal(err)
	}
	if got, want := cache.record(), "get, put "+testLoginToken+"-1"; got != want {
		t.Errorf("cache calls = %s, want %s", got, want)
	}
}

func TestTokenCache_aRefusedCachedTokenIsDroppedWithOneNewLogin(t *testing.T) {
	s := newLoginService(t, false)
	cache := &memoryCache{token: "revoked-token"}
	var log bytes.Buffer
	c := newTestClient(t, s.URL, withAccount(cache), func(o *Options) { o.Debug = &log })
	if _, _, err := c.UndeleteUser(context.Background(), "a@x.com"); err != nil {
		t.Fatal(err)
	}
	if n := s.logins.Load(); n != 1 {
		t.Errorf("%d logins, want exactly one", n)
	}
	if got, want := cache.record(), "get, drop, put "+testLoginToken+"-1"; got != want {
		t.Errorf("cache calls = %s, want %s", got, want)
	}
	if strings.Contains(log.String(), "revoked-token") {
		t.Errorf("the debug log shows the cached token:\n%s", log.String())
	}
}

func TestTokenCache_aTokenWithBadCharactersIsNotSent(t *testing.T) {
	s := newLoginService(t, false)
	cache := &memoryCache{token: "bad token\r\nX-Injected: 1"}
	c := newTestClient(t, s.URL, withAccount(cache))
	if _, _, err := c.UndeleteUser(context.Background(), "a@x.com"); err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Requests() {
		if r.Header.Get("X-Injected") != "" || strings.Contains(r.Header.Get("Authorization"), "bad") {
			t.Errorf("the cached token was sent: %v", r.Header)
		}
	}
}

func TestTokenCache_concurrentCallsLogInOnce(t *testing.T) {
	s := newLoginService(t, false)
	cache := &memoryCache{}
	c := newTestClient(t, s.URL, withAccount(cache))
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := c.UndeleteUser(context.Background(), "a@x.com"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := s.logins.Load(); n != 1 {
		t.Errorf("%d logins for 16 concurrent calls, want one", n)
	}
}

func TestTokenCache_notUsedForAGivenToken(t *testing.T) {
	svc := newFakeService(t, answerWith(401, `{"code":16,"message":"token expired"}`))
	cache := &memoryCache{token: "cached"}
	c := newTestClient(t, svc.URL, func(o *Options) { o.TokenCache = cache })
	if _, _, err := c.UndeleteUser(context.Background(), "a@x.com"); err == nil {
		t.Fatal("want the 401")
	}
	if got := cache.record(); got != "" {
		t.Errorf("cache calls = %s for a client with a token", got)
	}
}
