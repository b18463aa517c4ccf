package users_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
)

// answerUsers answers a batch get with the users it names, about 500 bytes
// each.
func answerUsers(w http.ResponseWriter, r *http.Request) {
	var b bytes.Buffer
	b.WriteString(`{"users": [`)
	for i, name := range queried(r) {
		email := strings.TrimPrefix(name, "users/")
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"name": "users/%s", "state": "ACTIVE", "email": "%s", `+
			`"title": "User Number %d \u00e9", "userType": "USER", "mfaEnabled": %t, "phone": "+1555%07d", `+
			`"profile": {"lastLoginTime": "2025-01-02T03:04:05Z", "lastChangePasswordTime": "2024-12-01T00:00:00Z", "source": "ldap"}, `+
			`"groups": ["groups/eng@example.com", "groups/dba@example.com"], `+
			`"tempOtpSecret": "JBSWY3DPEHPK3PXP", "tempRecoveryCodes": ["a1b2c3", "d4e5f6", "g7h8i9"]}`,
			email, email, i, i%2 == 0, i)
	}
	b.WriteString("]}")
	w.Header().Set("Content-Type", "application/json")
	w.Write(b.Bytes())
}

// BenchmarkBatchGet runs the whole command on 50,000 users (about 20 MB,
// asked for in parts), from the requests to the printed output, in each
// output mode.
func BenchmarkBatchGet(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(answerUsers))
	defer srv.Close()
	var names strings.Builder
	for i := range 50000 {
		fmt.Fprintf(&names, "user%06d@example.com\n", i)
	}
	formats := cmdtest.Command{JQ: ".users[].email"}
	for _, name := range []string{"table", "table_tty", "json", "jq", "name"} {
		f := formats.Format(name)
		b.Run(name, func(b *testing.B) {
			args := append([]string{"users", "batch-get", "-"}, f.Args...)
			b.ReportAllocs()
			for b.Loop() {
				res := cmdtest.Run(b, cmdtest.Options{URL: srv.URL, TTY: f.TTY, Stdin: names.String()}, args...)
				if res.Code != 0 {
					b.Fatalf("exit %d: %s", res.Code, res.Stderr)
				}
			}
		})
	}
}
