package faults

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestTrust_loginRedirectNeverFollowed(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			other := newServer(t, always(http.StatusOK, `{"token": "other-host-token"}`))
			srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				http.Redirect(w, r, other.URL+r.URL.Path, status)
			})
			env := map[string]string{"DBGOV_URL": srv.URL, "DBGOV_SERVICE_ACCOUNT": serviceAccount, "DBGOV_SERVICE_KEY": leakServiceKey}
			for _, args := range [][]string{{"review-configs", "get", "x"}, {"review-configs", "get", "x", "-o", "json", "--debug"}} {
				res := run(t, opts{env: env}, args...).expect(t, exitFailure).noPanic(t).stderrHas(t, "redirected the login", "not followed")
				expectNoLeak(t, res)
			}
			if n := len(other.requests()); n != 0 {
				t.Errorf("the other host got %d requests: the service key followed the redirect", n)
			}
		})
	}
}

func TestTrust_answersAreCapped(t *testing.T) {
	t.Parallel()
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	zw.Write(bytes.Repeat([]byte(" "), 300<<20)) // 300 MiB of spaces, 300 kB sent
	zw.Close()
	endless := func(w http.ResponseWriter, r *http.Request, _ int) {
		w.Header().Set("Content-Type", "application/json")
		chunk := bytes.Repeat([]byte(" "), 256<<10)
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}
	tests := []struct {
		name string
		h    handlerFunc
		env  map[string]string
		args []string
		want string
	}{
		{"endless body", endless, nil, []string{"--max-response-size", "10MB"}, "answer larger than 10000000"},
		{"endless error body", func(w http.ResponseWriter, r *http.Request, n int) {
			w.WriteHeader(http.StatusInternalServerError)
			endless(w, r, n)
		}, nil, []string{"--max-response-size", "1MiB"}, "answer larger than 1MiB"},
		{"gzip bomb, default limit", func(w http.ResponseWriter, _ *http.Request, _ int) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb.Bytes())
		}, nil, nil, "answer larger than 256MiB"},
		{"declared length", func(w http.ResponseWriter, _ *http.Request, _ int) {
			w.Header().Set("Content-Length", "2000000")
			w.WriteHeader(http.StatusOK)
		}, nil, []string{"--max-response-size", "1048576", "-o", "json"}, "answer larger than 1MiB"},
		{"limit from the environment", func(w http.ResponseWriter, _ *http.Request, _ int) {
			respond(w, http.StatusOK, `{"name": "`+strings.Repeat("x", 2000)+`"}`)
		}, map[string]string{"DBGOV_MAX_RESPONSE_SIZE": "1kB"}, nil, "answer larger than 1000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, tt.h)
			args := append([]string{"review-configs", "get", "x", "--timeout", "20s"}, tt.args...)
			res := run(t, opts{env: withURL(srv, tt.env)}, args...).expect(t, exitFailure).noPanic(t).stderrHas(t, "invalid response: "+tt.want)
			if res.stdout != "" {
				t.Errorf("stdout: %q, want nothing", clip(res.stdout))
			}
			srv.expectRequests(t, 1)
		})
	}
	t.Run("a bad size is a usage error", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t, always(http.StatusOK, reviewConfigBody))
		run(t, opts{env: withURL(srv, nil)}, "review-configs", "get", "x", "--max-response-size", "lots").expect(t, exitUsage).noPanic(t)
		srv.expectRequests(t, 0)
	})
}

func TestTrust_invalidURLSendsNothing(t *testing.T) {
	t.Parallel()
	srv := newServer(t, always(http.StatusOK, reviewConfigBody))
	home := t.TempDir()
	config := filepath.Join(home, "config.yaml")
	os.WriteFile(config, []byte("profiles:\n  default:\n    url: "+srv.URL+"/?debug=1\n    token: t\n"), 0o600)
	tests := []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"port out of range", map[string]string{"DBGOV_TOKEN": "t"}, []string{"--url", "http://127.0.0.1:65536"}},
		{"query from the environment", map[string]string{"DBGOV_TOKEN": "t", "DBGOV_URL": srv.URL + "?a=1"}, nil},
		{"fragment", map[string]string{"DBGOV_TOKEN": "t"}, []string{"--url", srv.URL + "#top"}},
		{"query from the config file", map[string]string{"DBGOV_CONFIG": config}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := run(t, opts{env: tt.env}, append([]string{"review-configs", "get", "x"}, tt.args...)...).expect(t, exitUsage).noPanic(t)
			if res.elapsed > 5*time.Second {
				t.Errorf("took %s: the URL was tried", res.elapsed)
			}
		})
	}
	srv.expectRequests(t, 0)
}

func TestTrust_oddAnswersAreFailuresOfTheService(t *testing.T) {
	t.Parallel()
	t.Run("a redirect loop is exit 1", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
			http.Redirect(w, r, "/v1/reviewConfigs/loop", http.StatusFound)
		})
		run(t, opts{env: withURL(srv, nil)}, "review-configs", "get", "x").expect(t, exitFailure).noPanic(t).stderrHas(t, "redirects")
	})
	for _, status := range []int{600, 999} {
		t.Run(fmt.Sprintf("HTTP %d is exit 1", status), func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, always(status, apiError(13, "odd")))
			run(t, opts{env: withURL(srv, nil)}, "review-configs", "get", "x").expect(t, exitFailure).noPanic(t)
			srv.expectRequests(t, 1)
		})
	}
}

func TestTrust_noCredentialInMessages(t *testing.T) {
	t.Parallel()
	malformed := newServer(t, rawAnswer(func(r *http.Request) string {
		return "HTTP/1.1 200 OK\r\n" + r.Header.Get("Authorization") + "\r\n\r\n{}"
	}))
	secrets := newServer(t, always(http.StatusOK,
		`{"identityProviders": [{"name": "idps/x", "config": {"oauth2Config": {"client_secret": "`+secretClient+`", "ClientSecret": "`+secretOIDC+`"}, "ldapConfig": {"BIND_PASSWORD": "`+secretBind+`"}}}]}`))
	echo := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		respond(w, http.StatusBadRequest, `{"code": 3, "message": "refused {\"password\": \"`+leakServiceKey+`\"} and token ab\/`+leakToken+`"}`)
	})
	tests := []struct {
		name string
		env  map[string]string
		args []string
		code int
	}{
		{"malformed header line quoting the token", withURL(malformed, map[string]string{"DBGOV_TOKEN": leakToken}), []string{"review-configs", "get", "x"}, exitNoAnswer},
		{"malformed header line json", withURL(malformed, map[string]string{"DBGOV_TOKEN": leakToken}), []string{"review-configs", "get", "x", "-o", "json", "--debug"}, exitNoAnswer},
		{"secret fields in any spelling, debug log", withURL(secrets, nil), []string{"idps", "list", "--debug", "-o", "name"}, exitOK},
		{"escaped credentials in an error", withURL(echo, map[string]string{"DBGOV_TOKEN": "ab/" + leakToken}), []string{"review-configs", "get", "x", "--debug"}, 6},
		{"user-only URL in a dry run", map[string]string{"DBGOV_URL": strings.Replace(echo.URL, "http://", "http://"+leakToken+"@", 1)},
			[]string{"users", "undelete", "a@x.com", "--dry-run", "--debug", "--token", "t"}, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := run(t, opts{env: tt.env}, tt.args...).expect(t, tt.code).noPanic(t)
			expectNoLeak(t, res)
			for _, s := range allSecrets {
				if strings.Contains(res.stderr, s) {
					t.Errorf("stderr shows %q:\n%s", s, clip(res.stderr))
				}
			}
		})
	}
}

func TestTrust_messagesStayReadable(t *testing.T) {
	t.Parallel()
	t.Run("a plain header value is no secret", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t, always(http.StatusForbidden, apiError(7, "environment prod is closed to you")))
		res := run(t, opts{env: withURL(srv, nil)}, "review-configs", "get", "x", "--header", "X-Env: prod", "--debug").expect(t, 4)
		res.stderrHas(t, "environment prod is closed", "> X-Env: prod")
	})
	t.Run("a long message is cut", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t, always(http.StatusBadRequest, apiError(3, strings.Repeat("no ", 70000))))
		for _, format := range []string{"table", "json"} {
			res := run(t, opts{env: withURL(srv, nil)}, "review-configs", "get", "x", "-o", format).expect(t, 6)
			if len(res.stderr) > 8<<10 || !strings.Contains(res.stderr, "…") {
				t.Errorf("-o %s: stderr of %d bytes:\n%s", format, len(res.stderr), clip(res.stderr))
			}
		}
	})
}

func TestTrust_deepNestingIsAnInvalidResponse(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	srv := newServer(t, always(http.StatusOK, deep))
	for _, format := range []string{"json", "yaml", "table"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			res := run(t, opts{env: withURL(srv, nil)}, "catalog", "get", "--instance", "i", "--database", "d", "-o", format).
				expect(t, exitFailure).noPanic(t).stderrHas(t, "invalid response", "nested deeper than 200")
			if res.stdout != "" {
				t.Errorf("stdout: %d bytes, want nothing", len(res.stdout))
			}
		})
	}
}

func TestTrust_aRunOverManyDatabasesLogsInOnce(t *testing.T) {
	t.Parallel()
	list := databaseList(200, "prod/db%03d")
	tests := []struct {
		name   string
		login  handlerFunc
		exit   int
		logins int
	}{
		{"a wrong key", always(http.StatusUnauthorized, apiError(16, "the email or password is not valid")), exitAuth, 1},
		{"a good key", always(http.StatusOK, `{"token": "fresh"}`), exitOK, 1},
		{"a busy login, waited out once", func(w http.ResponseWriter, _ *http.Request, _ int) {
			w.Header().Set("Retry-After", "0")
			respond(w, http.StatusTooManyRequests, apiError(8, "too many logins"))
		}, exitService, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if r.URL.Path == "/v1/auth/login" {
					tt.login(w, r, n)
					return
				}
				respond(w, http.StatusOK, `{"policies": []}`)
			})
			env := map[string]string{"DBGOV_URL": srv.URL, "DBGOV_SERVICE_ACCOUNT": serviceAccount, "DBGOV_SERVICE_KEY": leakServiceKey, "DBGOV_NO_TOKEN_CACHE": "1"}
			run(t, opts{env: env, stdin: list}, "policies", "list", "--databases-from", "-", "--concurrency", "16", "-o", "jsonl").expect(t, tt.exit).noPanic(t)
			logins := 0
			for _, r := range srv.requests() {
				if r.Path == "/v1/auth/login" {
					logins++
				}
			}
			if logins != tt.logins {
				t.Errorf("%d logins, want %d", logins, tt.logins)
			}
		})
	}
}

func TestTrust_aCatalogAnswerThatIsNotTheCatalogWritesNothing(t *testing.T) {
	t.Parallel()
	file := writeFile(t, "catalog.yaml", []byte("schemas: [{name: public, tables: [{name: t, classification: \"1\"}]}]\n"))
	answers := map[string]func(w http.ResponseWriter){
		"empty body":  func(w http.ResponseWriter) { w.WriteHeader(http.StatusOK) },
		"no content":  func(w http.ResponseWriter) { w.WriteHeader(http.StatusNoContent) },
		"null":        func(w http.ResponseWriter) { respond(w, 200, "null") },
		"{}":          func(w http.ResponseWriter) { respond(w, 200, "{}") },
		"not catalog": func(w http.ResponseWriter) { respond(w, 200, `{"policies": []}`) },
		"another database's": func(w http.ResponseWriter) {
			respond(w, 200, `{"name": "instances/i/databases/other/catalog", "schemas": []}`)
		},
	}
	for name, answer := range answers {
		for _, args := range [][]string{
			{"catalog", "update", "--merge", "--instance", "i", "--database", "d", "-f", file},
			{"catalog", "set", "--instance", "i", "--database", "d", "--schema", "public", "--table", "t", "--classification", "2", "--create"},
			{"catalog", "diff", "--instance", "i", "--database", "d", "-f", file},
			{"catalog", "get", "--instance", "i", "--database", "d", "-o", "json"},
		} {
			t.Run(name+"/"+args[1], func(t *testing.T) {
				t.Parallel()
				srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
					if r.Method != http.MethodGet {
						respond(w, 200, `{"name": "instances/i/databases/d/catalog"}`)
						return
					}
					answer(w)
				})
				run(t, opts{env: withURL(srv, nil)}, args...).expect(t, exitFailure).noPanic(t).stderrHas(t, "invalid response", "not a catalog")
				for _, r := range srv.requests() {
					if r.Method != http.MethodGet {
						t.Errorf("sent %s %s after an answer that is not the catalog", r.Method, r.Path)
					}
				}
			})
		}
	}
}

func TestTrust_aRefusingServiceEndsAManyDatabaseRun(t *testing.T) {
	t.Parallel()
	list := databaseList(100, "prod/db%03d")
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
				w.Header().Set("Retry-After", "0")
				respond(w, status, apiError(8, "slow down"))
			})
			run(t, opts{env: withURL(srv, nil), stdin: list},
				"policies", "list", "--databases-from", "-", "--concurrency", "4", "-o", "jsonl").expect(t, exitService).noPanic(t)
			if n := len(srv.requests()); n > 4*4 {
				t.Errorf("%d requests, want at most the first attempt and 3 retries of the first 4 databases", n)
			}
		})
	}
}

func TestTrust_retryAfterIsHonouredUpToTheTimeout(t *testing.T) {
	t.Parallel()
	tests := []struct{ retryAfter, timeout, want string }{
		{"11", "20s", "retry 1 of 3 in 11s"},
		{"60", "15s", "retry 1 of 3 in 15s"},
	}
	for _, tt := range tests {
		t.Run(tt.retryAfter, func(t *testing.T) {
			t.Parallel()
			srv, answered := throttled(t, http.StatusTooManyRequests, tt.retryAfter, apiError(8, "slow down"))
			res := run(t, opts{env: withURL(srv, nil), started: func(p *os.Process) {
				answered()
				time.Sleep(300 * time.Millisecond) // into the wait before the retry
				p.Signal(os.Interrupt)
			}}, "review-configs", "get", "x", "--debug", "--timeout", tt.timeout).expect(t, exitInterrupted).noPanic(t)
			res.stderrHas(t, tt.want)
			srv.expectRequests(t, 1)
		})
	}
}

func TestTrust_authChecksAgainstTheServiceItself(t *testing.T) {
	t.Parallel()
	other := newServer(t, always(http.StatusOK, `{"name": "users/someone@x.com", "email": "someone@x.com", "userType": "USER"}`))
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	})
	for _, args := range [][]string{{"auth", "status"}, {"auth", "login", "--token", "-", "--insecure-storage"}} {
		run(t, opts{env: withURL(srv, nil), stdin: leakToken + "\n"}, args...).
			expect(t, exitFailure).noPanic(t).stderrHas(t, "redirected users/me to another origin")
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("the other origin got %d requests", n)
	}
}
