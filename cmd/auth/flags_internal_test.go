package auth

import (
	"testing"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/flagtest"
)

// TestLoginCmd_flags parses auth login's flags without a service or a
// keyring: the credential its run would read, or the usage error that
// stops it first.
func TestLoginCmd_flags(t *testing.T) {
	// The credential flags are global: the group carries them here, as the
	// root command does.
	newCmd := func(f *factory.Factory, runF func(*loginOptions) error) *cobra.Command {
		cmd := NewCmd(f, runF)
		f.RegisterFlags(cmd.PersistentFlags())
		return cmd
	}
	flagtest.Run(t, newCmd, []flagtest.Case[loginOptions]{
		{Name: "a token from standard input", Args: "login --token -",
			Want: func(o *loginOptions) bool {
				return o.Token == "-" && o.ServiceAccount == "" && !o.Insecure && !o.Workload
			}},
		{Name: "a service account kept in the file", Args: "login --service-account ci@x.com --service-key - --insecure-storage",
			Want: func(o *loginOptions) bool { return o.ServiceAccount == "ci@x.com" && o.ServiceKey == "-" && o.Insecure }},
		{Name: "a workload identity", Args: "login --workload-identity ci@x.com",
			Want: func(o *loginOptions) bool { return o.Workload && o.Token == "" }},
		{Name: "a token as an argument", Args: "login --token tok-123", WantErr: "never from an argument"},
		{Name: "a key as an argument", Args: "login --service-account ci@x.com --service-key k-123", WantErr: "never from an argument"},
		{Name: "an account without its key", Args: "login --service-account ci@x.com", WantErr: "give either --token -"},
		{Name: "a token and an account", Args: "login --token - --service-account ci@x.com --service-key -", WantErr: "give either --token -"},
		{Name: "nothing, piped", Args: "login", WantErr: "give either --token -"},
	})
}
