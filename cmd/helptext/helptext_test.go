package helptext_test

import (
	"testing"
	"testing/fstest"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/cmd/helptext"
)

func TestCommand_takesTheHelpOfItsFileByName(t *testing.T) {
	files := fstest.MapFS{
		"help/list.txt":  {Data: []byte("List things,\none a row.\n\nExamples:\n  dbgov things list\n\n  dbgov things list -o json\n")},
		"help/group.txt": {Data: []byte("Things and more.\n")},
	}
	tests := []struct {
		name                  string
		cmd                   *cobra.Command
		wantLong, wantExample string
	}{
		{"long help and examples", &cobra.Command{Use: "list [--all]"}, "List things,\none a row.", "  dbgov things list\n\n  dbgov things list -o json"},
		{"long help alone", &cobra.Command{Use: "group <command>"}, "Things and more.", ""},
		{"no file keeps what the command has", &cobra.Command{Use: "get ID", Long: "Get a thing.", Example: "  dbgov things get a"}, "Get a thing.", "  dbgov things get a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub := &cobra.Command{Use: "sub"}
			got := helptext.Command(files, tt.cmd, sub)
			if got != tt.cmd || got.Long != tt.wantLong || got.Example != tt.wantExample {
				t.Errorf("Long %q, Example %q; want %q, %q", got.Long, got.Example, tt.wantLong, tt.wantExample)
			}
			if len(got.Commands()) != 1 || got.Commands()[0] != sub {
				t.Errorf("subcommands %v, want the one given", got.Commands())
			}
		})
	}
}
