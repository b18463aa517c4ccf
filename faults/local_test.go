package faults

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConfig_parallelEditsKeepEveryChange runs twenty `config set` at once,
// each on its own profile, beside a `config set token -`: every change must
// be in the file afterwards.
func TestConfig_parallelEditsKeepEveryChange(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := map[string]string{"DBGOV_CONFIG": filepath.Join(home, "cfg", "config.yaml")}
	const runs = 20
	var wg sync.WaitGroup
	results := make([]result, runs+1)
	for i := range runs {
		wg.Go(func() {
			results[i] = run(t, opts{home: home, env: env}, "config", "--profile", fmt.Sprintf("p%02d", i), "set", "url", fmt.Sprintf("https://p%02d.example", i))
		})
	}
	wg.Go(func() {
		results[runs] = run(t, opts{home: home, env: env, stdin: "tok-parallel\n"}, "config", "set", "token", "-")
	})
	wg.Wait()
	for _, r := range results {
		r.expect(t, exitOK).noPanic(t)
	}
	data, err := os.ReadFile(env["DBGOV_CONFIG"])
	if err != nil {
		t.Fatal(err)
	}
	for i := range runs {
		if !strings.Contains(string(data), fmt.Sprintf("url: https://p%02d.example", i)) {
			t.Errorf("profile p%02d was lost:\n%s", i, data)
		}
	}
	if !strings.Contains(string(data), "token: tok-parallel") {
		t.Errorf("the token set from stdin was lost:\n%s", data)
	}
}

// TestInput_fieldNamesMatchExactly sends files whose only fault is a field
// name in another case: JSON and YAML alike are refused, naming the field.
func TestInput_fieldNamesMatchExactly(t *testing.T) {
	t.Parallel()
	db := []string{"--instance", "prod-pg", "--database", "orders"}
	tests := []struct {
		name, file, field string
		args              []string
	}{
		{"second name in another case", `{"schemas": [{"name": "a", "Name": "b"}]}`, `"Name"`, []string{"catalog", "update"}},
		{"capitals", `{"SCHEMAS": []}`, `"SCHEMAS"`, []string{"catalog", "update"}},
		{"capitals in YAML", "SCHEMAS: []\n", `"SCHEMAS"`, []string{"catalog", "update"}},
		{"revision field", `[{"VERSION": "1", "type": "VERSIONED"}]`, `"VERSION"`, []string{"revisions", "batch-create"}},
		{"revision field in YAML", "- {VERSION: '1', type: VERSIONED}\n", `"VERSION"`, []string{"revisions", "batch-create"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := writeFile(t, "input", []byte(tt.file))
			args := append(append(append([]string{}, tt.args...), db...), "-f", path)
			badInput(t, opts{}, []string{"unknown field " + tt.field}, nil, args...)
		})
	}
}

// TestInput_enumValuesInAnyCase sends a revision type in lower case, and an
// unknown one, which is refused listing the known values.
func TestInput_enumValuesInAnyCase(t *testing.T) {
	t.Parallel()
	srv := newServer(t, always(http.StatusOK, `{"revisions": [{"name": "instances/prod-pg/databases/orders/revisions/1", "version": "1", "type": "VERSIONED"}]}`))
	path := writeFile(t, "revisions.yaml", []byte("- {version: '1', type: versioned, sheet: projects/p/sheets/"+strings.Repeat("0a", 32)+"}\n"))
	run(t, opts{env: withURL(srv, nil)}, "revisions", "batch-create", "--instance", "prod-pg", "--database", "orders", "-f", path, "-o", "name").expect(t, exitOK)
	if reqs := srv.expectRequests(t, 1); len(reqs) == 1 && !strings.Contains(string(reqs[0].Body), `"type":"VERSIONED"`) {
		t.Errorf("sent %s, want the type as the service spells it", reqs[0].Body)
	}
	bad := writeFile(t, "revisions.yaml", []byte("- {version: '1', type: sideways}\n"))
	badInput(t, opts{}, []string{`unknown value "sideways"`, "VERSIONED, DECLARATIVE"}, nil,
		"revisions", "batch-create", "--instance", "prod-pg", "--database", "orders", "-f", bad)
}

// TestLocalInput_capped refuses local inputs that never end or are too
// large, quickly and without filling memory.
func TestLocalInput_capped(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	db := []string{"--instance", "prod-pg", "--database", "orders"}
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  []string
	}{
		{"a device as the catalog", "", append([]string{"catalog", "update", "-f", "/dev/zero"}, db...), []string{"/dev/zero", "not a text file"}},
		{"a device as the CA bundle", "", []string{"--ca-cert", "/dev/zero", "review-configs", "get", "x"}, []string{"larger than 1 MiB"}},
		{"a line too long on stdin", "alice@example.com\n" + strings.Repeat("x", 2<<20) + "\n", []string{"users", "batch-get", "-"}, []string{"stdin: line 2 is longer than 1 MiB"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := badInput(t, opts{stdin: tt.stdin}, tt.want, nil, tt.args...)
			if strings.Contains(res.stderr, "bufio.Scanner") {
				t.Errorf("stderr shows the scanner's own words: %s", res.stderr)
			}
			if res.elapsed > 10*time.Second {
				t.Errorf("took %s", res.elapsed)
			}
		})
	}
}

// TestLocalInput_urlCheckedBeforeTheFile says that no URL is set before it
// reads the file, however large.
func TestLocalInput_urlCheckedBeforeTheFile(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	run(t, opts{}, "catalog", "update", "--instance", "prod-pg", "--database", "orders", "-f", "/dev/zero").
		expect(t, exitUsage).stderrHas(t, "no service URL")
}

// TestURL_invalidWhereverSetIsUsage refuses a URL the client could never
// reach (a port out of range, a query, a fragment) with exit 2 and nothing
// sent, whether it came from the flag, the environment or the config file.
func TestURL_invalidWhereverSetIsUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, url, want string
	}{
		{"port out of range", "http://127.0.0.1:65536", "port 65536 is out of range"},
		{"query", "http://127.0.0.1:1/?x=1", "may not hold a query"},
		{"fragment", "http://127.0.0.1:1/#top", "may not hold a query (?) or a fragment"},
	}
	for _, tt := range tests {
		for _, from := range []string{"--url", "DBGOV_URL", "profile"} {
			t.Run(tt.name+" from "+from, func(t *testing.T) {
				t.Parallel()
				home := t.TempDir()
				env := map[string]string{"DBGOV_TOKEN": "test-token", "DBGOV_CONFIG": filepath.Join(home, "config.yaml")}
				args := []string{"users", "batch-get", "alice@example.com"}
				switch from {
				case "--url":
					args = append([]string{"--url", tt.url}, args...)
				case "DBGOV_URL":
					env["DBGOV_URL"] = tt.url
				default:
					if err := os.WriteFile(env["DBGOV_CONFIG"], []byte("profiles:\n  default:\n    url: "+tt.url+"\n"), 0o600); err != nil {
						t.Fatal(err)
					}
					from = "profile \"default\""
				}
				res := run(t, opts{home: home, env: env}, args...).expect(t, exitUsage).noPanic(t).stderrHas(t, "url from "+from, tt.want)
				if res.elapsed > 5*time.Second {
					t.Errorf("took %s: was it tried?", res.elapsed)
				}
			})
		}
	}
}

// TestConfig_refusesAndReadsWhatOtherCommandsDo: config set refuses a token
// the client would refuse, and config view reads a file with anchors that
// every other command reads.
func TestConfig_refusesAndReadsWhatOtherCommandsDo(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	cfg := filepath.Join(home, "config.yaml")
	env := map[string]string{"DBGOV_CONFIG": cfg}
	res := run(t, opts{home: home, env: env}, "config", "set", "token", "tok with spaces").expect(t, exitUsage).stderrHas(t, "token", "space")
	if strings.Contains(res.stderr, "tok with spaces") {
		t.Errorf("stderr repeats the token: %s", res.stderr)
	}
	if _, err := os.Stat(cfg); !os.IsNotExist(err) {
		t.Errorf("the refused token was written (%v)", err)
	}
	anchored := "base: &base\n  url: https://gov.example.com\nprofiles:\n  default:\n    <<: *base\n    timeout: 1m\n  copy: *base\n"
	if err := os.WriteFile(cfg, []byte(anchored), 0o600); err != nil {
		t.Fatal(err)
	}
	run(t, opts{home: home, env: env}, "config", "get", "url").expect(t, exitOK)
	out := run(t, opts{home: home, env: env}, "config", "view", "-o", "json").expect(t, exitOK).stdout
	if !strings.Contains(out, `"copy": {`) || strings.Count(out, `"url": "https://gov.example.com"`) != 3 {
		t.Errorf("config view -o json:\n%s", out)
	}
}
