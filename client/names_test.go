package client

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestValidateID_refusesWhatCannotBeAnID(t *testing.T) {
	for _, id := range []string{"prod", "alice@example.com", "o'neil+tag@sub.example.co.uk", "café-ü_~1", "a.b", "a:b"} {
		if err := ValidateID("widget", id); err != nil {
			t.Errorf("ValidateID(%q) = %v, want nil", id, err)
		}
	}
	refused := map[string][]string{
		"is empty":                                        {""},
		`may not be "."`:                                  {"."},
		`may not contain ".."`:                            {"..", "a..b@example.com"},
		`may not contain "/"`:                             {"a/b"},
		`may not contain "?"`:                             {"a?b"},
		`may not contain "#"`:                             {"a#b"},
		`may not contain "%"`:                             {"a%2Fb"},
		"may not contain spaces":                          {"a b", "a\u00a0b", "a\u2028b"},
		"may not contain control characters":              {"a\tb", "a\nb", "a\x00b", "a\x7fb", "a\u0085b"},
		"may not contain invisible formatting characters": {"a\u202eb"},
		"is not valid UTF-8":                              {"a\xffb"},
	}
	for reason, ids := range refused {
		for _, id := range ids {
			err := ValidateID("widget", id)
			if !errors.Is(err, ErrInvalidName) {
				t.Errorf("ValidateID(%q) = %v, want an error wrapping ErrInvalidName", id, err)
				continue
			}
			if want := fmt.Sprintf("invalid name: widget id %q %s", id, reason); err.Error() != want {
				t.Errorf("message = %q, want %q", err.Error(), want)
			}
		}
	}
}

func TestParseDatabase_readsBothForms(t *testing.T) {
	tests := []struct {
		name               string
		instance, database string
		want               DatabaseName
		wantErr            string
	}{
		{name: "ids", instance: "prod", database: "app", want: DatabaseName{"prod", "app"}},
		{name: "full name", database: "instances/prod/databases/app", want: DatabaseName{"prod", "app"}},
		{name: "full name with the same instance", instance: "prod", database: "instances/prod/databases/app", want: DatabaseName{"prod", "app"}},
		{name: "full name with another instance", instance: "dev", database: "instances/prod/databases/app", wantErr: `instance "dev" does not match`},
		{name: "no instance", database: "app", wantErr: "needs an instance"},
		{name: "nothing", wantErr: `instance id "" is empty`},
		{name: "no database", instance: "prod", wantErr: `database id "" is empty`},
		{name: "slash in a bare id", instance: "prod", database: "app/x", wantErr: "not of the form"},
		{name: "trailing slash", database: "instances/prod/databases/app/", wantErr: "not of the form"},
		{name: "wrong collection", database: "instances/prod/tables/app", wantErr: "not of the form"},
		{name: "empty id in a full name", database: "instances//databases/app", wantErr: `instance id "" is empty`},
		{name: "dot-dot in a full name", database: "instances/../databases/app", wantErr: `may not contain ".."`},
		{name: "query in a full name", database: "instances/prod/databases/app?x=1", wantErr: `may not contain "?"`},
		{name: "bad instance", instance: "pr od", database: "app", wantErr: "may not contain spaces"},
		{name: "percent", instance: "prod", database: "a%20b", wantErr: `may not contain "%"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseDatabase(tc.instance, tc.database)
			call := fmt.Sprintf("ParseDatabase(%q, %q)", tc.instance, tc.database)
			if checkParsed(t, call, got, err, tc.want, tc.wantErr) && got.String() != "instances/"+tc.want.Instance+"/databases/"+tc.want.Database {
				t.Errorf("String() = %q", got.String())
			}
		})
	}
}

func TestParse_acceptsIDOrFullName(t *testing.T) {
	db := DatabaseName{Instance: "prod", Database: "app"}
	type parseCase struct{ in, want, wantErr string }
	for _, fn := range []struct {
		name  string
		parse func(string) (string, error)
		cases []parseCase
	}{
		{"ParseUser", ParseUser, []parseCase{
			{in: "alice@example.com", want: "alice@example.com"},
			{in: "users/alice@example.com", want: "alice@example.com"},
			{in: "users/o'neil+x@example.com", want: "o'neil+x@example.com"},
			{in: "users/", wantErr: "is empty"},
			{in: "", wantErr: "is empty"},
			{in: "groups/dev@example.com", wantErr: `may not contain "/"`},
			{in: "users/users/a@x.com", wantErr: `may not contain "/"`},
			{in: "a@x.com?names=b", wantErr: `may not contain "?"`},
			{in: "alice@example.com ", wantErr: "may not contain spaces"},
		}},
		{"ParseReviewConfig", ParseReviewConfig, []parseCase{
			{in: "prod-rules", want: "prod-rules"},
			{in: "reviewConfigs/prod-rules", want: "prod-rules"},
			{in: "reviewConfigs/", wantErr: "is empty"},
			{in: "reviewConfigs/a/b", wantErr: `may not contain "/"`},
			{in: "policies/x", wantErr: `may not contain "/"`},
			{in: ".", wantErr: `may not be "."`},
		}},
		{"ParseChangelog", func(s string) (string, error) { return ParseChangelog(db, s) }, []parseCase{
			{in: "1001", want: "1001"},
			{in: "instances/prod/databases/app/changelogs/1001", want: "1001"},
			{in: "instances/prod/databases/other/changelogs/1001", wantErr: "is not a changelog of instances/prod/databases/app"},
			{in: "instances/prod/databases/app/changelogs/", wantErr: `changelog id "" is empty`},
			{in: "changelogs/1001", wantErr: "not of the form"},
			{in: "instances/prod/databases/app/revisions/1001", wantErr: "not of the form"},
			{in: "10 01", wantErr: "may not contain spaces"},
		}},
	} {
		for _, tc := range fn.cases {
			got, err := fn.parse(tc.in)
			checkParsed(t, fmt.Sprintf("%s(%q)", fn.name, tc.in), got, err, tc.want, tc.wantErr)
		}
	}
}

// checkParsed reports a parse call that did not give want, or, when wantErr is
// set, an invalid name error containing it; it returns whether the call gave want.
func checkParsed[T comparable](t *testing.T, call string, got T, err error, want T, wantErr string) bool {
	t.Helper()
	if wantErr != "" {
		if !errors.Is(err, ErrInvalidName) || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s = %v, %v; want an invalid name error containing %q", call, got, err, wantErr)
		}
		return false
	}
	if err != nil || got != want {
		t.Errorf("%s = %v, %v; want %v", call, got, err, want)
		return false
	}
	return true
}
