package output

import (
	"strings"
	"testing"
)

func TestJQPrinter_printsWhatJQRawWould(t *testing.T) {
	const raw = `{"users": [{"name": "users/a@x.com", "title": "A\tB", "quota": 123456789012345678901234567890, "n": 1.50,
		"groups": ["g1", "g2"], "tempRecoveryCodes": ["c1"], "profile": {"z": 1, "a": {}}}], "next": null}`
	tests := []struct {
		name, expr string
		show       bool
		want       string
	}{
		{name: "strings raw", expr: ".users[].name", want: "users/a@x.com\n"},
		{name: "control characters in strings raw", expr: ".users[0].title", want: "A\tB\n"},
		{name: "objects indented with two spaces, keys sorted", expr: ".users[0].profile", want: "{\n  \"a\": {},\n  \"z\": 1\n}\n"},
		{name: "arrays indented", expr: ".users[0].groups", want: "[\n  \"g1\",\n  \"g2\"\n]\n"},
		{name: "each result on its own line", expr: ".users[0].groups[]", want: "g1\ng2\n"},
		{name: "large integers kept", expr: ".users[0].quota", want: "123456789012345678901234567890\n"},
		{name: "number text kept", expr: ".users[0].n", want: "1.50\n"},
		{name: "arithmetic", expr: ".users | length + 1", want: "2\n"},
		{name: "null", expr: ".next", want: "null\n"},
		{name: "booleans", expr: ".users[0].name | startswith(\"users/\")", want: "true\n"},
		{name: "no results", expr: "empty", want: ""},
		{name: "secrets masked", expr: ".users[0].tempRecoveryCodes", want: "********\n"},
		{name: "secrets shown", expr: ".users[0].tempRecoveryCodes[0]", show: true, want: "c1\n"},
		{name: "strings inside arrays stay JSON", expr: "[.users[0].title]", want: "[\n  \"A\\tB\"\n]\n"},
		{name: "halt stops quietly", expr: ".users[0].name, halt, \"after\"", want: "users/a@x.com\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := render(t, Options{JQ: tt.expr, ShowSecrets: tt.show}, Document{Raw: []byte(raw), ListField: "users"})
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestJQPrinter_seesTheEnsuredListField(t *testing.T) {
	got, err := render(t, Options{JQ: ".policies | length"}, Document{Raw: []byte(`{}`), ListField: "policies"})
	if err != nil {
		t.Fatal(err)
	}
	if got != "0\n" {
		t.Errorf("got %q, want %q", got, "0\n")
	}
}

func TestJQPrinter_returnsRuntimeErrors(t *testing.T) {
	tests := []struct {
		expr, wantOut, wantErr string
	}{
		{`.users[] | .name + 1`, "", "cannot add"},
		{`"first", error("boom")`, "first\n", "boom"},
		{`.users.name`, "", "array"},
		{`"x" | halt_error`, "", "x"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			got, err := render(t, Options{JQ: tt.expr}, Document{Raw: []byte(`{"users":[{"name":"a"}]}`)})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want one mentioning %q", err, tt.wantErr)
			}
			if got != tt.wantOut {
				t.Errorf("printed %q before the error, want %q", got, tt.wantOut)
			}
		})
	}
}

func TestJQPrinter_rejectsInvalidJSON(t *testing.T) {
	if _, err := render(t, Options{JQ: "."}, Document{Raw: []byte(`<html>`)}); err == nil {
		t.Error("invalid JSON filtered without error")
	}
}
