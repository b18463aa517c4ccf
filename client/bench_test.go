package client

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// usersBody returns a users:batchGet answer of at least size bytes, with
// users as the service sends them.
func usersBody(size int) []byte {
	var b bytes.Buffer
	b.Grow(size + 1024)
	b.WriteString(`{"users": [`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		n := strconv.Itoa(i)
		b.WriteString(`{"name": "users/user` + n + `@example.com", "state": "ACTIVE", "email": "user` + n +
			`@example.com", "title": "User Number ` + n + `", "userType": "USER", "mfaEnabled": true, "phone": "+14155550100",` +
			` "profile": {"lastLoginTime": "2026-02-03T04:05:06Z", "lastChangePasswordTime": "2025-12-01T00:00:00Z", "source": "OIDC"},` +
			` "groups": ["groups/dev@example.com", "groups/ops@example.com"]}`)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BenchmarkBatchGetUsers_25MB measures a whole call: request, reading and
// decoding a 25 MB answer from a loopback server.
func BenchmarkBatchGetUsers_25MB(b *testing.B) {
	body := usersBody(25 << 20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	c, err := New(Options{BaseURL: srv.URL, Token: testToken})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		list, raw, err := batchGetUsers(context.Background(), c, []string{"a@example.com"})
		if err != nil || len(raw) != len(body) || len(list.Users) == 0 {
			b.Fatalf("got %d bytes, %v", len(raw), err)
		}
	}
}

// BenchmarkDecodeUsers_25MB is the floor of the call above: decoding the same
// answer from memory, with nothing else.
func BenchmarkDecodeUsers_25MB(b *testing.B) {
	body := usersBody(25 << 20)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var out BatchGetUsersResponse
		if err := json.Unmarshal(body, &out); err != nil {
			b.Fatal(err)
		}
	}
}
