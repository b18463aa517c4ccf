package factory_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/output"
)

// newFactory returns a factory whose flags were parsed from args, with env
// as its environment and a config file holding configured (YAML).
func newFactory(t *testing.T, ios *iostreams.IOStreams, env map[string]string, configured string, args ...string) *factory.Factory {
	t.Helper()
	path := cmdtest.WriteFile(t, "config.yaml", configured)
	env["DBGOV_CONFIG"] = path
	f := factory.New(ios, "1.2.3", "abc", func(k string) string { return env[k] })
	fs := pflag.NewFlagSet("dbgov", pflag.ContinueOnError)
	f.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestPrintFlags_formatAndWhereItsDefaultComesFrom(t *testing.T) {
	const yamlInConfig = "profiles:\n  default:\n    output: yaml\n"
	// The defaults commands take: the factory's (environment, then config
	// file), the config commands' (environment alone), and version's when
	// the settings cannot be read (none).
	envOnly := func(pf output.PrintFlags, env map[string]string) output.PrintFlags {
		pf.Format = func() (string, error) {
			if o := pf.Flags.Lookup("output"); o.Changed {
				return o.Value.String(), nil
			}
			return env["DBGOV_OUTPUT"], nil
		}
		pf.SummaryFile = nil
		return pf
	}
	flagsOnly := func(pf output.PrintFlags, _ map[string]string) output.PrintFlags {
		pf.Format, pf.SummaryFile = nil, nil
		return pf
	}
	factoryDefault := func(pf output.PrintFlags, _ map[string]string) output.PrintFlags { return pf }
	tests := []struct {
		name        string
		from        func(output.PrintFlags, map[string]string) output.PrintFlags
		env         map[string]string
		config      string
		args        []string
		wantFormat  string
		wantDefault bool
	}{
		{"-o wins", factoryDefault, map[string]string{"DBGOV_OUTPUT": "json"}, yamlInConfig, []string{"-o", "wide"}, "wide", false},
		{"environment before config", factoryDefault, map[string]string{"DBGOV_OUTPUT": "name"}, yamlInConfig, nil, "name", true},
		{"config", factoryDefault, map[string]string{}, yamlInConfig, nil, "yaml", true},
		{"environment only: the config file is not read", envOnly, map[string]string{"DBGOV_OUTPUT": "json"}, "output: [not, a, format", nil, "json", true},
		{"environment only, -o wins", envOnly, map[string]string{"DBGOV_OUTPUT": "json"}, "", []string{"-o", "yaml"}, "yaml", false},
		{"flags only: neither", flagsOnly, map[string]string{"DBGOV_OUTPUT": "xml"}, "output: [bad", nil, "table", true},
		{"flags only, -o wins", flagsOnly, map[string]string{}, "", []string{"-o", "name"}, "name", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, _ := cmdtest.Streams()
			f := newFactory(t, ios, tt.env, tt.config, tt.args...)
			pf := tt.from(f.PrintFlags(), tt.env)
			opts, err := pf.Options()
			if err != nil {
				t.Fatal(err)
			}
			if opts.Format != tt.wantFormat || opts.FormatIsDefault != tt.wantDefault {
				t.Errorf("format %q (default %t), want %q (default %t)", opts.Format, opts.FormatIsDefault, tt.wantFormat, tt.wantDefault)
			}
			if _, err := pf.ToPrinter(); err != nil {
				t.Errorf("ToPrinter: %v", err)
			}
		})
	}
}

func TestPrintFlags_colour(t *testing.T) {
	tests := []struct {
		name                 string
		outColour, errColour bool // what the terminals and NO_COLOR allow each stream
		args                 []string
		wantOut, wantErr     bool
	}{
		{"auto on a terminal", true, true, nil, true, true},
		{"auto piped", false, false, nil, false, false},
		{"auto, stderr alone a terminal", false, true, nil, false, true},
		{"always piped", false, false, []string{"--color", "always"}, true, true},
		{"always wins over NO_COLOR", false, false, []string{"--color=always"}, true, true},
		{"never on a terminal", true, true, []string{"--color", "never"}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, _ := cmdtest.Streams()
			ios.OutTTY, ios.ColorEnabled, ios.ErrTTY, ios.ErrColorEnabled = tt.outColour, tt.outColour, tt.errColour, tt.errColour
			f := newFactory(t, ios, map[string]string{}, "", tt.args...)
			opts, err := f.PrintFlags().Options()
			if err != nil {
				t.Fatal(err)
			}
			if opts.Color != tt.wantOut || ios.ErrColorEnabled != tt.wantErr {
				t.Errorf("colour on stdout %t, stderr %t; want %t, %t", opts.Color, ios.ErrColorEnabled, tt.wantOut, tt.wantErr)
			}
		})
	}
}

func TestPrintFlags_badValuesAreUsageErrors(t *testing.T) {
	tests := []struct {
		name, want string
		args       []string
	}{
		{"colour", `--color must be auto, always or never, not "sometimes"`, []string{"--color", "sometimes"}},
		{"empty jq", "--jq needs a non-empty value", []string{"--jq", ""}},
		{"format", `"xml"`, []string{"-o", "xml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, _ := cmdtest.Streams()
			f := newFactory(t, ios, map[string]string{}, "", tt.args...)
			pf := f.PrintFlags()
			pf.Format = nil
			_, err := pf.ToPrinter()
			if err == nil || exitcode.Classify(err).Code != exitcode.Usage || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want a usage error saying %s", err, tt.want)
			}
		})
	}
}

func TestSecrets_knowsEveryCredentialOfTheRun(t *testing.T) {
	const profile = "profiles:\n  default:\n    token: tok-from-file\n    headers: [\"X-Api-Key: key-from-file\"]\n"
	tests := []struct {
		name       string
		env        map[string]string
		config     string
		args       []string
		known      []string
		notKnown   []string
		resolveNot bool // the settings are left unresolved (a flag error)
	}{
		{"flags, the settings never resolved", map[string]string{}, "", []string{"--token", "tok-flag", "--service-key", "key-flag",
			"--url", "https://u:pw-flag@gov.example.com", "--header", "Authorization: Bearer hdr-flag", "--header", "X-Env: prod-env"},
			[]string{"tok-flag", "key-flag", "pw-flag", "Bearer hdr-flag"}, []string{"prod-env", "gov.example.com"}, true},
		{"environment, the settings never resolved", map[string]string{"DBGOV_TOKEN": "tok-env", "DBGOV_SERVICE_KEY": "key-env",
			"DBGOV_URL": "https://tok-user@gov.example.com"}, "", nil, []string{"tok-env", "key-env", "tok-user"}, nil, true},
		{"config file", map[string]string{}, profile, nil, []string{"tok-from-file", "key-from-file"}, []string{"X-Api-Key"}, false},
		{"a header in a bad form is masked whole", map[string]string{}, "", []string{"--header", "Authorization Bearer hdr-bad: x"},
			[]string{"Authorization Bearer hdr-bad: x", "Authorization Bearer hdr-bad"}, nil, false},
		{"a bad value is masked, a plain name kept", map[string]string{}, "", []string{"--header", "Accept: a\x01val-bad"},
			[]string{"a\x01val-bad"}, []string{"Accept"}, false},
		{"a credential header's name is masked with its bad value", map[string]string{}, "", []string{"--header", "X-Api-Key: k\x01key-bad"},
			[]string{"X-Api-Key", "k\x01key-bad"}, nil, false},
		{"settings invalid: what the file gave still known", map[string]string{"DBGOV_TIMEOUT": "soon"}, profile,
			nil, []string{"tok-from-file", "key-from-file"}, nil, false},
		{"settings invalid: flags and environment still known", map[string]string{"DBGOV_TOKEN": "tok-env", "DBGOV_TIMEOUT": "soon"}, profile,
			[]string{"--service-key", "key-flag"}, []string{"tok-env", "key-flag"}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, _ := cmdtest.Streams()
			f := newFactory(t, ios, tt.env, tt.config, tt.args...)
			if !tt.resolveNot {
				_, _ = f.Settings()
			}
			text := strings.Join(append(slices.Clone(tt.known), tt.notKnown...), " | ")
			got := f.Secrets().String(text)
			for _, s := range tt.known {
				if strings.Contains(got, s) {
					t.Errorf("%q is not masked: %s", s, got)
				}
			}
			for _, s := range tt.notKnown {
				if !strings.Contains(got, s) {
					t.Errorf("%q is masked: %s", s, got)
				}
			}
		})
	}
}

func TestWarn_masksTheCredentialsOfTheRun(t *testing.T) {
	for _, args := range [][]string{{"--token", "tok-a1b2c3"}, {"--token", "tok-a1b2c3", "-o", "json"}} {
		ios, _, _, errOut := cmdtest.Streams()
		f := newFactory(t, ios, map[string]string{}, "", args...)
		f.ReadStderrForm()
		ios.Warn(`profile "tok-a1b2c3" is not in the config file`)
		if got := errOut.String(); strings.Contains(got, "tok-a1b2c3") || !strings.Contains(got, "********") {
			t.Errorf("%v: %s", args, got)
		}
	}
}
