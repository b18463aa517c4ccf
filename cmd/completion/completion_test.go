package completion_test

import (
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
)

func TestCompletion_scriptForEachShell(t *testing.T) {
	// A broken config file must not matter: the script reads no settings.
	bad := cmdtest.WriteFile(t, "config.yaml", "profiles:\n  default:\n    timeout: soon\n")
	tests := []struct {
		shell string
		want  []string
	}{
		{"bash", []string{"# bash completion V2 for dbgov", "__start_dbgov", "complete -o default -F __start_dbgov dbgov"}},
		{"zsh", []string{"#compdef dbgov", "compdef _dbgov dbgov"}},
		{"fish", []string{"# fish completion for dbgov", "complete -c dbgov"}},
		{"powershell", []string{"# powershell completion for dbgov", "Register-ArgumentCompleter"}},
		{"ZSH", []string{"#compdef dbgov"}},
	}
	for _, tt := range tests {
		t.Run(tt.shell, func(t *testing.T) {
			res := cmdtest.Run(t, cmdtest.Options{Env: map[string]string{"DBGOV_CONFIG": bad}}, "completion", tt.shell).Expect(t, 0)
			if res.Stderr != "" {
				t.Errorf("stderr: %s", res.Stderr)
			}
			res.StdoutHas(t, tt.want...)
			// The script calls back into dbgov for the values.
			res.StdoutHas(t, "__complete")
		})
	}
}

func TestCompletion_usage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no shell", []string{"completion"}, "takes a SHELL: bash, zsh, fish, powershell"},
		{"two shells", []string{"completion", "bash", "zsh"}, "takes a SHELL"},
		{"unknown shell", []string{"completion", "tcsh"}, `unknown shell "tcsh": use one of bash, zsh, fish, powershell`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := cmdtest.Run(t, cmdtest.Options{}, tt.args...).Expect(t, 2).StderrHas(t, tt.want)
			if res.Stdout != "" {
				t.Errorf("stdout %q", res.Stdout)
			}
		})
	}
}

// TestComplete_values asks dbgov what a shell would offer, as the scripts
// do through the hidden __complete command: the candidates, one a line,
// then ":" and the directive (4: no file completion).
func TestComplete_values(t *testing.T) {
	cfg := cmdtest.WriteFile(t, "config.yaml", "profiles:\n  default: {}\n  staging:\n    url: https://s.example.com\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"output formats", []string{"schema", "diff", "-o", ""}, "table\njson\nyaml\nname\nwide\njsonl\nmarkdown\njunit\n:4\n"},
		{"output formats by prefix", []string{"api", "GET", "/v1/idps", "--output", "y"}, "yaml\n:4\n"},
		{"output formats after =", []string{"config", "view", "--output=j"}, "json\njsonl\njunit\n:4\n"},
		{"shells", []string{"completion", ""}, "bash\nzsh\nfish\npowershell\n:4\n"},
		{"shells by prefix", []string{"completion", "p"}, "powershell\n:4\n"},
		{"api methods", []string{"api", ""}, "GET\nPOST\nPATCH\nPUT\nDELETE\n:4\n"},
		{"config keys", []string{"config", "get", ""}, "url\ntoken\nservice_account\nservice_key\nworkload_identity\nheaders\noutput\ntimeout\ninsecure_skip_tls_verify\nca_cert\nmax_response_size\nserver_version\n:4\n"},
		{"config output values", []string{"config", "set", "output", ""}, "table\njson\nyaml\nname\nwide\njsonl\nmarkdown\njunit\n:4\n"},
		{"profiles of the file", []string{"config", "use-profile", ""}, "default\nstaging\n:4\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"__complete"}, tt.args...)
			res := cmdtest.Run(t, cmdtest.Options{Env: map[string]string{"DBGOV_CONFIG": cfg}}, args...).Expect(t, 0)
			if res.Stdout != tt.want {
				t.Errorf("offered %q, want %q", res.Stdout, tt.want)
			}
		})
	}
}
