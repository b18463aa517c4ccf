package listing

import (
	"strings"
	"testing"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/iostreams"
)

func TestListCmd_flags(t *testing.T) {
	tests := []struct {
		args       string
		wantParent string
		wantLimit  int
		wantFilter string
		wantErr    string
	}{
		{args: "--instance prod-pg", wantParent: "prod-pg"},
		{args: `--project shop --filter name.contains("o") --limit 5`, wantParent: "shop", wantFilter: `name.contains("o")`, wantLimit: 5},
		{args: "--workspace"},
		{args: "", wantErr: "give exactly one of --instance I, --project P or --workspace"},
		{args: "--instance a --project b", wantErr: "give exactly one of"},
		{args: "--project b --workspace", wantErr: "give exactly one of"},
		{args: "--instance a --limit -1", wantErr: "--limit must be 0 (no limit) or more, not -1"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			ios := &iostreams.IOStreams{In: strings.NewReader(""), Out: &strings.Builder{}, ErrOut: &strings.Builder{}}
			var got *Options
			cmd := Cmd(factory.New(ios, "test", "", func(string) string { return "" }), help, databases, func(o *Options) error { got = o; return nil })
			cmd.SetArgs(strings.Fields(tt.args))
			cmd.SetOut(ios.ErrOut)
			cmd.SetErr(ios.ErrOut)
			err := cmd.Execute()
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error %v, want %q", err, tt.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case got.Instance+got.Project != tt.wantParent || got.Workspace != (tt.wantParent == "") || got.Limit != tt.wantLimit || got.Filter != tt.wantFilter:
				t.Errorf("options %+v", *got)
			}
		})
	}
}
