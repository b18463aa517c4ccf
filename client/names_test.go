package client

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestValidateID_refusesWhatCannotBeAnID(t *testing.T) {
	tests := []struct {
		id     string
		reason string // "" when accepted
	}{
		{id: "prod", reason: ""},
		{id: "alice@example.com", reason: ""},
		{id: "o'neil+tag@sub.example.co.uk", reason: ""},
		{id: "café-ü_~1", reason: ""},
		{id: "a.b", reason: ""},
		{id: "a:b", reason: ""},
		{id: "", reason: "is empty"},
		{id: ".", reason: `may not be "."`},
		{id: "..", reason: `may not contain ".."`},
		{id: "a..b@example.com", reason: `may not contain ".."`},
		{id: "a/b", reason: `may not contain "/"`},
		{id: "a?b", reason: `may not contain "?"`},
		{id: "a#b", reason: `may not contain "#"`},
		{id: "a%2Fb", reason: `may not contain "%"`},
		{id: "a b", reason: "may not contain spaces"},
		{id: "a\u00a0b", reason: "may not contain spaces"},
		{id: "a\u2028b", reason: "may not contain spaces"},
		{id: "a\tb", reason: "may not contain control characters"},
		{id: "a\nb", reason: "may not contain control characters"},
		{id: "a\x00b", reason: "may not contain control characters"},
		{id: "a\x7fb", reason: "may not contain control characters"},
		{id: "a\u0085b", reason: "may not contain control characters"},
		{id: "a\u202eb", reason: "may not contain invisible formatting characters"},
		{id: "a\xffb", reason: "is not valid UTF-8"},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			err := ValidateID("widget", tc.id)
			if tc.reason == "" {
				if err != nil {
					t.Fatalf("ValidateID(%q) = %v, want nil", tc.id, err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidName) {
				t.Fatalf("ValidateID(%q) = %v, want an error wrapping ErrInvalidName", tc.id, err)
			}
			want := "invalid name: widget id " + fmt.Sprintf("%q", tc.id) + " " + tc.reason
			if err.Error() != want {
				t.Errorf("message = %q, want %q", err.Error(), want)
			}
		})
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
			if tc.wantErr != "" {
				if !errors.Is(err, ErrInvalidName) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseDatabase(%q, %q) = %v, %v; want an invalid name error containing %q", tc.instance, tc.database, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ParseDatabase(%q, %q) = %v, %v; want %v", tc.instance, tc.database, got, err, tc.want)
			}
			if got.String() != "instances/"+tc.want.Instance+"/databases/"+tc.want.Database {
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
			if tc.wantErr != "" {
				if !errors.Is(err, ErrInvalidName) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("%s(%q) = %q, %v; want error containing %q", fn.name, tc.in, got, err, tc.wantErr)
				}
				continue
			}
			if err != nil || got != tc.want {
				t.Errorf("%s(%q) = %q, %v; want %q", fn.name, tc.in, got, err, tc.want)
			}
		}
	}
}
