package users_test

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// manyUsers is a batch get answer of n users, about 500 bytes each.
func manyUsers(n int) string {
	var b bytes.Buffer
	b.WriteString(`{"users": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"name": "users/user%06d@example.com", "state": "ACTIVE", "email": "user%06d@example.com", `+
			`"title": "User Number %d \u00e9", "userType": "USER", "mfaEnabled": %t, "phone": "+1555%07d", `+
			`"profile": {"lastLoginTime": "2025-01-02T03:04:05Z", "lastChangePasswordTime": "2024-12-01T00:00:00Z", "source": "ldap"}, `+
			`"groups": ["groups/eng@example.com", "groups/dba@example.com"], `+
			`"tempOtpSecret": "JBSWY3DPEHPK3PXP", "tempRecoveryCodes": ["a1b2c3", "d4e5f6", "g7h8i9"]}`,
			i, i, i, i%2 == 0, i)
	}
	b.WriteString("]}")
	return b.String()
}

// BenchmarkBatchGet runs the whole command on 50,000 users (about 25 MB),
// from the request to the printed output, in each output mode.
func BenchmarkBatchGet(b *testing.B) {
	body := manyUsers(50000)
	for _, bc := range []struct {
		name string
		args []string
		tty  bool
	}{
		{"table", nil, false},
		{"table_tty", nil, true},
		{"json", []string{"-o", "json"}, false},
		{"jq", []string{"--jq", ".users[].email"}, false},
		{"name", []string{"-o", "name"}, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			reg := httpmock.New(b)
			reg.Register(http.MethodGet, "/v1/users:batchGet", 200, body)
			args := append([]string{"users", "batch-get", "user000000@example.com"}, bc.args...)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				res := cmdtest.Run(b, cmdtest.Options{URL: reg.URL(), TTY: bc.tty}, args...)
				if res.Code != 0 {
					b.Fatalf("exit %d: %s", res.Code, res.Stderr)
				}
			}
		})
	}
}
