package credstore

import (
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

func TestMain(m *testing.M) {
	// The tests run on go-keyring's in-memory keyring, which needs no bus:
	// the address only stops dbgov looking for one.
	os.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
	os.Exit(m.Run())
}

// jwt returns a token shaped as a JWT whose payload is claims.
func jwt(claims string) string {
	return "eyJhbGciOiJub25lIn0." + base64.RawURLEncoding.EncodeToString([]byte(claims)) + ".c2ln"
}

func TestCredential_roundTripsThroughTheKeyring(t *testing.T) {
	keyring.MockInit()
	if c, err := Load("default"); c != nil || err != nil {
		t.Fatalf("Load of an empty keyring = %v, %v; want nothing", c, err)
	}
	want := Credential{URL: "https://gov.example.com", ServiceAccount: "ci@example.com", ServiceKey: "k3y"}
	if err := Save("default", want); err != nil {
		t.Fatal(err)
	}
	if c, err := Load("prod"); c != nil || err != nil {
		t.Errorf("another profile sees the credential: %v, %v", c, err)
	}
	got, err := Load("default")
	if err != nil || *got != want {
		t.Fatalf("Load = %+v, %v; want %+v", got, err, want)
	}
	if err := Remove("default"); err != nil {
		t.Fatal(err)
	}
	if err := Remove("default"); err != nil {
		t.Errorf("removing what is gone: %v", err)
	}
	if c, _ := Load("default"); c != nil {
		t.Errorf("Load after Remove = %+v", c)
	}
}

func TestCredential_aKeyringThatCannotBeReachedIsAnError(t *testing.T) {
	keyring.MockInitWithError(errors.New("no D-Bus session"))
	t.Cleanup(keyring.MockInit)
	if _, err := Load("default"); err == nil || !strings.Contains(err.Error(), "no keyring is running on this machine") ||
		strings.Contains(err.Error(), "D-Bus") || !strings.Contains(errors.Unwrap(errors.Unwrap(err)).Error(), "no D-Bus session") {
		t.Errorf("Load = %v, want the keyring's error in plain words, its detail beneath", err)
	}
	if err := Save("default", Credential{Token: "t"}); err == nil {
		t.Error("Save succeeded without a keyring")
	}
	if err := Remove("default"); err == nil {
		t.Error("Remove succeeded without a keyring")
	}
}

func TestSameService_oneSpellingForEach(t *testing.T) {
	tests := []struct {
		url  string
		want bool
	}{
		{"https://gov.example.com", true},
		{"https://gov.example.com/v1", true},
		{"https://gov.example.com/v1/", true},
		{"https://GOV.example.com:443/", true},
		{"HTTPS://gov.example.com", true},
		{"http://gov.example.com", false},
		{"https://evil.example.com", false},
		{"https://gov.example.com:8443", false},
	}
	for _, tt := range tests {
		if got := SameService(tt.url) == SameService("https://gov.example.com/"); got != tt.want {
			t.Errorf("%q is the same service: %v, want %v", tt.url, got, tt.want)
		}
	}
}

func TestExpiry_readsTheExpClaim(t *testing.T) {
	tests := []struct {
		name  string
		token string
		want  int64 // 0: none
	}{
		{"integer", jwt(`{"exp":1700000000}`), 1700000000},
		{"fraction", jwt(`{"sub":"x","exp":1700000000.5}`), 1700000000},
		{"padded", strings.Replace(jwt(`{"exp":1700000000}`), ".c2ln", "==.c2ln", 1), 1700000000},
		{"no exp", jwt(`{"sub":"x"}`), 0},
		{"exp not a number", jwt(`{"exp":"soon"}`), 0},
		{"not JSON", jwt(`exp`), 0},
		{"not base64", "a.%%%.c", 0},
		{"opaque", "dev-admin-token", 0},
		{"two parts", "a.b", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Expiry(tt.token)
			if ok != (tt.want != 0) || (ok && got.Unix() != tt.want) {
				t.Errorf("Expiry = %v, %v; want %d", got, ok, tt.want)
			}
		})
	}
}

// caches returns a token cache of each kind, on a fresh mock keyring and directory.
func caches(t *testing.T, url, account, key string) map[string]*TokenCache {
	keyring.MockInit()
	dir := filepath.Join(t.TempDir(), "dbgov")
	return map[string]*TokenCache{
		"keyring": NewTokenCache(true, "", url, account, key),
		"file":    NewTokenCache(false, dir, url, account, key),
	}
}

func TestTokenCache_keepsATokenUntilAMinuteBeforeItExpires(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	tests := []struct {
		name  string
		token string
		after time.Duration
		want  bool
	}{
		{"fresh", jwt(fmt.Sprintf(`{"exp":%d}`, now.Add(time.Hour).Unix())), 0, true},
		{"61 seconds left", jwt(fmt.Sprintf(`{"exp":%d}`, now.Add(time.Hour).Unix())), time.Hour - 61*time.Second, true},
		{"59 seconds left", jwt(fmt.Sprintf(`{"exp":%d}`, now.Add(time.Hour).Unix())), time.Hour - 59*time.Second, false},
		{"short-lived", jwt(fmt.Sprintf(`{"exp":%d}`, now.Add(2*time.Second).Unix())), 0, false},
		{"no exp, 49 minutes on", "opaque-token", 49 * time.Minute, true},
		{"no exp, 50 minutes on", "opaque-token", 50 * time.Minute, false},
	}
	for _, tt := range tests {
		for kind, c := range caches(t, "https://gov.example.com", "ci@example.com", "k3y") {
			t.Run(tt.name+", "+kind, func(t *testing.T) {
				c.now = func() time.Time { return now }
				c.Put(tt.token)
				c.now = func() time.Time { return now.Add(tt.after) }
				if got := c.Get(); (got == tt.token) != tt.want || (got != "" && got != tt.token) {
					t.Errorf("Get = %q, want the token: %v", got, tt.want)
				}
			})
		}
	}
}

func TestTokenCache_isKeptPerServiceAccountAndKey(t *testing.T) {
	keyring.MockInit()
	dir := t.TempDir()
	for _, kind := range []struct {
		kr  bool
		dir string
	}{{true, ""}, {false, dir}} {
		NewTokenCache(kind.kr, kind.dir, "https://a.example.com", "ci@example.com", "k1").Put("token-1")
		for _, other := range []*TokenCache{
			NewTokenCache(kind.kr, kind.dir, "https://b.example.com", "ci@example.com", "k1"),
			NewTokenCache(kind.kr, kind.dir, "https://a.example.com", "cd@example.com", "k1"),
			NewTokenCache(kind.kr, kind.dir, "https://a.example.com", "ci@example.com", "k2"),
		} {
			if got := other.Get(); got != "" {
				t.Errorf("another URL, account or key gets %q", got)
			}
		}
		if got := NewTokenCache(kind.kr, kind.dir, "https://a.example.com", "ci@example.com", "k1").Get(); got != "token-1" {
			t.Errorf("the same account gets %q, want token-1", got)
		}
	}
}

func TestTokenCache_dropForgetsTheToken(t *testing.T) {
	for kind, c := range caches(t, "https://gov.example.com", "ci@example.com", "k3y") {
		t.Run(kind, func(t *testing.T) {
			c.Put("token-1")
			c.Drop()
			if got := c.Get(); got != "" {
				t.Errorf("Get after Drop = %q", got)
			}
			if got := c.Last(); got != "" {
				t.Errorf("Last after Drop = %q", got)
			}
			c.Drop() // nothing left to drop
		})
	}
}

func TestTokenCache_fileIsPrivateAndHoldsNoKey(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	dir := filepath.Join(t.TempDir(), "cache", "dbgov")
	c := NewTokenCache(false, dir, "https://gov.example.com", "ci@example.com", "the-service-key")
	c.Put("token-1")
	info, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %o, want 700", info.Mode().Perm())
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("cache directory holds %v (%v), want one file", entries, err)
	}
	path := filepath.Join(dir, entries[0].Name())
	if info, err = os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v (%v), want 600", info.Mode().Perm(), err)
	}
	data, _ := os.ReadFile(path)
	for _, s := range []string{"the-service-key", "ci@example.com"} {
		if strings.Contains(string(data)+path, s) {
			t.Errorf("the cache file or its name holds %q", s)
		}
	}
	if !strings.Contains(string(data), "token-1") {
		t.Errorf("the cache file does not hold the token: %s", data)
	}
}

func TestTokenCache_aFailingStoreOnlyCostsALogin(t *testing.T) {
	keyring.MockInitWithError(errors.New("locked"))
	t.Cleanup(keyring.MockInit)
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*TokenCache{
		"keyring":      NewTokenCache(true, "", "u", "a", "k"),
		"no directory": NewTokenCache(false, filepath.Join(blocked, "dbgov"), "u", "a", "k"),
		"this run":     NewTokenCache(false, "", "u", "a", "k"),
	} {
		t.Run(name, func(t *testing.T) {
			c.Put("token-1")
			if got := c.Get(); got != "" {
				t.Errorf("Get = %q from a store that keeps nothing", got)
			}
			if got := c.Last(); got != "token-1" {
				t.Errorf("Last = %q, want the token this run put", got)
			}
			c.Drop()
		})
	}
}

func TestTokenCache_concurrentUse(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Two caches of one account stand for two processes.
			c := NewTokenCache(false, dir, "https://gov.example.com", "ci@example.com", "k3y")
			for j := range 20 {
				c.Put(fmt.Sprintf("token-%d-%d", i, j))
				if got := c.Get(); got != "" && !strings.HasPrefix(got, "token-") {
					t.Errorf("Get = %q, a torn write", got)
				}
			}
		}()
	}
	wg.Wait()
	if got := NewTokenCache(false, dir, "https://gov.example.com", "ci@example.com", "k3y").Get(); !strings.HasPrefix(got, "token-") {
		t.Errorf("after the writers, Get = %q", got)
	}
}

func TestCacheDir_followsXDG(t *testing.T) {
	env := func(k, v string) func(string) string {
		return func(name string) string {
			if name == k {
				return v
			}
			return ""
		}
	}
	if got := CacheDir(env("XDG_CACHE_HOME", "/x/cache")); got != filepath.Join("/x/cache", "dbgov") {
		t.Errorf("with XDG_CACHE_HOME: %s", got)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "/home/a")
	want, err := os.UserCacheDir()
	if err != nil {
		t.Skip(err)
	}
	for _, getenv := range []func(string) string{env("XDG_CACHE_HOME", "relative"), env("", "")} {
		if got := CacheDir(getenv); got != filepath.Join(want, "dbgov") {
			t.Errorf("CacheDir = %s, want the user's cache directory's dbgov", got)
		}
	}
}
