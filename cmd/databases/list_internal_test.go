package databases

import (
	"strings"
	"testing"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/listing"
	"github.com/dbgov/dbgov/internal/iostreams"
)

func TestNewListCmd_flags(t *testing.T) {
	tests := []struct {
		args    string
		want    listOptions
		wantErr string
	}{
		{args: "--instance prod-pg", want: listOptions{Instance: "prod-pg"}},
		{args: "--project shop --filter name.contains(\"o\") --limit 5", want: listOptions{Project: "shop", Flags: listing.Flags{Filter: `name.contains("o")`, Limit: 5}}},
		{args: "--workspace", want: listOptions{Workspace: true}},
		{args: "", wantErr: "give exactly one parent"},
		{args: "--instance a --project b", wantErr: "give exactly one parent"},
		{args: "--project b --workspace", wantErr: "give exactly one parent"},
		{args: "--instance a --limit -1", wantErr: "--limit must be 0 (no limit) or more, not -1"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			ios := &iostreams.IOStreams{In: strings.NewReader(""), Out: &strings.Builder{}, ErrOut: &strings.Builder{}}
			var got *listOptions
			cmd := newListCmd(factory.New(ios, "test", "", func(string) string { return "" }), func(o *listOptions) error { got = o; return nil })
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
			case got.Instance != tt.want.Instance || got.Project != tt.want.Project || got.Workspace != tt.want.Workspace || got.Flags != tt.want.Flags:
				t.Errorf("options %+v, want %+v", *got, tt.want)
			}
		})
	}
}
