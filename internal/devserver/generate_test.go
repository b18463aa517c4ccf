package devserver

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

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
	catalog := s.st.instances[GeneratedInstance].databases[GeneratedDatabase].catalog
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

func TestGenerateSeed_addsAFleetOfWhichSomeDrifted(t *testing.T) {
	var buf bytes.Buffer
	if err := GenerateSeed(&buf, GenerateOptions{Databases: 15}); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Seed: &buf})
	if err != nil {
		t.Fatalf("the generated seed does not load: %v", err)
	}
	body := `{"schema": ` + strconv.Quote(FleetSchema) + `}`
	var drifted []string
	for i := 1; i <= 15; i++ {
		db := fmt.Sprintf("/v1/instances/%s/databases/db%04d", FleetInstance, i)
		r := call(t, s, http.MethodPost, db+":diffSchema", s.AdminToken(), body)
		wantStatus(t, r, http.StatusOK)
		var diff client.DiffSchemaResponse
		if r.decode(t, &diff); diff.Diff != "" {
			drifted = append(drifted, fmt.Sprint(i))
		}
		r = call(t, s, http.MethodGet, db+"/policies", s.AdminToken(), "")
		wantStatus(t, r, http.StatusOK)
		var policies client.ListPoliciesResponse
		if r.decode(t, &policies); len(policies.Policies) != 2 {
			t.Errorf("db%04d has %d policies, want 2", i, len(policies.Policies))
		}
	}
	if got := strings.Join(drifted, " "); got != "3 10" {
		t.Errorf("drifted databases %s, want 3 10", got)
	}
}

func TestOptions_latencyDelaysEveryAnswer(t *testing.T) {
	s, err := New(Options{Latency: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	wantStatus(t, call(t, s, http.MethodGet, "/v1/idps", "", ""), http.StatusOK)
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("answered after %s, want 50ms at least", d)
	}
}
