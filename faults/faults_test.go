package faults

import (
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Exit codes of the contract.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitAuth        = 3
	exitService     = 7
	exitNoAnswer    = 8
	exitInterrupted = 130
)

func TestFault_getRetriedAfterTwo503s(t *testing.T) {
	t.Parallel()
	srv := newServer(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n < 2 {
			respond(w, http.StatusServiceUnavailable, apiError(14, "the service is restarting"))
			return
		}
		respond(w, http.StatusOK, reviewConfigBody)
	})
	res := run(t, opts{env: withURL(srv, nil)}, "review-configs", "get", "x", "-o", "json").expect(t, exitOK)
	reqs := srv.expectRequests(t, 3)
	for _, r := range reqs {
		if r.Method != http.MethodGet || r.Path != "/v1/reviewConfigs/x" {
			t.Errorf("request %s %s, want GET /v1/reviewConfigs/x", r.Method, r.Path)
		}
	}
	if !strings.Contains(res.stdout, `"Production review"`) {
		t.Errorf("stdout lacks the review config:\n%s", res.stdout)
	}
}

func TestFault_postNeverRetried(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		body   string
	}{
		{"503", http.StatusServiceUnavailable, apiError(14, "the service is restarting")},
		{"429", http.StatusTooManyRequests, apiError(8, "slow down")},
		{"502 from a proxy", http.StatusBadGateway, "<html><body>Bad Gateway</body></html>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
				w.Header().Set("Retry-After", "0")
				respond(w, tt.status, tt.body)
			})
			run(t, opts{env: withURL(srv, nil)}, "users", "undelete", "a@x.com").expect(t, exitService).noPanic(t)
			reqs := srv.expectRequests(t, 1)
			if len(reqs) > 0 && (reqs[0].Method != http.MethodPost || reqs[0].Path != "/v1/users/a@x.com:undelete") {
				t.Errorf("request %s %s, want POST /v1/users/a@x.com:undelete", reqs[0].Method, reqs[0].Path)
			}
		})
	}
}

func TestFault_429HonoursRetryAfter(t *testing.T) {
	t.Parallel()
	srv := newServer(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n == 0 {
			w.Header().Set("Retry-After", "1")
			respond(w, http.StatusTooManyRequests, apiError(8, "quota exceeded"))
			return
		}
		respond(w, http.StatusOK, reviewConfigBody)
	})
	res := run(t, opts{env: withURL(srv, nil)}, "review-configs", "get", "x").expect(t, exitOK)
	reqs := srv.expectRequests(t, 2)
	if len(reqs) == 2 {
		if gap := reqs[1].At.Sub(reqs[0].At); gap < 950*time.Millisecond {
			t.Errorf("retried %s after a 429 with Retry-After: 1, want at least 1s", gap)
		}
	}
	if !strings.Contains(res.stdout, "Production review") {
		t.Errorf("stdout lacks the review config:\n%s", res.stdout)
	}
}

func TestFault_htmlFromProxyGivesStatusNotPage(t *testing.T) {
	t.Parallel()
	const page = `<html>
<head><title>502 Bad Gateway</title></head>
<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx/1.25.3 upstream-pool-7</center></body>
</html>`
	for _, format := range []string{"table", "json"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(http.StatusBadGateway)
				io.WriteString(w, page)
			})
			res := run(t, opts{env: withURL(srv, nil)}, "review-configs", "get", "x", "-o", format).expect(t, exitService).noPanic(t)
			srv.expectRequests(t, 4) // the first attempt and 3 retries
			res.stderrHas(t, "502")
			for _, s := range []string{"<html", "<h1>", "<center>", "nginx", "upstream-pool-7"} {
				if strings.Contains(res.stderr, s) {
					t.Errorf("stderr shows the proxy's page (%q):\n%s", s, res.stderr)
				}
			}
			if res.stdout != "" {
				t.Errorf("stdout: %q, want nothing", res.stdout)
			}
			if lines := strings.Count(strings.TrimRight(res.stderr, "\n"), "\n") + 1; lines > 2 {
				t.Errorf("stderr has %d lines, want the error line and at most a hint:\n%s", lines, res.stderr)
			}
		})
	}
}

func TestFault_invalidSuccessBody(t *testing.T) {
	t.Parallel()
	bodies := []struct {
		name      string
		body      string
		usersOnly bool // wrong only for a list of users
		// deep is a body of the right shape with a field of the wrong type
		// inside: -o json may print it as the service sent it.
		deep bool
	}{
		{name: "truncated", body: `{"users": [{"name": "users/a@x.com", "email": "a@x`},
		{name: "list field a string", body: `{"users": "x"}`, usersOnly: true},
		{name: "array", body: `[]`},
		{name: "null", body: `null`},
		{name: "number", body: `42`},
		{name: "empty", body: ``},
		{name: "html", body: `<html><body>OK</body></html>`},
		{name: "user a string", body: `{"users": ["x"]}`, usersOnly: true},
		{name: "groups an object", body: `{"users": [{"name": "users/a@x.com", "groups": {"a": 1}}]}`, usersOnly: true, deep: true},
		{name: "title a number", body: `{"users": [{"name": "users/a@x.com", "title": 7}], "title": 7}`, deep: true},
		{name: "deeply nested", body: `{"users": [{"profile": ` + strings.Repeat(`{"a":`, 100000) + `1` + strings.Repeat(`}`, 100000) + `}]}`, usersOnly: true, deep: true},
	}
	commands := []struct {
		name string
		args []string
		json bool
	}{
		{"users batch-get", []string{"users", "batch-get", "a@x.com"}, false},
		{"users batch-get json", []string{"users", "batch-get", "a@x.com", "-o", "json"}, true},
		{"users batch-get jq", []string{"users", "batch-get", "a@x.com", "--jq", ".users[].name"}, true},
		{"review-configs get", []string{"review-configs", "get", "x"}, false},
		{"review-configs get json", []string{"review-configs", "get", "x", "-o", "json"}, true},
		{"users undelete", []string{"users", "undelete", "a@x.com"}, false},
	}
	for _, b := range bodies {
		for _, c := range commands {
			if b.usersOnly && !strings.HasPrefix(c.name, "users batch-get") {
				continue
			}
			t.Run(b.name+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				srv := newServer(t, always(http.StatusOK, b.body))
				res := run(t, opts{env: withURL(srv, nil)}, c.args...).noPanic(t)
				if b.deep && c.json && res.code == exitOK {
					return // the document as sent: fine for -o json, --jq
				}
				if b.name == "deeply nested" && res.code == exitOK {
					return // a depth the decoder accepts is fine; a crash is not
				}
				res.expect(t, exitFailure).stderrHas(t, "invalid response")
				if res.stdout != "" {
					t.Errorf("stdout: %q, want nothing", clip(res.stdout))
				}
			})
		}
	}
}

// hangingListener accepts connections and never answers; it reports when
// it accepted each connection on the returned channel.
func hangingListener(t *testing.T) (addr string, accepted <-chan time.Time) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan time.Time, 16)
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go io.Copy(io.Discard, c) // read the request, answer nothing
			select {
			case ch <- time.Now():
			default:
			}
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return ln.Addr().String(), ch
}

// timeout is the --timeout of the cases where the server never answers; a
// dbgov that retried a timed-out attempt would take four of them and more.
const timeout = 2 * time.Second

// checkEndedAtTimeout fails the test unless dbgov ended within a little of
// --timeout after it reached the server (at first): not before, and not
// after retrying. The time is taken from the server's side, so that a
// machine slow to start processes does not count.
func checkEndedAtTimeout(t *testing.T, res result, first time.Time) {
	t.Helper()
	const slack = 2 * time.Second
	took := res.ended.Sub(first)
	if took > timeout+slack {
		t.Errorf("dbgov ended %s after reaching a server that never finished answering, want at most %s (--timeout %s)",
			took.Round(time.Millisecond), timeout+slack, timeout)
	}
	// The time limit starts before the connection is made, which on a loaded
	// machine can take a good part of a second: only an end well before the
	// limit is wrong.
	if took < timeout/2 {
		t.Errorf("dbgov gave up %s after reaching the server, before --timeout %s", took.Round(time.Millisecond), timeout)
	}
}

// namedArgs are the arguments of a run, named for a subtest.
type namedArgs struct {
	name string
	args []string
}

// getAndPost are a command that sends a GET and one that sends a POST.
var getAndPost = []namedArgs{
	{"GET", []string{"review-configs", "get", "x"}},
	{"POST", []string{"users", "undelete", "a@x.com"}},
}

func TestFault_noAnswerEndsAtTimeout(t *testing.T) {
	t.Parallel()
	for _, tt := range getAndPost {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			addr, accepted := hangingListener(t)
			args := append(append([]string(nil), tt.args...), "--timeout", timeout.String())
			res := run(t, opts{env: map[string]string{"DBGOV_URL": "http://" + addr, "DBGOV_TOKEN": "t"}}, args...)
			res.expect(t, exitNoAnswer).noPanic(t)
			res.stderrHasAny(t, "timeout", "time limit", "within", "timed out")
			var first time.Time
			select {
			case first = <-accepted:
			default:
				t.Fatal("dbgov never connected")
			}
			checkEndedAtTimeout(t, res, first)
		})
	}
}

func TestFault_stalledBodyEndsAtTimeout(t *testing.T) {
	t.Parallel()
	// The service sends its headers and part of the body, then nothing more
	// (or a byte now and then): the time limit covers the whole answer.
	tests := []struct {
		name    string
		args    []string
		trickle time.Duration // 0: silence after the first bytes
	}{
		{"GET silent", []string{"review-configs", "get", "x"}, 0},
		{"GET trickle", []string{"review-configs", "get", "x"}, 100 * time.Millisecond},
		{"POST silent", []string{"users", "undelete", "a@x.com"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Content-Length", "100000")
				w.WriteHeader(http.StatusOK)
				io.WriteString(w, `{"name": "`)
				w.(http.Flusher).Flush()
				stop := time.After(10 * time.Second)
				var tick <-chan time.Time
				if tt.trickle > 0 {
					ticker := time.NewTicker(tt.trickle)
					defer ticker.Stop()
					tick = ticker.C
				}
				for {
					select {
					case <-r.Context().Done():
						return
					case <-stop:
						return
					case <-tick:
						io.WriteString(w, "a")
						w.(http.Flusher).Flush()
					}
				}
			})
			args := append(append([]string(nil), tt.args...), "--timeout", timeout.String())
			res := run(t, opts{env: withURL(srv, nil)}, args...).expect(t, exitNoAnswer).noPanic(t)
			if res.stdout != "" {
				t.Errorf("stdout: %q, want nothing", clip(res.stdout))
			}
			if reqs := srv.expectRequests(t, 1); len(reqs) > 0 {
				checkEndedAtTimeout(t, res, reqs[0].At)
			}
		})
	}
}

func TestFault_connectionCutMidAnswer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		requests int
	}{
		{"GET is retried", []string{"review-configs", "get", "x"}, 4},
		{"POST is not", []string{"users", "undelete", "a@x.com"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, rawAnswer(func(*http.Request) string {
				return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{\"name\": \"users/a@x"
			}))
			res := run(t, opts{env: withURL(srv, nil)}, tt.args...).expect(t, exitNoAnswer).noPanic(t)
			if res.stdout != "" {
				t.Errorf("stdout: %q, want nothing", clip(res.stdout))
			}
			srv.expectRequests(t, tt.requests)
		})
	}
}

// closedPort returns the address of a loopback port that nothing listens on:
// on 127.0.0.2 where the system has it, so that the servers other tests start
// on 127.0.0.1 cannot take the port meanwhile.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestFault_connectionRefused(t *testing.T) {
	t.Parallel()
	for _, tt := range append(getAndPost, namedArgs{"GET json", []string{"review-configs", "get", "x", "-o", "json"}}) {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			addr := closedPort(t)
			res := run(t, opts{env: map[string]string{"DBGOV_URL": "http://" + addr, "DBGOV_TOKEN": "t"}}, tt.args...)
			res.expect(t, exitNoAnswer).noPanic(t).stderrHas(t, "refused")
			if res.stdout != "" {
				t.Errorf("stdout: %q, want nothing", res.stdout)
			}
		})
	}
}

// writeServerCA writes the certificate of a TLS test server as PEM.
func writeServerCA(t *testing.T, s *server) string {
	t.Helper()
	block := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw})
	return writeFile(t, "ca.pem", block)
}

func TestFault_selfSignedCertificate(t *testing.T) {
	t.Parallel()
	srv := newTLSServer(t, always(http.StatusOK, reviewConfigBody))

	t.Run("refused with a hint", func(t *testing.T) {
		res := run(t, opts{env: withURL(srv, nil)}, "review-configs", "get", "x", "--timeout", "2s")
		res.expect(t, exitNoAnswer).noPanic(t).stderrHas(t, "--ca-cert")
		if res.stdout != "" {
			t.Errorf("stdout: %q, want nothing", res.stdout)
		}
	})
	t.Run("trusted with --ca-cert", func(t *testing.T) {
		ca := writeServerCA(t, srv)
		res := run(t, opts{env: withURL(srv, nil)}, "review-configs", "get", "x", "--ca-cert", ca).expect(t, exitOK)
		if !strings.Contains(res.stdout, "Production review") {
			t.Errorf("stdout lacks the review config:\n%s", res.stdout)
		}
	})
}

func TestFault_redirectKeepsCredentialsOffOtherHosts(t *testing.T) {
	t.Parallel()
	const (
		token     = "tok-REDIRECT-4c1d"
		headerVal = "hdr-REDIRECT-99ab"
	)
	tests := []struct {
		name string
		args []string
		host func(b *server) string // the host A redirects to
	}{
		{"GET to another port", []string{"review-configs", "get", "x"}, func(b *server) string { return b.Listener.Addr().String() }},
		{"GET to another name", []string{"review-configs", "get", "x"}, func(b *server) string {
			return "localhost:" + strconv.Itoa(b.Listener.Addr().(*net.TCPAddr).Port)
		}},
		{"POST to another port", []string{"users", "undelete", "a@x.com"}, func(b *server) string { return b.Listener.Addr().String() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				if r.Method == http.MethodPost {
					respond(w, http.StatusOK, userBody)
					return
				}
				respond(w, http.StatusOK, reviewConfigBody)
			})
			a := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				w.Header().Set("Location", "http://"+tt.host(b)+r.URL.RequestURI())
				w.WriteHeader(http.StatusTemporaryRedirect)
			})
			env := map[string]string{"DBGOV_URL": a.URL, "DBGOV_TOKEN": token}
			args := append(append([]string(nil), tt.args...), "--header", "X-Proxy-Auth: "+headerVal)
			run(t, opts{env: env}, args...).noPanic(t)
			aReqs := a.expectRequests(t, 1)
			if len(aReqs) == 1 {
				if got := aReqs[0].Header.Get("Authorization"); got != "Bearer "+token {
					t.Errorf("server A got Authorization %q, want the token", got)
				}
				if got := aReqs[0].Header.Get("X-Proxy-Auth"); got != headerVal {
					t.Errorf("server A got X-Proxy-Auth %q, want the --header value", got)
				}
			}
			bReqs := b.requests()
			if len(bReqs) == 0 {
				t.Fatalf("the redirect to B was not followed")
			}
			for _, r := range bReqs {
				var dump strings.Builder
				r.Header.Write(&dump)
				for _, secret := range []string{token, headerVal} {
					if strings.Contains(dump.String(), secret) || strings.Contains(string(r.Body), secret) {
						t.Errorf("server B (another host) received a credential %q:\n%s", secret, dump.String())
					}
				}
			}
		})
	}
}

func TestFault_largeResponse(t *testing.T) {
	t.Parallel()
	// Few users, so that they go in one request, of about 410 kB each: one
	// answer of 40 MB.
	const users = 100
	emails := make([]string, users)
	for i := range emails {
		emails[i] = fmt.Sprintf("user%04d@x.com", i)
	}
	group := strings.Repeat("g", 48)
	var groups []string
	for i := 0; i < 7400; i++ {
		groups = append(groups, fmt.Sprintf("groups/%s%03d@x.com", group, i))
	}
	type user struct {
		Name   string   `json:"name"`
		Email  string   `json:"email"`
		Title  string   `json:"title"`
		State  string   `json:"state"`
		Groups []string `json:"groups"`
	}
	list := make([]user, users)
	for i, e := range emails {
		list[i] = user{Name: "users/" + e, Email: e, Title: fmt.Sprintf("User %d", i), State: "ACTIVE", Groups: groups}
	}
	body, err := json.Marshal(map[string]any{"users": list})
	if err != nil {
		t.Fatal(err)
	}
	if len(body) < 40<<20 {
		t.Fatalf("body is %d bytes, want at least 40 MB", len(body))
	}
	srv := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	stdin := strings.Join(emails, "\n") + "\n"

	t.Run("json", func(t *testing.T) {
		t.Parallel()
		res := run(t, opts{env: withURL(srv, nil), stdin: stdin}, "users", "batch-get", "-", "-o", "json").expect(t, exitOK).noPanic(t)
		var got struct {
			Users []user `json:"users"`
		}
		if err := json.Unmarshal([]byte(res.stdout), &got); err != nil {
			t.Fatalf("stdout (%d bytes) is not the JSON document: %v", len(res.stdout), err)
		}
		if len(got.Users) != users {
			t.Fatalf("stdout holds %d users, want %d", len(got.Users), users)
		}
		last := got.Users[users-1]
		if last.Email != emails[users-1] || len(last.Groups) != len(groups) || last.Groups[len(groups)-1] != groups[len(groups)-1] {
			t.Errorf("the last user is not complete: %s with %d groups", last.Email, len(last.Groups))
		}
	})
	t.Run("table", func(t *testing.T) {
		t.Parallel()
		res := run(t, opts{env: withURL(srv, nil), stdin: stdin}, "users", "batch-get", "-").expect(t, exitOK).noPanic(t)
		lines := strings.Split(strings.TrimRight(res.stdout, "\n"), "\n")
		if len(lines) != users+1 {
			t.Fatalf("table has %d lines, want a header and %d rows", len(lines), users)
		}
		for i, e := range emails {
			row := lines[i+1]
			if !strings.Contains(row, "users/"+e) || !strings.Contains(row, groups[len(groups)-1]) {
				t.Fatalf("row %d is not complete for %s: %s", i+1, e, clip(row))
			}
		}
	})
}

func TestFault_interruptDuringRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		signal os.Signal
		exit   int
	}{
		{"GET", []string{"review-configs", "get", "x"}, os.Interrupt, exitInterrupted},
		{"GET json", []string{"review-configs", "get", "x", "-o", "json"}, os.Interrupt, exitInterrupted},
		{"POST", []string{"users", "undelete", "a@x.com"}, os.Interrupt, exitInterrupted},
		{"GET SIGTERM", []string{"review-configs", "get", "x"}, syscall.SIGTERM, 143},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			addr, accepted := hangingListener(t)
			env := map[string]string{"DBGOV_URL": "http://" + addr, "DBGOV_TOKEN": "t"}
			args := append(append([]string(nil), tt.args...), "--timeout", "20s")
			var sent time.Time
			res := run(t, opts{env: env, started: func(p *os.Process) {
				await(t, accepted, "dbgov never connected")
				time.Sleep(100 * time.Millisecond) // let the request be written
				sent = time.Now()
				if err := p.Signal(tt.signal); err != nil {
					t.Errorf("send %v: %v", tt.signal, err)
				}
			}}, args...)
			res.expect(t, tt.exit).noPanic(t)
			if res.stdout != "" {
				t.Errorf("stdout: %q, want nothing", res.stdout)
			}
			if took := res.ended.Sub(sent); took > 2*time.Second {
				t.Errorf("dbgov took %s to end after %v", took.Round(time.Millisecond), tt.signal)
			}
		})
	}
}

func TestFault_interruptDuringRetryWait(t *testing.T) {
	t.Parallel()
	srv, answered := throttled(t, http.StatusServiceUnavailable, "5", apiError(14, "restarting"))
	var sent time.Time
	res := run(t, opts{env: withURL(srv, nil), started: func(p *os.Process) {
		answered()
		time.Sleep(200 * time.Millisecond) // into the wait before the retry
		sent = time.Now()
		if err := p.Signal(os.Interrupt); err != nil {
			t.Errorf("send SIGINT: %v", err)
		}
	}}, "review-configs", "get", "x").expect(t, exitInterrupted).noPanic(t)
	if took := res.ended.Sub(sent); took > 2*time.Second {
		t.Errorf("dbgov took %s to end after SIGINT during a 5s wait", took.Round(time.Millisecond))
	}
	if res.stdout != "" {
		t.Errorf("stdout: %q, want nothing", res.stdout)
	}
	srv.expectRequests(t, 1)
}

func TestFault_serviceAccountLogin(t *testing.T) {
	t.Parallel()
	env := func(s *server) map[string]string {
		return map[string]string{"DBGOV_URL": s.URL, "DBGOV_SERVICE_ACCOUNT": "ci@x.com", "DBGOV_SERVICE_KEY": "k"}
	}
	count := func(reqs []seen, path string) int {
		n := 0
		for _, r := range reqs {
			if r.Path == path {
				n++
			}
		}
		return n
	}

	t.Run("a 401 after logging in ends after one more login", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if r.URL.Path == "/v1/auth/login" {
				respond(w, http.StatusOK, fmt.Sprintf(`{"token": "fresh-%d"}`, n))
				return
			}
			respond(w, http.StatusUnauthorized, apiError(16, "token expired"))
		})
		run(t, opts{env: env(srv)}, "review-configs", "get", "x").expect(t, 3).noPanic(t)
		reqs := srv.requests()
		if logins, gets := count(reqs, "/v1/auth/login"), count(reqs, "/v1/reviewConfigs/x"); logins != 2 || gets != 2 {
			t.Errorf("%d logins and %d GETs, want 2 of each: log in, try, log in again, try once more", logins, gets)
		}
	})
	t.Run("a login that answers no token", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
			if r.URL.Path == "/v1/auth/login" {
				respond(w, http.StatusOK, `{}`)
				return
			}
			respond(w, http.StatusOK, reviewConfigBody)
		})
		// The login's answer is not what the service promises: exit 1.
		run(t, opts{env: env(srv)}, "review-configs", "get", "x").noPanic(t).expect(t, exitFailure).stderrHas(t, "invalid response")
		if n := count(srv.requests(), "/v1/reviewConfigs/x"); n != 0 {
			t.Errorf("the request was sent %d times without a token", n)
		}
	})
	t.Run("a token with a line break is not sent", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
			if r.URL.Path == "/v1/auth/login" {
				respond(w, http.StatusOK, `{"token": "abc\r\nX-Injected: yes"}`)
				return
			}
			respond(w, http.StatusOK, reviewConfigBody)
		})
		// The login's answer is not what the service promises: exit 1 at
		// once, not exit 8 ("no answer", worth a retry) after three retries
		// of a request that can never be sent.
		res := run(t, opts{env: env(srv)}, "review-configs", "get", "x").noPanic(t).expect(t, exitFailure).stderrHas(t, "invalid response")
		if strings.Contains(res.stderr, "X-Injected") || strings.Contains(res.stderr, "abc") {
			t.Errorf("stderr shows the token:\n%s", res.stderr)
		}
		for _, r := range srv.requests() {
			if r.Header.Get("X-Injected") != "" {
				t.Errorf("a request to %s carries the injected header", r.Path)
			}
		}
		if n := count(srv.requests(), "/v1/reviewConfigs/x"); n != 0 {
			t.Errorf("the request was sent %d times with the broken token", n)
		}
	})
}

func TestFault_listFieldOfTheWrongShape(t *testing.T) {
	t.Parallel()
	revisions := writeFile(t, "revisions.json", []byte(goodRevisions))
	commands := []struct {
		name  string
		field string
		args  []string
	}{
		{"users batch-get", "users", []string{"users", "batch-get", "a@x.com"}},
		{"policies list", "policies", []string{"policies", "list", "--instance", "i", "--database", "d"}},
		{"idps list", "identityProviders", []string{"idps", "list"}},
		{"revisions batch-create", "revisions", []string{"revisions", "batch-create", "--instance", "i", "--database", "d", "-f", revisions}},
	}
	shapes := []struct{ name, value string }{
		{"a string", `"x"`},
		{"an object", `{"a": 1}`},
		{"a list of strings", `["x"]`},
		{"a list of lists", `[[]]`},
	}
	formats := [][]string{nil, {"-o", "json"}, {"-o", "yaml"}, {"-o", "name"}}
	for _, c := range commands {
		for _, s := range shapes {
			for _, f := range formats {
				name := c.name + "/" + s.name + "/table"
				if f != nil {
					name = c.name + "/" + s.name + "/" + f[1]
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					srv := newServer(t, always(http.StatusOK, fmt.Sprintf(`{%q: %s}`, c.field, s.value)))
					args := append(append([]string(nil), c.args...), f...)
					res := run(t, opts{env: withURL(srv, nil)}, args...).noPanic(t).expect(t, exitFailure).stderrHas(t, "invalid response")
					if res.stdout != "" {
						t.Errorf("stdout: %q, want nothing", clip(res.stdout))
					}
				})
			}
		}
	}
}
