package e2e_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

const (
	botAccount = "ci-bot@example.com"
	botKey     = "dev-ci-bot-key"
	loginLine  = "POST /v1/auth/login 200"
)

// keyringCLI is a cli for srv without credentials, whose keyring is ks (or,
// with ks nil, a bus where no keyring answers), its cache under its directory.
func keyringCLI(t *testing.T, srv *server, ks *secretService) *cli {
	t.Helper()
	c := newCLI(t, srv).without("DBGOV_TOKEN")
	bus := "unix:path=" + filepath.Join(c.dir, "no-bus-here")
	if ks != nil {
		bus = ks.address
	}
	return c.with("DBUS_SESSION_BUS_ADDRESS", bus, "XDG_CACHE_HOME", filepath.Join(c.dir, "cache"))
}

// count returns how many of reqs are want.
func count(reqs []string, want string) int {
	n := 0
	for _, r := range reqs {
		if r == want {
			n++
		}
	}
	return n
}

// filesHolding returns the files under dir whose content holds secret.
func filesHolding(t *testing.T, dir, secret string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSocket != 0 {
			return err
		}
		if data, err := os.ReadFile(path); err == nil && strings.Contains(string(data), secret) {
			found = append(found, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// noSecretIn fails the test if any result printed secret.
func noSecretIn(t *testing.T, secret string, results ...result) {
	t.Helper()
	for _, r := range results {
		if strings.Contains(r.stdout+r.stderr, secret) {
			t.Errorf("the output shows a secret\n%s", r.dump())
		}
	}
}

func TestAuthLogin_thenTwoCommandsLogInOnceInTotal(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	ks := startSecretService(t)
	c := keyringCLI(t, srv, ks)
	var results []result
	sent := srv.sent(t, func() {
		results = append(results,
			c.runStdin(t, botKey+"\n", "auth", "login", "--service-account", botAccount, "--service-key", "-").expect(t, 0),
			c.run(t, "users", "batch-get", "alice@example.com", "-o", "name").expect(t, 0),
			c.run(t, "review-configs", "get", "sql-review-prod", "-o", "name").expect(t, 0))
	})
	if n := count(sent, loginLine); n != 1 {
		t.Errorf("%d logins for a login and two commands, want one: %q", n, sent)
	}
	results[0].stderrHas(t, "Logged in to "+srv.url+" as "+botAccount, "keyring")
	results[1].stdoutIs(t, "users/alice@example.com\n")

	status := c.run(t, "auth", "status", "-o", "json").expect(t, 0)
	results = append(results, status, c.run(t, "auth", "status").expect(t, 0))
	st := status.jsonOut(t)
	for k, want := range map[string]any{"email": botAccount, "userType": "SERVICE_ACCOUNT", "credentialSource": "keyring",
		"storage": "keyring", "insecureStorage": false, "urlSource": "environment", "profile": "default"} {
		if st[k] != want {
			t.Errorf("status %s = %v, want %v", k, st[k], want)
		}
	}
	held := ks.secrets()
	if len(held) != 2 || !strings.Contains(held["dbgov/profile:default"], botKey) {
		t.Errorf("the keyring holds %v, want the credential of the profile and one token", held)
	}
	var cached struct{ Token string }
	for name, v := range held {
		if strings.HasPrefix(name, "dbgov/token:") && (json.Unmarshal([]byte(v), &cached) != nil || cached.Token == "") {
			t.Errorf("the keyring's token entry is %q", v)
		}
	}
	for _, secret := range []string{botKey, cached.Token} {
		if found := filesHolding(t, c.dir, secret); len(found) != 0 {
			t.Errorf("files hold a secret: %q", found)
		}
		noSecretIn(t, secret, results...)
	}
}

func TestAuthLogin_anExpiredCachedTokenLeadsToOneNewLogin(t *testing.T) {
	t.Parallel()
	// Tokens of two seconds are within a minute of expiring as soon as they are issued.
	srv := startServer(t, "--token-lifetime", "2s")
	ks := startSecretService(t)
	c := keyringCLI(t, srv, ks)
	c.runStdin(t, botKey+"\n", "auth", "login", "--service-account", botAccount, "--service-key", "-").expect(t, 0)
	for range 2 {
		sent := srv.sent(t, func() { c.run(t, "users", "batch-get", "alice@example.com").expect(t, 0) })
		if want := []string{loginLine, "GET /v1/users:batchGet 200"}; !slices.Equal(sent, want) {
			t.Errorf("requests = %q, want one new login and no 401: %q", sent, want)
		}
	}
}

// forgedToken is a token the service never issued, with a far expiry: one
// the service revoked, as far as dbgov can tell.
func forgedToken() string {
	claims := fmt.Sprintf(`{"sub":"users/%s","exp":%d}`, botAccount, time.Now().Add(time.Hour).Unix())
	return "eyJhbGciOiJub25lIn0." + base64.RawURLEncoding.EncodeToString([]byte(claims)) + ".revoked"
}

func TestAuthLogin_aRevokedCachedTokenLeadsToOneNewLogin(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	wantSent := []string{"GET /v1/users:batchGet 401", loginLine, "GET /v1/users:batchGet 200"}

	t.Run("in the keyring", func(t *testing.T) {
		ks := startSecretService(t)
		c := keyringCLI(t, srv, ks)
		c.runStdin(t, botKey+"\n", "auth", "login", "--service-account", botAccount, "--service-key", "-").expect(t, 0)
		var name string
		for k := range ks.secrets() {
			if strings.HasPrefix(k, "dbgov/token:") {
				name = k
			}
		}
		ks.set(t, name, fmt.Sprintf(`{"token":%q,"until":%q}`, forgedToken(), time.Now().Add(time.Hour).Format(time.RFC3339)))
		sent := srv.sent(t, func() { c.run(t, "users", "batch-get", "alice@example.com").expect(t, 0) })
		if !slices.Equal(sent, wantSent) {
			t.Errorf("requests = %q, want %q", sent, wantSent)
		}
		if held := ks.secrets()[name]; strings.Contains(held, "revoked") {
			t.Errorf("the refused token is still cached: %s", held)
		}
	})

	t.Run("in a file, for credentials from the environment", func(t *testing.T) {
		c := keyringCLI(t, srv, nil).with("DBGOV_SERVICE_ACCOUNT", botAccount, "DBGOV_SERVICE_KEY", botKey)
		c.run(t, "users", "batch-get", "alice@example.com").expect(t, 0)
		files, _ := filepath.Glob(filepath.Join(c.dir, "cache", "dbgov", "*.json"))
		if len(files) != 1 {
			t.Fatalf("cache files %q, want one", files)
		}
		if runtime.GOOS != "windows" {
			for path, want := range map[string]os.FileMode{files[0]: 0o600, filepath.Dir(files[0]): 0o700} {
				if info, err := os.Stat(path); err != nil || info.Mode().Perm() != want {
					t.Errorf("%s: mode %v (%v), want %o", path, info.Mode().Perm(), err, want)
				}
			}
		}
		entry, _ := json.Marshal(map[string]string{"token": forgedToken(), "until": time.Now().Add(time.Hour).Format(time.RFC3339)})
		if err := os.WriteFile(files[0], entry, 0o600); err != nil {
			t.Fatal(err)
		}
		sent := srv.sent(t, func() { c.run(t, "users", "batch-get", "alice@example.com").expect(t, 0) })
		if !slices.Equal(sent, wantSent) {
			t.Errorf("requests = %q, want %q", sent, wantSent)
		}
		sent = srv.sent(t, func() { c.run(t, "users", "batch-get", "alice@example.com").expect(t, 0) })
		if want := []string{"GET /v1/users:batchGet 200"}; !slices.Equal(sent, want) {
			t.Errorf("requests after the new login = %q, want %q", sent, want)
		}
	})
}

func TestAuthLogin_failsClosedWithoutAKeyring(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("a keyring that cannot be reached is made here by a D-Bus address with nothing behind it")
	}
	srv := startServer(t)
	c := keyringCLI(t, srv, nil)
	var r result
	sent := srv.sent(t, func() {
		r = c.runStdin(t, botKey+"\n", "auth", "login", "--service-account", botAccount, "--service-key", "-").expect(t, 1)
	})
	r.stdoutEmpty(t)
	r.stderrIsErrorLine(t, "no keyring can be reached", "--insecure-storage")
	if len(sent) != 0 {
		t.Errorf("requests sent although nothing could be kept: %q", sent)
	}
	if found := filesHolding(t, c.dir, botKey); len(found) != 0 {
		t.Errorf("files hold the key: %q", found)
	}

	r = c.runStdin(t, botKey+"\n", "auth", "login", "--service-account", botAccount, "--service-key", "-", "--insecure-storage").expect(t, 0)
	r.stderrHas(t, "plain text")
	if found := filesHolding(t, c.dir, botKey); !slices.Equal(found, []string{c.env["DBGOV_CONFIG"]}) {
		t.Errorf("the key is in %q, want the config file alone", found)
	}
	c.run(t, "auth", "status").expect(t, 0).stdoutHas(t, "Storage:       config file "+c.env["DBGOV_CONFIG"]+", in plain text")
	noSecretIn(t, botKey, r)
}

func TestAuthLogout_removesEverything(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	ks := startSecretService(t)
	c := keyringCLI(t, srv, ks)
	c.runStdin(t, botKey+"\n", "auth", "login", "--service-account", botAccount, "--service-key", "-").expect(t, 0)
	c.run(t, "users", "batch-get", "alice@example.com").expect(t, 0)
	c.with("DBGOV_SERVICE_ACCOUNT", botAccount, "DBGOV_SERVICE_KEY", botKey).run(t, "users", "batch-get", "alice@example.com").expect(t, 0)
	if len(ks.secrets()) == 0 || len(filesHolding(t, filepath.Join(c.dir, "cache"), "token")) == 0 {
		t.Fatal("nothing was kept to remove")
	}

	r := c.with("DBGOV_SERVICE_ACCOUNT", botAccount, "DBGOV_SERVICE_KEY", botKey).run(t, "auth", "logout").expect(t, 0)
	r.stdoutEmpty(t)
	if held := ks.secrets(); len(held) != 0 {
		t.Errorf("the keyring still holds %v", held)
	}
	if found := filesHolding(t, c.dir, "token"); len(found) != 0 {
		t.Errorf("tokens left in %q", found)
	}
	c.run(t, "users", "batch-get", "alice@example.com").expect(t, 3).stderrHas(t, "dbgov auth login")
	c.run(t, "auth", "status").expect(t, 3).stdoutHas(t, "Credential:    none")
}

// TestAuthLogin_gnomeKeyring runs login, a command, status and logout on a
// real Secret Service, gnome-keyring in a D-Bus session of its own, where the
// machine has them and DBGOV_TEST_GNOME_KEYRING=1 asks for it: the daemon
// is slow to come up on a loaded machine, which would make the suite flaky.
func TestAuthLogin_gnomeKeyring(t *testing.T) {
	t.Parallel()
	if os.Getenv("DBGOV_TEST_GNOME_KEYRING") != "1" {
		t.Skip("set DBGOV_TEST_GNOME_KEYRING=1 to run against a real gnome-keyring")
	}
	for _, tool := range []string{"dbus-run-session", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	srv := startServer(t)
	c := newCLI(t, srv).without("DBGOV_TOKEN").with("XDG_DATA_HOME", filepath.Join(t.TempDir(), "data"),
		"PATH", os.Getenv("PATH"), "DBGOV", dbgovPath, "ACCOUNT", botAccount, "KEY", botKey)
	script := `printf unlock | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 90
printf '%s\n' "$KEY" | "$DBGOV" auth login --service-account "$ACCOUNT" --service-key - || exit 91
"$DBGOV" users batch-get alice@example.com -o name || exit 92
"$DBGOV" auth status -o json || exit 93
"$DBGOV" auth logout 2>/dev/null || exit 94
"$DBGOV" auth status >/dev/null 2>&1
echo "status after logout: $?"`
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	var out []byte
	var err error
	sent := srv.sent(t, func() {
		cmd := exec.CommandContext(ctx, "dbus-run-session", "--", "sh", "-c", script)
		cmd.Dir = c.dir
		for k, v := range c.env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err = cmd.Output()
	})
	if err != nil {
		t.Fatalf("the session failed: %v\n%s", err, out)
	}
	for _, want := range []string{"users/alice@example.com\n", `"credentialSource": "keyring"`, "status after logout: 3\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := count(sent, loginLine); n != 1 {
		t.Errorf("%d logins, want one: %q", n, sent)
	}
	if strings.Contains(string(out), botKey) {
		t.Errorf("the output shows the key:\n%s", out)
	}
}
