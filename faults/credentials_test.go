package faults

import (
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// noBus is an address where no D-Bus session bus answers: no keyring.
func noBus(t *testing.T) string { return "unix:path=" + filepath.Join(t.TempDir(), "no-bus") }

// cacheFiles returns the token files cached under home.
func cacheFiles(home string) []string {
	files, _ := filepath.Glob(filepath.Join(home, ".cache", "dbgov", "*.json"))
	return files
}

// TestStoredCredential_goesOnlyToItsURL: a credential kept in the config file
// by `auth login --insecure-storage` is sent to the URL it was checked
// against, never to another that --url or DBGOV_URL gives (exit 3, naming
// both); a credential given for the run goes where the run's URL says.
func TestStoredCredential_goesOnlyToItsURL(t *testing.T) {
	t.Parallel()
	answer := func(w http.ResponseWriter, r *http.Request, _ int) {
		if r.URL.Path == "/v1/users/me" {
			respond(w, http.StatusOK, userBody)
			return
		}
		respond(w, http.StatusOK, reviewConfigBody)
	}
	own, other := newServer(t, answer), newServer(t, answer)
	home := t.TempDir()
	env := map[string]string{"DBGOV_URL": own.URL, "DBUS_SESSION_BUS_ADDRESS": noBus(t)}
	run(t, opts{home: home, env: env, stdin: "stored-token\n"}, "auth", "login", "--token", "-", "--insecure-storage").expect(t, exitOK)
	delete(env, "DBGOV_URL")
	get := []string{"review-configs", "get", "x", "-o", "name"}
	run(t, opts{home: home, env: env}, get...).expect(t, exitOK)

	for _, tt := range []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"--url", env, []string{"--url", other.URL}},
		{"DBGOV_URL", map[string]string{"DBGOV_URL": other.URL, "DBUS_SESSION_BUS_ADDRESS": env["DBUS_SESSION_BUS_ADDRESS"]}, nil},
		{"another spelling of another URL", env, []string{"--url", other.URL + "/v1/"}},
	} {
		run(t, opts{home: home, env: tt.env}, append(get, tt.args...)...).expect(t, exitAuth).noPanic(t).
			stderrHas(t, "belongs to "+own.URL, "not sent to "+other.URL)
	}
	run(t, opts{home: home, env: env}, append(get, "--url", own.URL+"/")...).expect(t, exitOK)
	withToken := map[string]string{"DBGOV_TOKEN": "run-token", "DBUS_SESSION_BUS_ADDRESS": env["DBUS_SESSION_BUS_ADDRESS"]}
	run(t, opts{home: home, env: withToken}, append(get, "--url", other.URL)...).expect(t, exitOK)

	if got := bearers(other); !slices.Equal(got, []string{"run-token"}) {
		t.Errorf("the other service got the tokens %q, want the run's alone", got)
	}
	if got := bearers(own); len(got) != 3 || slices.ContainsFunc(got, func(s string) bool { return s != "stored-token" }) {
		t.Errorf("the service logged in to got the tokens %q, want the stored one thrice", got)
	}
}

// TestAuthLogout_removesTokensCachedUnderEverySpelling: runs that spell the
// service's URL differently share one cached token, which logout removes.
func TestAuthLogout_removesTokensCachedUnderEverySpelling(t *testing.T) {
	t.Parallel()
	srv := loginServer(t)
	home := t.TempDir()
	env := map[string]string{"DBGOV_SERVICE_ACCOUNT": "ci@x.com", "DBGOV_SERVICE_KEY": "k", "DBUS_SESSION_BUS_ADDRESS": noBus(t)}
	for _, url := range []string{srv.URL, srv.URL + "/", srv.URL + "/v1", strings.Replace(srv.URL, "http://", "HTTP://", 1) + "/v1/"} {
		env["DBGOV_URL"] = url
		run(t, opts{home: home, env: env}, "review-configs", "get", "x").expect(t, exitOK)
	}
	if files := cacheFiles(home); len(files) != 1 {
		t.Errorf("cache files %q, want one for every spelling", files)
	}
	env["DBGOV_URL"] = srv.URL + "/"
	run(t, opts{home: home, env: env}, "auth", "logout").expect(t, exitOK)
	if files := cacheFiles(home); len(files) != 0 {
		t.Errorf("cache files %q left after logout", files)
	}
}

// TestKeyring_lookingStartsNoProcess: without a session bus, looking for the
// keyring launches none (a bus started then would outlive dbgov, with a
// keyring daemon), and says in plain words that there is no keyring.
func TestKeyring_lookingStartsNoProcess(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the Secret Service is reached over D-Bus on Linux")
	}
	bin := t.TempDir()
	launched := filepath.Join(bin, "launched")
	script := "#!/bin/sh\necho \"$@\" >> " + launched + "\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "dbus-launch"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, always(http.StatusOK, userBody))
	env := map[string]string{"PATH": bin + string(os.PathListSeparator) + os.Getenv("PATH"), "DBGOV_URL": srv.URL}
	run(t, opts{env: env}, "auth", "status").noPanic(t)
	run(t, opts{env: env}, "auth", "logout").expect(t, exitOK).noPanic(t)
	res := run(t, opts{env: env, stdin: "tok\n"}, "auth", "login", "--token", "-").expect(t, exitFailure).noPanic(t)
	res.stderrHas(t, "no keyring is running on this machine")
	if strings.Contains(res.stderr, "dbus") || strings.Contains(res.stderr, "D-Bus") {
		t.Errorf("stderr shows the D-Bus detail without --debug: %s", res.stderr)
	}
	if _, err := os.Stat(launched); err == nil {
		t.Error("looking for the keyring ran dbus-launch")
	}
}

// TestNoTokenCache_readsTheWordsOfABoolean: DBGOV_NO_TOKEN_CACHE takes 1,
// true, yes, on (and 0, false, no, off); another value is exit 2.
func TestNoTokenCache_readsTheWordsOfABoolean(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		value  string
		cached bool
	}{{"1", false}, {"yes", false}, {"ON", false}, {"true", false}, {"0", true}, {"no", true}, {"off", true}} {
		t.Run(tt.value, func(t *testing.T) {
			t.Parallel()
			srv := loginServer(t)
			home := t.TempDir()
			env := map[string]string{"DBGOV_URL": srv.URL, "DBGOV_SERVICE_ACCOUNT": "ci@x.com", "DBGOV_SERVICE_KEY": "k",
				"DBGOV_NO_TOKEN_CACHE": tt.value, "DBUS_SESSION_BUS_ADDRESS": noBus(t)}
			run(t, opts{home: home, env: env}, "review-configs", "get", "x").expect(t, exitOK)
			if files := cacheFiles(home); (len(files) == 1) != tt.cached {
				t.Errorf("cache files %q, want a token cached: %v", files, tt.cached)
			}
		})
	}
	srv := loginServer(t)
	env := map[string]string{"DBGOV_URL": srv.URL, "DBGOV_TOKEN": "t", "DBGOV_NO_TOKEN_CACHE": "maybe"}
	run(t, opts{env: env}, "review-configs", "get", "x").expect(t, exitUsage).stderrHas(t, "DBGOV_NO_TOKEN_CACHE", `"maybe"`)
	srv.expectRequests(t, 0)
}

// TestAuthLogin_anEmptyAnswerAtThePromptIsRefused: Enter alone at the
// prompt for a secret is exit 2, before anything is sent; the next line
// typed is never read as the secret, echoed on the screen.
func TestAuthLogin_anEmptyAnswerAtThePromptIsRefused(t *testing.T) {
	t.Parallel()
	srv := newServer(t, always(http.StatusOK, userBody))
	env := map[string]string{"DBGOV_URL": srv.URL, "DBUS_SESSION_BUS_ADDRESS": noBus(t)}
	for _, args := range [][]string{{"--token", "-"}, {"--service-account", "ci@x.com", "--service-key", "-"}} {
		res := run(t, opts{env: env, typed: "\nsecret-typed-again\n"}, append([]string{"auth", "login", "--insecure-storage"}, args...)...)
		res.expect(t, exitUsage).noPanic(t).stderrHas(t, "no value for")
	}
	srv.expectRequests(t, 0)
}
