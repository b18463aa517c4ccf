package root_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

func TestRun_usageErrorsExit2AndSendNothing(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown command", []string{"bogus"}, `unknown command "bogus"`},
		{"unknown verb of a group", []string{"users", "bogus"}, `unknown command "bogus" for "dbgov users"`},
		{"suggests a verb", []string{"users", "batchget"}, `did you mean "batch-get"`},
		{"unknown global flag", []string{"idps", "list", "--bogus"}, "unknown flag: --bogus"},
		{"bad timeout", []string{"idps", "list", "--timeout", "soon"}, "timeout"},
		{"unknown output", []string{"idps", "list", "-o", "xml"}, "xml"},
		{"junit of a command without a report", []string{"idps", "list", "-o", "junit"}, "-o junit is for runs over many databases"},
		{"bad server version", []string{"idps", "list", "--server-version", "latest"}, "server_version from --server-version"},
		{"bad workload identity", []string{"idps", "list", "--workload-identity", "ci@x.com\x1b[2J"}, "workload_identity from --workload-identity"},
		{"bad OIDC audience", []string{"idps", "list", "--oidc-audience", "aud\n"}, "oidc_audience from --oidc-audience"},
		{"bad summary file", []string{"idps", "list", "--summary-file", "s.md\x00"}, "summary_file from --summary-file"},
		{"jq with template", []string{"idps", "list", "--jq", ".", "--template", "x"}, "--jq"},
		{"jq that does not compile", []string{"idps", "list", "--jq", ".[["}, "jq"},
		{"empty jq", []string{"idps", "list", "--jq", ""}, "--jq needs a non-empty value"},
		{"empty template", []string{"idps", "list", "--template="}, "--template needs a non-empty value"},
		{"one argument too many", []string{"version", "x"}, "(got 1 argument)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, tt.args...).Expect(t, 2).StderrHas(t, tt.want)
			if n := len(reg.Requests()); n != 0 {
				t.Errorf("sent %d requests", n)
			}
		})
	}
}

func TestRun_typoGetsTheNearestCommandOrFlag(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // the first line of stderr
	}{
		{"command followed by flags", []string{"catalgo", "get", "--instance", "x"}, `dbgov: unknown command "catalgo" for "dbgov"; did you mean "catalog"?`},
		{"verb followed by flags", []string{"users", "batch-gt", "--instance", "x"}, `dbgov: unknown command "batch-gt" for "dbgov users"; did you mean "batch-get"?`},
		{"flag of the command", []string{"policies", "list", "--worspace"}, "dbgov: unknown flag --worspace; did you mean --workspace?"},
		{"flag after its value's place", []string{"catalog", "get", "--instnace", "x", "--database", "y"}, "dbgov: unknown flag --instnace; did you mean --instance?"},
		{"global flag", []string{"idps", "list", "--colour", "never"}, "dbgov: unknown flag --colour; did you mean --color?"},
		{"start of a flag", []string{"catalog", "get", "--data", "y"}, "dbgov: unknown flag --data; did you mean --database?"},
		{"nothing near", []string{"idps", "list", "--bogus"}, "dbgov: unknown flag: --bogus"},
		{"half changed", []string{"idps", "list", "--all"}, "dbgov: unknown flag: --all"},
		{"shorthand", []string{"idps", "list", "-Z"}, "dbgov: unknown shorthand flag: 'Z' in -Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := cmdtest.Run(t, cmdtest.Options{URL: "http://127.0.0.1:1"}, tt.args...).Expect(t, 2)
			if first, _, _ := strings.Cut(res.Stderr, "\n"); first != tt.want {
				t.Errorf("stderr begins %q, want %q", first, tt.want)
			}
		})
	}
}

func TestRun_groupWithoutVerbShowsHelp(t *testing.T) {
	res := cmdtest.Run(t, cmdtest.Options{}, "users").Expect(t, 0)
	if !strings.Contains(res.Stdout, "batch-get") || !strings.Contains(res.Stdout, "undelete") {
		t.Errorf("help does not list the verbs:\n%s", res.Stdout)
	}
}

func TestRun_usageErrorIsOneJSONLineUnderJSONOutput(t *testing.T) {
	res := cmdtest.Run(t, cmdtest.Options{}, "review-configs", "get", "a/b", "-o", "json").Expect(t, 2)
	var line struct {
		Error struct {
			Code     string `json:"code"`
			Message  string `json:"message"`
			ExitCode int    `json:"exitCode"`
		} `json:"error"`
	}
	if strings.Count(res.Stderr, "\n") != 1 || json.Unmarshal([]byte(res.Stderr), &line) != nil {
		t.Fatalf("stderr is not one JSON line: %q", res.Stderr)
	}
	if line.Error.Code != "USAGE" || line.Error.ExitCode != 2 || !strings.Contains(line.Error.Message, "a/b") {
		t.Errorf("error %+v", line.Error)
	}
}

func TestRun_plainHTTPToAnotherHostIsWarned(t *testing.T) {
	// gov.invalid never resolves: the warning must come before the failure.
	res := cmdtest.Run(t, cmdtest.Options{URL: "http://gov.invalid", Env: map[string]string{"DBGOV_TIMEOUT": "2s"}},
		"review-configs", "get", "x").Expect(t, 8)
	if !strings.Contains(res.Stderr, "warning: credentials are sent over plain http://") {
		t.Errorf("no warning:\n%s", res.Stderr)
	}
	if strings.Contains(res.Stderr, "test-token") {
		t.Errorf("the token leaked:\n%s", res.Stderr)
	}
}

func TestRun_loopbackHTTPIsNotWarned(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register("GET", "/v1/reviewConfigs/x", 200, `{"name":"reviewConfigs/x"}`)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "review-configs", "get", "x", "-o", "name").Expect(t, 0)
	if res.Stderr != "" {
		t.Errorf("stderr %q", res.Stderr)
	}
}

func TestRun_version(t *testing.T) {
	res := cmdtest.Run(t, cmdtest.Options{}, "version").Expect(t, 0)
	if !strings.HasPrefix(res.Stdout, "dbgov 1.2.3-test (commit abc1234, go") {
		t.Errorf("version %q", res.Stdout)
	}
	res = cmdtest.Run(t, cmdtest.Options{}, "version", "-o", "json").Expect(t, 0)
	var v struct{ Client map[string]string }
	if err := json.Unmarshal([]byte(res.Stdout), &v); err != nil || v.Client["version"] != "1.2.3-test" || v.Client["commit"] != "abc1234" {
		t.Errorf("version -o json %q (%v)", res.Stdout, err)
	}
	if res := cmdtest.Run(t, cmdtest.Options{}, "version", "--jq", ".client.version").Expect(t, 0); res.Stdout != "1.2.3-test\n" {
		t.Errorf("version --jq %q", res.Stdout)
	}
	if res := cmdtest.Run(t, cmdtest.Options{}, "version", "-o", "yaml").Expect(t, 0); !strings.HasPrefix(res.Stdout, "client:\n  version: 1.2.3-test\n  commit: abc1234\n") {
		t.Errorf("version -o yaml %q", res.Stdout)
	}
	cmdtest.Run(t, cmdtest.Options{}, "version", "extra").Expect(t, 2)
}

func TestRun_warningsAreJSONLinesUnderJSONOutput(t *testing.T) {
	res := cmdtest.Run(t, cmdtest.Options{URL: "http://gov.invalid", Env: map[string]string{"DBGOV_TIMEOUT": "2s"}},
		"review-configs", "get", "x", "-o", "json").Expect(t, 8)
	lines := strings.Split(strings.TrimSuffix(res.Stderr, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("stderr holds %d lines, want a warning and an error:\n%s", len(lines), res.Stderr)
	}
	var warning struct{ Warning string }
	if err := json.Unmarshal([]byte(lines[0]), &warning); err != nil || !strings.Contains(warning.Warning, "plain http://") {
		t.Errorf("first line %q is not a JSON warning (%v)", lines[0], err)
	}
	var e struct{ Error struct{ ExitCode int } }
	if err := json.Unmarshal([]byte(lines[1]), &e); err != nil || e.Error.ExitCode != 8 {
		t.Errorf("second line %q is not the JSON error (%v)", lines[1], err)
	}
}

func TestRun_profileCompletionOffersTheFileProfiles(t *testing.T) {
	path := cmdtest.WriteFile(t, "config.yaml", "profiles:\n  prod: {url: https://a.example.com}\n  staging: {url: https://b.example.com}\n")
	res := cmdtest.Run(t, cmdtest.Options{Env: map[string]string{"DBGOV_CONFIG": path}}, "__complete", "idps", "list", "--profile", "st").Expect(t, 0)
	if !strings.HasPrefix(res.Stdout, "staging\n:4\n") {
		t.Errorf("completion %q, want staging and no file completion", res.Stdout)
	}
}

func TestRun_aDefaultOfNameGivesWayForResultsWithoutNames(t *testing.T) {
	reg := httpmock.New(t)
	env := map[string]string{"DBGOV_OUTPUT": "name"}
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Env: env}, "users", "undelete", "bob@example.com", "--dry-run").Expect(t, 0)
	if !strings.HasPrefix(res.Stdout, "POST ") {
		t.Errorf("dry run under DBGOV_OUTPUT=name: %q", res.Stdout)
	}
	// An explicit -o name on such a result stays a usage error.
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL()}, "users", "undelete", "bob@example.com", "--dry-run", "-o", "name").Expect(t, 2)
	if n := len(reg.Requests()); n != 0 {
		t.Errorf("sent %d requests", n)
	}
}
