package output

import (
	"github.com/spf13/pflag"

	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
)

// AddFlags registers --jq, --template, --no-headers, --show-secrets and
// --color on fs, the root command's persistent flags.
func AddFlags(fs *pflag.FlagSet) {
	fs.String("jq", "", "filter the JSON document with a jq `expression`; prints what jq -r would")
	fs.String("template", "", "format the JSON document with a Go `template`")
	fs.Bool("no-headers", false, "print tables without the header row")
	fs.Bool("show-secrets", false, "show secret fields (client secrets, bind passwords, OTP secrets, keys) instead of ********")
	fs.String("color", "auto", "`when` to colour: auto (on a terminal, unless NO_COLOR is set), always or never")
}

// PrintFlags are the output flags as one command reads them; as kubectl's,
// they choose the printer once (ToPrinter).
type PrintFlags struct {
	Flags     *pflag.FlagSet       // the command's flags, the output flags among them
	IO        *iostreams.IOStreams // where the output goes
	HiddenEnv []string             // environment variables --jq's $ENV leaves out
	Reports   bool                 // the command gives a Report: -o junit is possible
	// Format gives -o's value, the flag's or else the environment's or the
	// config file's, as the command takes it; nil takes the flag alone.
	Format func() (string, error)
	// SummaryFile gives --summary-file's value, the flag's or else the
	// environment's; nil for none.
	SummaryFile func() (string, error)
}

// Options resolves the output flags: -o or its default, --jq, --template,
// --no-headers, --show-secrets, --color, and what is known of stdout.
func (p PrintFlags) Options() (opts Options, err error) {
	out := p.Flags.Lookup("output") // registered by config, a setting
	opts = Options{Format: out.Value.String(), FormatIsDefault: !out.Changed, TTY: p.IO.OutTTY, Width: p.IO.TermWidth, HiddenEnv: p.HiddenEnv, Reports: p.Reports}
	if p.Format != nil {
		if opts.Format, err = p.Format(); err != nil {
			return Options{}, err
		}
	}
	if p.SummaryFile != nil {
		if opts.SummaryFile, err = p.SummaryFile(); err != nil {
			return Options{}, err
		}
	}
	for _, name := range []string{"jq", "template"} {
		if fl := p.Flags.Lookup(name); fl.Changed && fl.Value.String() == "" {
			return Options{}, exitcode.Usagef("--%s needs a non-empty value", name)
		}
	}
	opts.JQ, _ = p.Flags.GetString("jq")
	opts.Template, _ = p.Flags.GetString("template")
	opts.NoHeaders, _ = p.Flags.GetBool("no-headers")
	opts.ShowSecrets, _ = p.Flags.GetBool("show-secrets")
	when, _ := p.Flags.GetString("color")
	err = p.IO.SetColor(when)
	opts.Color = p.IO.ColorEnabled
	return opts, err
}

// ToPrinter returns the printer the output flags choose; its errors are
// usage errors.
func (p PrintFlags) ToPrinter() (Printer, error) {
	opts, err := p.Options()
	if err != nil {
		return nil, err
	}
	return New(opts)
}
