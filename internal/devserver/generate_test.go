package devserver

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/client"
)

func TestGenerateSeed_addsUsersAndACatalog(t *testing.T) {
	var buf bytes.Buffer
	if err := GenerateSeed(&buf, GenerateOptions{Users: 200, Tables: 30, ColumnsPerTable: 12}); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Seed: &buf})
	if err != nil {
		t.Fatalf("the generated seed does not load: %v", err)
	}
	q := url.Values{}
	for i := 1; i <= 200; i++ {
		q.Add("names", GeneratedUserName(i))
	}
	q.Add("names", "users/admin@example.com")
	r := call(t, s, http.MethodGet, "/v1/users:batchGet?"+q.Encode(), s.AdminToken(), "")
	wantStatus(t, r, http.StatusOK)
	var users client.BatchGetUsersResponse
	r.decode(t, &users)
	if len(users.Users) != 201 {
		t.Fatalf("got %d users, want 201", len(users.Users))
	}
	kinds := map[string]bool{}
	for _, u := range users.Users {
		kinds[string(u.UserType)+"/"+string(u.State)] = true
	}
	for _, k := range []string{"USER/ACTIVE", "USER/DELETED", "SERVICE_ACCOUNT/ACTIVE", "WORKLOAD_IDENTITY/ACTIVE"} {
		if !kinds[k] {
			t.Errorf("no generated user is %s", k)
		}
	}
	s.mu.Lock()
	catalog := s.st.instances[GeneratedInstance][GeneratedDatabase].catalog
	s.mu.Unlock()
	tables, columns := 0, 0
	for _, sc := range catalog.Schemas {
		for _, tb := range sc.Tables {
			tables++
			columns += len(tb.Columns.Columns)
		}
	}
	if tables != 30 || columns != 30*12 {
		t.Errorf("catalog has %d tables and %d columns, want 30 and 360", tables, columns)
	}
}

func TestGenerateSeed_isDeterministicAndSized(t *testing.T) {
	var a, b bytes.Buffer
	opts := GenerateOptions{Users: 1000}
	if err := GenerateSeed(&a, opts); err != nil {
		t.Fatal(err)
	}
	if err := GenerateSeed(&b, opts); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two runs with the same options differ")
	}
	// About 500 bytes a user, so that 50,000 users make about 25 MB.
	var demo bytes.Buffer
	if err := GenerateSeed(&demo, GenerateOptions{}); err != nil {
		t.Fatal(err)
	}
	perUser := (a.Len() - demo.Len()) / 1000
	if perUser < 400 || perUser > 600 {
		t.Errorf("a generated user takes %d bytes, want about 500", perUser)
	}
	if err := GenerateSeed(&a, GenerateOptions{Users: -1}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("negative size: err = %v", err)
	}
}

func BenchmarkNew_generatedSeed(b *testing.B) {
	for _, opts := range []GenerateOptions{{Users: 50_000}, {Tables: 5_000, ColumnsPerTable: 20}} {
		var seed bytes.Buffer
		if err := GenerateSeed(&seed, opts); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("users=%d,tables=%d", opts.Users, opts.Tables), func(b *testing.B) {
			b.SetBytes(int64(seed.Len()))
			for b.Loop() {
				if _, err := New(Options{Seed: bytes.NewReader(seed.Bytes())}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
