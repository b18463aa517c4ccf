package output

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"testing"
)

// usersBody generates a users:batchGet response of n users, about 500
// bytes each, spaced the way the service spaces it. With secrets, every
// user carries an OTP secret and recovery codes.
func usersBody(n int, secrets bool) []byte {
	var b bytes.Buffer
	b.WriteString(`{"users": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"name": "users/user%06d@example.com", "state": "ACTIVE", "email": "user%06d@example.com", `+
			`"title": "User Number %d \u00e9\"quoted\"", "userType": "USER", "mfaEnabled": %t, "phone": "+1555%07d", `+
			`"profile": {"lastLoginTime": "2025-01-02T03:04:05Z", "lastChangePasswordTime": "2024-12-01T00:00:00Z", "source": "ldap"}, `+
			`"groups": ["groups/eng@example.com", "groups/dba@example.com"], "quota": "%s"`,
			i, i, i, i%2 == 0, i, strconv.FormatInt(int64(i)*1234567890123, 10))
		if secrets {
			b.WriteString(`, "tempOtpSecret": "JBSWY3DPEHPK3PXP", "tempRecoveryCodes": ["a1b2c3", "d4e5f6", "g7h8i9"]`)
		}
		b.WriteString(`, "workloadIdentityConfig": {"providerType": "GITHUB", "issuerUrl": "https://token.actions.example.com", "allowedAudiences": ["aud"], "subjectPattern": "repo:x/y:*"}}`)
	}
	b.WriteString("]}")
	return b.Bytes()
}

func benchmarkPrinter(b *testing.B, opts Options, doc Document) {
	p, err := New(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc.Raw)))
	b.ReportAllocs()
	for b.Loop() {
		if err := p.Print(context.Background(), io.Discard, doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkJSONPrinter_noSecrets(b *testing.B) {
	benchmarkPrinter(b, Options{Format: "json"}, Document{Raw: usersBody(50000, false), ListField: "users"})
}

func BenchmarkJSONPrinter_secrets(b *testing.B) {
	benchmarkPrinter(b, Options{Format: "json"}, Document{Raw: usersBody(50000, true), ListField: "users"})
}

func BenchmarkJQPrinter(b *testing.B) {
	benchmarkPrinter(b, Options{JQ: ".users[] | .name"}, Document{Raw: usersBody(50000, true), ListField: "users"})
}

func BenchmarkYAMLPrinter(b *testing.B) {
	benchmarkPrinter(b, Options{Format: "yaml"}, Document{Raw: usersBody(5000, true), ListField: "users"})
}

// usersTable is a users table of n rows.
func usersTable(n int) Table {
	t := Table{Headers: []string{"NAME", "STATE", "TYPE", "TITLE", "MFA", "GROUPS"}}
	t.Rows = make([][]string, n)
	for i := range t.Rows {
		t.Rows[i] = []string{
			fmt.Sprintf("users/user%06d@example.com", i), "ACTIVE", "SERVICE_ACCOUNT",
			fmt.Sprintf("User Number %d é", i), strconv.FormatBool(i%2 == 0), "groups/eng@example.com,groups/dba@example.com",
		}
	}
	return t
}

func BenchmarkTablePrinter(b *testing.B) {
	doc := Document{Tables: []Table{usersTable(50000)}}
	b.Run("piped", func(b *testing.B) { benchmarkPrinter(b, Options{}, doc) })
	b.Run("terminal", func(b *testing.B) { benchmarkPrinter(b, Options{TTY: true, Color: true, Width: 100}, doc) })
}

func BenchmarkJQPrinter_wholeDocument(b *testing.B) {
	// Not a path into a list: the document is decoded whole.
	benchmarkPrinter(b, Options{JQ: "[.users[] | select(.mfaEnabled)] | length"}, Document{Raw: usersBody(50000, true), ListField: "users"})
}

func BenchmarkTemplatePrinter(b *testing.B) {
	benchmarkPrinter(b, Options{Template: `{{range .users}}{{.email}}{{"\n"}}{{end}}`}, Document{Raw: usersBody(50000, true), ListField: "users"})
}

// BenchmarkDecodeDocument decodes a 25 MB answer into the values jq and
// templates work on, secrets masked.
func BenchmarkDecodeDocument(b *testing.B) {
	doc := Document{Raw: usersBody(50000, true), ListField: "users"}
	b.SetBytes(int64(len(doc.Raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeDocument(doc, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTablePrinter_tableOf prints a 50,000-row table declared with
// TableOf, whose rows are made as the printer goes over them, twice.
func BenchmarkTablePrinter_tableOf(b *testing.B) {
	type user struct {
		name, state, title string
		mfa                bool
	}
	users := make([]user, 50000)
	for i := range users {
		users[i] = user{fmt.Sprintf("users/user%06d@example.com", i), "ACTIVE", fmt.Sprintf("User Number %d é", i), i%2 == 0}
	}
	cols := []Column[user]{
		{Header: "NAME", Value: func(u *user) string { return u.name }},
		{Header: "STATE", Value: func(u *user) string { return u.state }},
		{Header: "TITLE", Value: func(u *user) string { return u.title }},
		{Header: "MFA", Value: func(u *user) string { return strconv.FormatBool(u.mfa) }},
	}
	doc := Document{Tables: []Table{TableOf(users, cols)}}
	p, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := p.Print(context.Background(), io.Discard, doc); err != nil {
			b.Fatal(err)
		}
	}
}
