package jsondoc

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkCheck checks a users answer of 50,000 users, about 25 MB.
func BenchmarkCheck(b *testing.B) {
	var raw bytes.Buffer
	raw.WriteString(`{"users": [`)
	for i := range 50000 {
		if i > 0 {
			raw.WriteString(", ")
		}
		fmt.Fprintf(&raw, `{"name": "users/user%06d@example.com", "state": "ACTIVE", "email": "user%06d@example.com", "title": "User %d", `+
			`"userType": "USER", "mfaEnabled": true, "phone": "+1555%07d", "profile": {"lastLoginTime": "2025-01-02T03:04:05Z", "source": "ldap"}, `+
			`"groups": ["groups/eng@example.com", "groups/dba@example.com"], "tempOtpSecret": "JBSWY3DPEHPK3PXP", "tempRecoveryCodes": ["a1b2c3", "d4e5f6"], `+
			`"workloadIdentityConfig": {"providerType": "GITHUB", "issuerUrl": "https://token.actions.example.com", "allowedAudiences": ["aud"]}}`, i, i, i, i)
	}
	raw.WriteString("]}")
	b.SetBytes(int64(raw.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if err := Check(raw.Bytes()); err != nil {
			b.Fatal(err)
		}
	}
}
