package root_test

import (
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/output"
)

func TestCompletion_offersTheOutputFormats(t *testing.T) {
	tests := []struct {
		name, typed string
		want        []string
	}{
		{"every format", "", output.Formats},
		{"those that start with what was typed", "j", []string{"json", "jsonl", "junit"}},
		{"in any case", "YA", []string{"yaml"}},
		{"none", "xml", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := cmdtest.Run(t, cmdtest.Options{}, "__complete", "idps", "list", "-o", tt.typed).Expect(t, 0)
			var got []string
			for _, line := range strings.Split(strings.TrimSpace(res.Stdout), "\n") {
				if line != "" && !strings.HasPrefix(line, ":") {
					got = append(got, line)
				}
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("completions %q, want %q", got, tt.want)
			}
		})
	}
}
