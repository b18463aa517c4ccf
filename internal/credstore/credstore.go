// Package credstore keeps credentials and service-account tokens between
// runs, in the operating system's keyring or in private files.
package credstore

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/zalando/go-keyring"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/safefile"
)

// service names dbgov's entries in the keyring.
const service = "dbgov"

// KeyringError is a failure of the keyring told in plain words; Detail is
// what the keyring said, for --debug.
type KeyringError struct {
	Plain  string
	Detail error
}

func (e *KeyringError) Error() string { return e.Plain }
func (e *KeyringError) Unwrap() error { return e.Detail }

// keyringDo runs op, a call of the keyring, bounded in time: a keyring may
// wait for a person who is not there.
func keyringDo(op func() (string, error)) (string, error) {
	if err := findBus(); err != nil {
		return "", &KeyringError{"no keyring is running on this machine", err}
	}
	var v string
	done := make(chan error, 1)
	go func() {
		var err error
		v, err = op()
		done <- err
	}()
	select {
	case err := <-done:
		var answer dbus.Error
		switch {
		case err == nil || errors.Is(err, keyring.ErrNotFound):
			return v, err
		case errors.As(err, &answer) && answer.Name != "org.freedesktop.DBus.Error.ServiceUnknown":
			return "", &KeyringError{"the keyring refused (--debug says why)", err}
		}
		return "", &KeyringError{"no keyring is running on this machine", err}
	case <-time.After(5 * time.Second):
		return "", errors.New("the keyring did not answer within 5s")
	}
}

// Credential is what `dbgov auth login` keeps for a profile: a token, or a
// service account and its key, for one service URL.
type Credential struct {
	URL            string `json:"url"`
	Token          string `json:"token,omitempty"`
	ServiceAccount string `json:"serviceAccount,omitempty"`
	ServiceKey     string `json:"serviceKey,omitempty"`
}

// SameService returns raw in the one spelling the client gives every
// spelling of a service's URL (see client.CheckBaseURL); text that is no
// service URL as it is.
func SameService(raw string) string {
	if base, err := client.CheckBaseURL(strings.TrimSpace(raw)); err == nil {
		return base
	}
	return raw
}

// Load returns the credential kept for profile, nil when there is none; an
// error says the keyring cannot be reached.
func Load(profile string) (*Credential, error) {
	v, err := keyringDo(func() (string, error) { return keyring.Get(service, "profile:"+profile) })
	if errors.Is(err, keyring.ErrNotFound) {
		return nil, nil
	}
	var c Credential
	if err == nil && json.Unmarshal([]byte(v), &c) != nil {
		err = errors.New("its entry for the profile is not dbgov's")
	}
	if err != nil {
		return nil, fmt.Errorf("read the keyring: %w", err)
	}
	return &c, nil
}

// Save keeps c for profile in the keyring.
func Save(profile string, c Credential) error {
	v, _ := json.Marshal(c)
	if _, err := keyringDo(func() (string, error) { return "", keyring.Set(service, "profile:"+profile, string(v)) }); err != nil {
		return fmt.Errorf("keep the credential in the keyring: %w", err)
	}
	return nil
}

// Remove deletes the credential kept for profile, if any.
func Remove(profile string) error {
	_, err := keyringDo(func() (string, error) { return "", keyring.Delete(service, "profile:"+profile) })
	if err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("remove the credential from the keyring: %w", err)
	}
	return nil
}

// TokenCache keeps the token of one service account, URL and key (hashed) in
// the keyring, a 0600 file, or this run only. It is safe for concurrent use;
// a failure to read or write it only costs a login.
type TokenCache struct {
	inKeyring bool
	path      string // the file, when not in the keyring; "" for none
	name      string // the hash of URL, account and key
	now       func() time.Time
	// Warn, when not nil, is told once why a cache file or directory that
	// dbgov would not have made is left alone.
	Warn func(msg string)

	mu     sync.Mutex
	last   string // the token last read or put
	warned bool
}

// maxEntry bounds what Get reads of a cache file.
const maxEntry = 64 << 10

// NewTokenCache returns the cache of account's tokens at url for key: in the
// keyring, else in a file of dir unless dir is "". Every spelling of one
// service's URL shares the cache.
func NewTokenCache(inKeyring bool, dir, url, account, key string) *TokenCache {
	keyHash := sha256.Sum256([]byte(key))
	id := sha256.Sum256([]byte(SameService(url) + "\n" + account + "\n" + hex.EncodeToString(keyHash[:])))
	c := &TokenCache{inKeyring: inKeyring, name: "token:" + hex.EncodeToString(id[:]), now: time.Now}
	if !inKeyring && dir != "" {
		c.path = filepath.Join(dir, hex.EncodeToString(id[:])+".json")
	}
	return c
}

// cachedToken is an entry of the cache: a token used until a minute before
// it expires, or without an exp claim until 50 minutes after the login.
type cachedToken struct {
	Token string    `json:"token"`
	Until time.Time `json:"until"`
}

// Get returns the kept token while it may be used, else "".
func (c *TokenCache) Get() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var raw []byte
	var err error
	if c.inKeyring {
		var v string
		v, err = keyringDo(func() (string, error) { return keyring.Get(service, c.name) })
		raw = []byte(v)
	} else {
		raw, _, err = safefile.ReadFile(c.path, maxEntry)
		c.warn(err)
	}
	var t cachedToken
	if err != nil || json.Unmarshal(raw, &t) != nil || !c.now().Before(t.Until) {
		return ""
	}
	c.last = t.Token
	return t.Token
}

// Put keeps token, which a login just returned.
func (c *TokenCache) Put(token string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last = token
	t := cachedToken{Token: token, Until: c.now().Add(50 * time.Minute)}
	if exp, ok := Expiry(token); ok {
		t.Until = exp.Add(-time.Minute)
	}
	raw, _ := json.Marshal(t)
	switch {
	case c.inKeyring:
		_, _ = keyringDo(func() (string, error) { return "", keyring.Set(service, c.name, string(raw)) })
	case c.path != "":
		c.warn(safefile.WriteFile(c.path, raw))
	}
}

// Drop forgets the kept token: the service refused it, or the user logged out.
func (c *TokenCache) Drop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last = ""
	if c.inKeyring {
		_, _ = keyringDo(func() (string, error) { return "", keyring.Delete(service, c.name) })
	} else if c.path != "" {
		c.warn(safefile.Remove(c.path))
	}
}

// warn tells Warn, once, of an unsafe cache file or directory; c.mu is held.
func (c *TokenCache) warn(err error) {
	var unsafe *safefile.UnsafeError
	if errors.As(err, &unsafe) && c.Warn != nil && !c.warned {
		c.warned = true
		c.Warn("token cache not used: " + unsafe.Error())
	}
}

// Last returns the token last read or put in this run; "" for none or a nil cache.
func (c *TokenCache) Last() string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// Expiry reads the exp claim of a token shaped as a JWT.
func Expiry(token string) (time.Time, bool) {
	parts := strings.Split(token, ".")
	var claims struct{ Exp *float64 }
	if len(parts) != 3 {
		return time.Time{}, false
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil || json.Unmarshal(payload, &claims) != nil || claims.Exp == nil {
		return time.Time{}, false
	}
	return time.Unix(int64(*claims.Exp), 0), true
}

// CacheDir is the directory of the token files: $XDG_CACHE_HOME/dbgov (read
// through getenv), else dbgov in the user's cache directory.
func CacheDir(getenv func(string) string) string {
	dir := getenv("XDG_CACHE_HOME")
	if !filepath.IsAbs(dir) {
		if dir, _ = os.UserCacheDir(); dir == "" {
			return ""
		}
	}
	return filepath.Join(dir, "dbgov")
}
