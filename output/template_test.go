package output

import (
	"strings"
	"testing"
)

func TestTemplatePrinter_executesOverTheDocument(t *testing.T) {
	const raw = `{"users": [{"name": "users/a@x.com", "state": "ACTIVE", "groups": ["g1", "g2"], "quota": 123456789012345678901234567890, "tempOtpSecret": "s"},
		{"name": "users/b@x.com", "state": "DELETED", "title": "A very long title"}]}`
	tests := []struct {
		name, tmpl string
		show       bool
		want       string
	}{
		{name: "range and fields, no newline added", tmpl: `{{range .users}}{{.name}} {{.state}};{{end}}`,
			want: "users/a@x.com ACTIVE;users/b@x.com DELETED;"},
		{name: "explicit newlines", tmpl: "{{range .users}}{{.name}}\n{{end}}", want: "users/a@x.com\nusers/b@x.com\n"},
		{name: "join", tmpl: `{{join "," (index .users 0).groups}}`, want: "g1,g2"},
		{name: "join of a missing list", tmpl: `{{join "," (index .users 1).groups}}`, want: ""},
		{name: "json renders compact JSON", tmpl: `{{json (index .users 0).groups}}`, want: `["g1","g2"]`},
		{name: "json of an object", tmpl: `{{json (index .users 1)}}`,
			want: `{"name":"users/b@x.com","state":"DELETED","title":"A very long title"}`},
		{name: "large integers kept", tmpl: `{{(index .users 0).quota}}`, want: "123456789012345678901234567890"},
		{name: "upper and lower", tmpl: `{{upper "abc"}} {{lower (index .users 0).state}}`, want: "ABC active"},
		{name: "pluck", tmpl: `{{join " " (pluck "name" .users)}}`, want: "users/a@x.com users/b@x.com"},
		{name: "truncate", tmpl: `{{truncate 6 (index .users 1).title}}|{{truncate 50 "short"}}`, want: "A ver…|short"},
		{name: "secrets masked", tmpl: `{{(index .users 0).tempOtpSecret}}`, want: "********"},
		{name: "secrets shown", tmpl: `{{(index .users 0).tempOtpSecret}}`, show: true, want: "s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			printsExactly(t, Options{Template: tt.tmpl, ShowSecrets: tt.show}, Document{Raw: []byte(raw), ListField: "users"}, tt.want)
		})
	}
}

func TestTemplatePrinter_seesTheEnsuredListField(t *testing.T) {
	printsExactly(t, Options{Template: `{{len .revisions}}`}, Document{Raw: []byte(`{}`), ListField: "revisions"}, "0")
}

func TestTemplatePrinter_returnsExecutionErrors(t *testing.T) {
	for _, tt := range []struct{ tmpl, want string }{
		{`{{join "," .name}}`, "want a list"},
		{`{{index .users 5}}`, "index out of range"},
		{`{{pluck "x" 3}}`, "want a list"},
	} {
		_, err := render(t, Options{Template: tt.tmpl}, Document{Raw: []byte(`{"name":"n","users":[1]}`)})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error = %v, want one mentioning %q", tt.tmpl, err, tt.want)
		}
	}
}
