package devserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// newGenerated returns a server holding a generated seed.
func newGenerated(b testing.TB, opts GenerateOptions) *Server {
	b.Helper()
	var seed bytes.Buffer
	if err := GenerateSeed(&seed, opts); err != nil {
		b.Fatal(err)
	}
	s, err := New(Options{Seed: &seed})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func BenchmarkBatchGetUsers_50000(b *testing.B) {
	s := newGenerated(b, GenerateOptions{Users: 50_000})
	q := url.Values{}
	for i := 1; i <= 50_000; i++ {
		q.Add("names", GeneratedUserName(i))
	}
	target := "/v1/users:batchGet?" + q.Encode()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.Header.Set("Authorization", "Bearer "+adminToken)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %.200s", rec.Code, rec.Body)
		}
		b.SetBytes(int64(rec.Body.Len()))
	}
	b.ReportMetric(float64(len(target)), "query-bytes")
}

// BenchmarkListDatabases_50000 pages through a fleet of 50,000 databases,
// 1000 a page, as a client listing them in bounded memory does.
func BenchmarkListDatabases_50000(b *testing.B) {
	s := newGenerated(b, GenerateOptions{Databases: 50_000})
	for b.Loop() {
		for n, token := 0, ""; n == 0 || token != ""; n++ {
			var page struct{ NextPageToken string }
			req := httptest.NewRequest(http.MethodGet, "/v1/workspaces/"+WorkspaceID+"/databases?pageSize=1000&pageToken="+url.QueryEscape(token), nil)
			req.Header.Set("Authorization", "Bearer "+adminToken)
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if err := json.Unmarshal(rec.Body.Bytes(), &page); rec.Code != http.StatusOK || err != nil || n > 51 {
				b.Fatalf("page %d: status %d: %.200s", n, rec.Code, rec.Body)
			}
			token = page.NextPageToken
		}
	}
}

func BenchmarkCatalogUpdate_5000Tables20Columns(b *testing.B) {
	s := newGenerated(b, GenerateOptions{Tables: 5_000, ColumnsPerTable: 20})
	s.mu.Lock()
	body, err := json.Marshal(s.st.instances[GeneratedInstance].databases[GeneratedDatabase].catalog)
	s.mu.Unlock()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPatch, "/v1/instances/bench-pg/databases/warehouse/catalog", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+adminToken)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %.200s", rec.Code, rec.Body)
		}
	}
}

func BenchmarkSQLDiff(b *testing.B) {
	for _, columns := range []int{100, 1_900, 20_000} {
		var from, to strings.Builder
		from.WriteString("CREATE TABLE wide (\n")
		to.WriteString("CREATE TABLE wide (\n")
		for i := range columns {
			line := "  column_" + strconv.Itoa(i) + " text,\n"
			from.WriteString(line)
			if i%50 == 0 {
				line = "  column_" + strconv.Itoa(i) + " bigint,\n"
			}
			to.WriteString(line)
		}
		from.WriteString("  id bigint\n);\n")
		to.WriteString("  id bigint\n);\n")
		b.Run("columns="+strconv.Itoa(columns), func(b *testing.B) {
			for b.Loop() {
				sqlDiff(from.String(), to.String())
			}
		})
	}
}
