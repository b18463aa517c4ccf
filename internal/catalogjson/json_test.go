package catalogjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/client"
)

func TestEachTable_givesEachTableWithItsSchema(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{name: "tables of each schema in order",
			doc:  `{"name": "instances/i/databases/d/catalog", "schemas": [{"name": "public", "tables": [{"name": "t1", "classification": "1", "columns": {"columns": [{"name": "c1", "labels": {"a": "b"}}]}}, {"name": "t2"}]}, {"name": "raw", "tables": [{"name": "t3"}]}]}`,
			want: `public/{"name":"t1","columns":{"columns":[{"name":"c1","labels":{"a":"b"}}]},"classification":"1"} public/{"name":"t2"} raw/{"name":"t3"}`},
		{name: "the name after the tables", doc: `{"schemas": [{"tables": [{"name": "t"}], "name": "late"}]}`, want: `late/{"name":"t"}`},
		{name: "escapes, nulls and schemas without tables",
			doc:  `{"schemas": [{"name": "s\u00e9\"q\"", "tables": [null, {"name": "t", "objectSchema": {"type": "OBJECT"}}]}, null, {"name": "none"}, {"tables": null}]}`,
			want: `sé"q"/{} sé"q"/{"name":"t","objectSchema":{"type":"OBJECT"}}`},
		{name: "fields this version does not know", doc: `{"unknown": {"schemas": 1}, "schemas": [{"more": [1], "name": "s", "tables": [{"name": "t", "etag": "x"}]}]}`, want: `s/{"name":"t"}`},
		{name: "no schemas", doc: `{}`},
		{name: "null", doc: `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			err := EachTable([]byte(tt.doc), func(schema string, table *client.TableCatalog) error {
				b, _ := json.Marshal(table)
				got = append(got, schema+"/"+string(b))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("tables\n%s\nwant\n%s", strings.Join(got, " "), tt.want)
			}
		})
	}
}

func TestEachTable_refusesWhatIsNotACatalog(t *testing.T) {
	for _, doc := range []string{
		`[]`, `"catalog"`, `{"schemas": [`, `<html>`, `{"schemas": {"name": "public"}}`, `{"schemas": [1]}`,
		`{"schemas": [{"name": "s", "tables": {"name": "t"}}]}`, `{"schemas": [{"name": "s", "tables": [{"name": 1}]}]}`,
		`{"schemas": [{"name": "s", "tables": [{"name": "t", "columns": []}]}]}`,
	} {
		t.Run(doc, func(t *testing.T) {
			if err := EachTable([]byte(doc), func(string, *client.TableCatalog) error { return nil }); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestEachTable_stopsAtTheErrorOfFn(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := EachTable([]byte(`{"schemas": [{"tables": [{"name": "a"}, {"name": "b"}]}]}`), func(string, *client.TableCatalog) error {
		n++
		return stop
	})
	if err != stop || n != 1 {
		t.Errorf("error %v after %d tables, want stop after 1", err, n)
	}
}

// bigCatalog is a catalog of 5,000 tables of 20 columns, each column with
// a semantic type, a classification and two labels.
func bigCatalog() []byte {
	var sb strings.Builder
	sb.WriteString(`{"name": "instances/i/databases/d/catalog", "schemas": [{"name": "public", "tables": [`)
	for t := range 5000 {
		if t > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, `{"name": "table_%05d", "classification": "1-1", "columns": {"columns": [`, t)
		for c := range 20 {
			if c > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, `{"name": "column_%02d", "semanticType": "default", "labels": {"owner": "data-platform", "tier": "%d"}, "classification": "1-2"}`, c, c%3)
		}
		sb.WriteString(`]}}`)
	}
	sb.WriteString(`]}]}`)
	return []byte(sb.String())
}

// BenchmarkEachTable walks the tables of a catalog of 5,000 tables of 20
// columns, the way the table output reads it.
func BenchmarkEachTable(b *testing.B) {
	raw := bigCatalog()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		if err := EachTable(raw, func(_ string, t *client.TableCatalog) error { n += 1 + len(t.Columns.Columns); return nil }); err != nil || n != 105000 {
			b.Fatalf("%d rows, %v", n, err)
		}
	}
}

// BenchmarkDiff and BenchmarkMerge compare that catalog with itself, a
// column changed in each table.
func BenchmarkDiff(b *testing.B)  { benchmarkCompare(b, false) }
func BenchmarkMerge(b *testing.B) { benchmarkCompare(b, true) }

func benchmarkCompare(b *testing.B, merge bool) {
	cur := bigCatalog()
	file := []byte(strings.ReplaceAll(string(cur), `"column_03", "semanticType": "default"`, `"column_03", "semanticType": "email"`))
	b.SetBytes(int64(len(cur)))
	b.ReportAllocs()
	for b.Loop() {
		var changes []Change
		var err error
		if merge {
			_, changes, err = Merge(make([]byte, 0, len(cur)), cur, file)
		} else {
			changes, err = Diff(cur, file)
		}
		if err != nil || len(changes) != 5000 {
			b.Fatalf("%d changes, %v", len(changes), err)
		}
	}
}

// FuzzMerge checks that any two documents are merged and compared without
// a panic, into valid JSON whenever the merge succeeds.
func FuzzMerge(f *testing.F) {
	f.Add([]byte(current), []byte(`{"schemas": [{"name": "public", "tables": [{"name": "users", "columns": {"columns": [{"name": "x", "labels": {"owner": null}}]}}]}]}`))
	f.Add([]byte(`{"schemas": [{"tables": [null, {"name": "t", "columns": null}]}]}`), []byte(`{"schemas": [{"name": "", "tables": null}]}`))
	f.Fuzz(func(t *testing.T, cur, file []byte) {
		out, _, err := Merge([]byte{}, cur, file)
		if err == nil && !json.Valid(out) {
			t.Fatalf("merged into invalid JSON: %s", out)
		}
		_, _ = Diff(cur, file)
		_ = EachTable(cur, func(string, *client.TableCatalog) error { return nil })
	})
}
