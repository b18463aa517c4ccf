package version_test

import (
	"encoding/json"
	"maps"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/cmd/version"
	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

func TestStamp_fillsWhatTheBuildLeftFromTheBuildInfo(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "false"}}
	tests := []struct {
		name                  string
		version, commit       string
		info                  *debug.BuildInfo
		wantVersion, wantCmit string
	}{
		{"go install of a release", "dev", "none", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0", "none"},
		{"go build in a checkout", "dev", "none", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.1-0.20250101120000-0123456789ab"}, Settings: vcs}, "v1.4.1-0.20250101120000-0123456789ab", "0123456789ab"},
		{"go build without a module version", "dev", "none", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs}, "dev", "0123456789ab"},
		{"make build's -ldflags win", "v1.3.0", "abc1234", &debug.BuildInfo{Main: debug.Module{Version: "v9.9.9"}, Settings: vcs}, "v1.3.0", "abc1234"},
		{"no build info", "dev", "none", nil, "dev", "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, c := version.Stamp(tt.version, tt.commit, tt.info)
			if v != tt.wantVersion || c != tt.wantCmit {
				t.Errorf("Stamp = %q, %q; want %q, %q", v, c, tt.wantVersion, tt.wantCmit)
			}
		})
	}
}

// ask has a run ask the service its release.
var ask = map[string]string{"DBGOV_SERVER_VERSION": ""}

func TestVersion_printsTheServiceReleaseWhenAURLIsSet(t *testing.T) {
	const info = `{"version":"3.21.1","gitCommit":"d2ee0c2e06","workspace":"workspaces/ab12"}`
	tests := []struct {
		name   string
		args   []string
		status int
		body   string
		noURL  bool
		code   int
		want   []string // lines of stdout after dbgov's
		stderr string
	}{
		{name: "a release", status: 200, body: info, want: []string{"service 3.21.1 at URL"}},
		{name: "a development build", status: 200, body: `{"version":"development","workspace":"workspaces/ab12","restriction":{},"replicaCount":1}`, want: []string{"service development (as 3.21.1) at URL"}},
		{name: "a release newer than dbgov knows", status: 200, body: `{"version":"3.30.0"}`, want: []string{"service 3.30.0 (as 3.21.1) at URL"}, stderr: "warning: the service's release 3.30.0 is not one dbgov knows"},
		{name: "client alone", args: []string{"--client"}},
		{name: "no URL", noURL: true},
		{name: "a service that cannot say", status: 404, body: `{"code":5,"message":"not found"}`, code: 5, stderr: "--server-version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := httpmock.New(t)
			if tt.status != 0 {
				reg.Register("GET", "/v1/actuator/info", tt.status, tt.body)
			}
			opts := cmdtest.Options{URL: reg.URL(), Env: ask}
			if tt.noURL {
				opts.URL = ""
			}
			res := cmdtest.Run(t, opts, append([]string{"version"}, tt.args...)...).Expect(t, tt.code).StderrHas(t, tt.stderr)
			lines := strings.Split(strings.TrimSuffix(res.Stdout, "\n"), "\n")
			if !strings.HasPrefix(lines[0], "dbgov 1.2.3-test (commit abc1234, go") {
				t.Errorf("first line %q", lines[0])
			}
			want := strings.Join(tt.want, "\n")
			if got := strings.Join(lines[1:], "\n"); got != strings.ReplaceAll(want, "URL", reg.URL()) {
				t.Errorf("service lines %q, want %q", got, want)
			}
			if tt.stderr == "" && res.Stderr != "" {
				t.Errorf("stderr %q", res.Stderr)
			}
		})
	}
}

func TestVersion_jsonHoldsClientAndServer(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register("GET", "/v1/actuator/info", 200, `{"version":"3.14.1","gitCommit":"abc","workspaceId":"w1","restriction":{}}`)
	res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Env: ask}, "version", "-o", "json").Expect(t, 0)
	var doc struct {
		Client map[string]string
		Server map[string]string
	}
	if err := json.Unmarshal([]byte(res.Stdout), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"url": reg.URL(), "version": "3.14.1", "release": "3.14.1", "gitCommit": "abc", "workspace": "w1"}
	if !maps.Equal(doc.Server, want) || doc.Client["version"] != "1.2.3-test" {
		t.Errorf("client %v, server %v; want server %v", doc.Client, doc.Server, want)
	}
	if got := reg.Only().Header.Get("Authorization"); got != "" {
		t.Errorf("the description was asked with Authorization %q", got)
	}
}

// TestVersion_takesTheFormatOfTheSettings: -o comes from DBGOV_OUTPUT or the
// profile as for every command, so that stdout is JSON as stderr's errors are.
func TestVersion_takesTheFormatOfTheSettings(t *testing.T) {
	profile := cmdtest.WriteFile(t, "config.yaml", "profiles:\n  default:\n    output: json\n")
	for _, env := range []map[string]string{{"DBGOV_OUTPUT": "json"}, {"DBGOV_CONFIG": profile}} {
		res := cmdtest.Run(t, cmdtest.Options{Env: env}, "version", "--client").Expect(t, 0)
		var doc struct{ Client map[string]string }
		if err := json.Unmarshal([]byte(res.Stdout), &doc); err != nil || doc.Client["version"] != "1.2.3-test" {
			t.Errorf("under %v: stdout %q, want the JSON document", env, res.Stdout)
		}
	}
}

func TestVersion_asksTheServiceOnceAnHour(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register("GET", "/v1/actuator/info", 200, `{"version":"3.17.1"}`).Times(1)
	opts := cmdtest.Options{URL: reg.URL(), Env: map[string]string{"XDG_CACHE_HOME": t.TempDir(), "DBGOV_SERVER_VERSION": ""}}
	for range 2 {
		cmdtest.Run(t, opts, "version").Expect(t, 0).StdoutHas(t, "service 3.17.1 at")
	}
}

func TestVersion_serverVersionSaysTheReleaseInstead(t *testing.T) {
	reg := httpmock.New(t)
	for _, args := range [][]string{{"--server-version", "3.16.1"}, {"--server-version", "3.30.0"}} {
		res := cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Env: ask}, append([]string{"version"}, args...)...).Expect(t, 0)
		res.StdoutHas(t, "service "+args[1])
	}
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Env: map[string]string{"DBGOV_SERVER_VERSION": "3.16"}}, "idps", "list").Expect(t, 2).
		StderrHas(t, "server_version from DBGOV_SERVER_VERSION", `"3.16" is not of the form X.Y.Z`)
	if n := len(reg.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}
