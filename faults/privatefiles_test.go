package faults

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// loginServer answers a login with a token and every other request with a
// review config.
func loginServer(t *testing.T) *server {
	return newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.URL.Path == "/v1/auth/login" {
			respond(w, http.StatusOK, fmt.Sprintf(`{"token": "fresh-%d"}`, n))
			return
		}
		respond(w, http.StatusOK, reviewConfigBody)
	})
}

// bearers returns the tokens the server received, in order.
func bearers(s *server) []string {
	var tokens []string
	for _, r := range s.requests() {
		if v := r.Header.Get("Authorization"); v != "" {
			tokens = append(tokens, strings.TrimPrefix(v, "Bearer "))
		}
	}
	return tokens
}

// TestPrivateFiles_plantedTokenCacheIsNotUsed plants what dbgov did not make
// where it caches a service account's token: the token there is never sent,
// nothing outside is changed, a warning says why, and the run neither hangs
// nor fills memory.
func TestPrivateFiles_plantedTokenCacheIsNotUsed(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	tests := []struct {
		name string
		// plant changes the cache directory dir, whose file from the first
		// run is file, and returns what the warning names.
		plant func(t *testing.T, dir, file string) string
	}{
		{"a file writable by others", func(t *testing.T, _, file string) string {
			os.WriteFile(file, []byte(`{"token": "planted", "until": "2999-01-01T00:00:00Z"}`), 0o600)
			os.Chmod(file, 0o666)
			return "writable by others"
		}},
		{"another user's file", func(t *testing.T, _, file string) string {
			if os.Geteuid() != 0 {
				t.Skip("only root can give a file away")
			}
			os.WriteFile(file, []byte(`{"token": "planted", "until": "2999-01-01T00:00:00Z"}`), 0o600)
			os.Chown(file, 65534, 65534)
			return "belongs to another user"
		}},
		{"a FIFO", func(t *testing.T, _, file string) string {
			os.Remove(file)
			if err := syscall.Mkfifo(file, 0o600); err != nil {
				t.Skip(err)
			}
			return "not a regular file"
		}},
		{"a link to /dev/zero", func(t *testing.T, _, file string) string {
			os.Remove(file)
			os.Symlink("/dev/zero", file)
			return "symbolic link"
		}},
		{"a linked directory", func(t *testing.T, dir, _ string) string {
			elsewhere := filepath.Join(t.TempDir(), "elsewhere")
			os.Mkdir(elsewhere, 0o755)
			os.Chmod(elsewhere, 0o755)
			os.WriteFile(filepath.Join(elsewhere, filepath.Base(dir)), nil, 0o644)
			os.RemoveAll(dir)
			os.Symlink(elsewhere, dir)
			t.Cleanup(func() {
				info, _ := os.Stat(elsewhere)
				entries, _ := os.ReadDir(elsewhere)
				if info.Mode().Perm() != 0o755 || len(entries) != 1 {
					t.Errorf("the link's target was changed: mode %v, %d entries", info.Mode().Perm(), len(entries))
				}
			})
			return "symbolic link"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := loginServer(t)
			home := t.TempDir()
			env := map[string]string{"DBGOV_URL": srv.URL, "DBGOV_SERVICE_ACCOUNT": "ci@x.com", "DBGOV_SERVICE_KEY": "k"}
			run(t, opts{home: home, env: env}, "review-configs", "get", "x").expect(t, exitOK)
			dir := filepath.Join(home, ".cache", "dbgov")
			files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			if len(files) != 1 {
				t.Fatalf("cache files %q after a login, want one", files)
			}
			why := tt.plant(t, dir, files[0])
			res := run(t, opts{home: home, env: env}, "review-configs", "get", "x").expect(t, exitOK).noPanic(t)
			res.stderrHas(t, "warning: token cache not used", why)
			if res.elapsed > 10*time.Second {
				t.Errorf("took %s", res.elapsed)
			}
			if got := bearers(srv); len(got) != 2 || got[1] == "planted" || got[1] == got[0] {
				t.Errorf("tokens sent %q, want a fresh login's on the second run", got)
			}
		})
	}
}

// TestPrivateFiles_configFileDbgovDidNotMakeIsNotUsed: a config file
// writable by others, another user's or a link is not read (its URL and
// token are not used, with a warning), nor written through its lock.
func TestPrivateFiles_configFileDbgovDidNotMakeIsNotUsed(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	srv := newServer(t, always(http.StatusOK, reviewConfigBody))
	content := "profiles:\n  default:\n    url: " + srv.URL + "\n    token: planted\n"
	tests := []struct {
		name  string
		plant func(t *testing.T, file string) string
	}{
		{"writable by others", func(t *testing.T, file string) string {
			os.Chmod(file, 0o666)
			return "is writable by others (run chmod go-w " + file + ")"
		}},
		{"writable by its group", func(t *testing.T, file string) string {
			os.Chmod(file, 0o620)
			return "is writable by others"
		}},
		{"another user's", func(t *testing.T, file string) string {
			if os.Geteuid() != 0 {
				t.Skip("only root can give a file away")
			}
			os.Chown(file, 65534, 65534)
			return "belongs to another user"
		}},
		{"a FIFO", func(t *testing.T, file string) string {
			os.Remove(file)
			if err := syscall.Mkfifo(file, 0o600); err != nil {
				t.Skip(err)
			}
			return "is not a regular file"
		}},
		{"a link", func(t *testing.T, file string) string {
			target := filepath.Join(t.TempDir(), "target.yaml")
			os.Rename(file, target)
			os.Symlink(target, file)
			return "is a symbolic link"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			file := filepath.Join(home, "cfg", "config.yaml")
			os.Mkdir(filepath.Dir(file), 0o700)
			os.WriteFile(file, []byte(content), 0o600)
			why := tt.plant(t, file)
			env := map[string]string{"DBGOV_CONFIG": file}
			run(t, opts{home: home, env: env}, "review-configs", "get", "x").expect(t, exitUsage).noPanic(t).
				stderrHas(t, "warning: config file not used: "+file+" "+why, "no service URL")
			run(t, opts{home: home, env: env}, "config", "set", "timeout", "5s").expect(t, exitUsage).stderrHas(t, why)
		})
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("the server got %d requests: the planted config was used", n)
	}
}

// TestPrivateFiles_configLockIsNeverFollowed: a link in place of the config
// file's lock is refused; what it points to is neither made nor changed.
func TestPrivateFiles_configLockIsNeverFollowed(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	file := filepath.Join(home, "cfg", "config.yaml")
	os.Mkdir(filepath.Dir(file), 0o700)
	target := filepath.Join(home, "victim")
	if err := os.Symlink(target, file+".lock"); err != nil {
		t.Skip(err)
	}
	run(t, opts{home: home, env: map[string]string{"DBGOV_CONFIG": file}}, "config", "set", "timeout", "5s").
		expect(t, exitFailure).noPanic(t).stderrHas(t, file+".lock is a symbolic link")
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Errorf("the lock's link was followed: %v", err)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the config file was written: %v", err)
	}
}

// TestPrivateFiles_plantedServiceDescriptionIsNotUsed: the cached answer of
// actuator/info (which decides the routes used) is not read when the file is
// writable by others: the service is asked again.
func TestPrivateFiles_plantedServiceDescriptionIsNotUsed(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	srv := newServer(t, always(http.StatusOK, `{"version": "3.21.1"}`))
	home := t.TempDir()
	env := map[string]string{"DBGOV_URL": srv.URL, "DBGOV_SERVER_VERSION": ""} // asked, not told
	run(t, opts{home: home, env: env}, "version").expect(t, exitOK)
	run(t, opts{home: home, env: env}, "version").expect(t, exitOK)
	srv.expectRequests(t, 1)
	files, _ := filepath.Glob(filepath.Join(home, ".cache", "dbgov", "server-*.json"))
	if len(files) != 1 {
		t.Fatalf("cached descriptions %q, want one", files)
	}
	os.Chmod(files[0], 0o666)
	if res := run(t, opts{home: home, env: env}, "version").expect(t, exitOK); !strings.Contains(res.stdout, "3.21.1") {
		t.Errorf("stdout %q lacks the service's release", res.stdout)
	}
	srv.expectRequests(t, 2)
}
