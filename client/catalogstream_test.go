package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// tablesOf lists the tables of a catalog document as "schema/table" with
// each table's columns, or the error, by decoding the whole document.
func tablesOf(raw string) (string, error) {
	var cat DatabaseCatalog
	if err := json.Unmarshal([]byte(raw), &cat); err != nil {
		return "", err
	}
	var out []string
	for _, s := range cat.Schemas {
		for _, t := range s.Tables {
			b, _ := json.Marshal(t)
			out = append(out, s.Name+"/"+string(b))
		}
	}
	return strings.Join(out, " "), nil
}

func TestEachCatalogTable_givesWhatWholeDecodingGives(t *testing.T) {
	docs := []string{
		`{"name": "instances/i/databases/d/catalog", "schemas": [{"name": "public", "tables": [{"name": "t1", "classification": "1", "columns": {"columns": [{"name": "c1", "labels": {"a": "b"}}]}}, {"name": "t2"}]}, {"name": "raw", "tables": [{"name": "t3"}]}]}`,
		`{"schemas": [{"tables": [{"name": "t"}], "name": "name after tables"}]}`,
		`{"schemas": [{"name": "s\u00e9\"q\"", "tables": [null, {"name": "t"}]}, null, {"name": "no tables"}, {"tables": null}]}`,
		`{"unknown": {"schemas": 1}, "schemas": [{"unknown": [1], "name": "s", "tables": []}], "more": true}`,
		`{}`, `null`, `{"schemas": null}`, `{"schemas": []}`, `{"name": null, "schemas": [{"name": null}]}`,
		`{"Schemas": [{"name": "s", "tables": [{"name": "case"}]}]}`,
		`{"schemas": [{"NAME": "s", "tables": [{"name": "case"}]}]}`,
		`{"schemas": [{"name": "first", "tables": [{"name": "t"}]}], "schemas": [{"name": "second", "tables": [{"name": "u"}]}]}`,
		`{"schemas": [{"name": "s", "tables": [{"name": "t"}], "tables": [{"name": "u"}]}]}`,
		`{"sch\u0065mas": [{"name": "escaped", "tables": [{"name": "t"}]}]}`,
		`{"schemas": {"name": "public"}}`,
		`{"name": 5, "schemas": []}`,
		`{"schemas": [{"name": 5, "tables": []}]}`,
		`{"schemas": [{"name": "s", "tables": {"name": "t"}}]}`,
		`{"schemas": [{"name": "s", "tables": [{"name": "t", "columns": []}]}]}`,
		`{"schemas": [{"name": "s", "tables": [{"name": "ok"}, {"name": 1}]}]}`,
		`{"schemas": [1]}`,
		`[]`, `"catalog"`, `{"schemas": [`, `<html>`,
		// Tables the hand reading leaves to encoding/json, among regular ones.
		`{"schemas": [{"name": "s", "tables": [
			{"name": "regular", "classification": "1", "columns": {"columns": [{"name": "a", "semanticType": "email", "classification": "2", "labels": {"k": "v", "l": "w"}}, {"name": "b", "labels": {"x": "y"}}, {"name": "c"}]}},
			{"name": "reuses the columns", "columns": {"columns": [{"name": "only", "labels": {}}]}},
			{"name": "no columns"},
			{"name": "empty columns", "columns": {}},
			{"name": "object schema", "objectSchema": {"type": "OBJECT"}, "columns": {"columns": [{"name": "c", "objectSchema": {"type": "STRING"}}]}},
			{"name": "label twice", "columns": {"columns": [{"name": "c", "labels": {"k": "1", "k": "2"}}]}},
			{"name": "columns twice", "columns": {"columns": [{"name": "a"}], "columns": [{"name": "b"}]}},
			{"name": "key case", "Classification": "3", "columns": {"Columns": [{"NAME": "c"}]}},
			{"name": "null", "classification": null, "columns": {"columns": [null, {"name": null, "labels": null}]}},
			{"name": "escapes", "columns": {"columns": [{"name": "caf\u00e9", "labels": {"k\u00e9y": "v\"q"}}]}},
			{"name": "unknown fields", "etag": "x", "columns": {"more": 1, "columns": [{"name": "c", "extra": {"a": [1]}}]}},
			{"name": "after the irregular ones", "columns": {"columns": [{"name": "z", "labels": {"a": "b"}}]}}]}]}`,
		`{"schemas": [{"name": "s", "tables": [{"name": "t", "columns": {"columns": [{"name": "c", "labels": {"k": 1}}]}}]}]}`,
		`{"schemas": [{"name": "s", "tables": [{"name": "t", "columns": {"columns": [{"name": ["c"]}]}}]}]}`,
		"{\"schemas\": [{\"name\": \"s\xff\", \"tables\": [{\"name\": \"t\xfe\"}]}]}",
	}
	for _, raw := range docs {
		t.Run(raw, func(t *testing.T) {
			want, wantErr := tablesOf(raw)
			var got []string
			err := EachCatalogTable([]byte(raw), func(schema string, table *TableCatalog) error {
				b, _ := json.Marshal(table)
				got = append(got, schema+"/"+string(b))
				return nil
			})
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("error %v, want %v", err, wantErr)
			}
			if wantErr == nil && strings.Join(got, " ") != want {
				t.Errorf("tables\n%s\nwant\n%s", strings.Join(got, " "), want)
			}
		})
	}
}

func TestEachCatalogTable_stopsAtTheErrorOfFn(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := EachCatalogTable([]byte(`{"schemas": [{"tables": [{"name": "a"}, {"name": "b"}]}]}`), func(string, *TableCatalog) error {
		n++
		return stop
	})
	if err != stop || n != 1 {
		t.Errorf("error %v after %d tables, want stop after 1", err, n)
	}
}

// BenchmarkEachCatalogTable walks the tables of a catalog answer of 5,000
// tables of 20 columns, the way table output reads it.
func BenchmarkEachCatalogTable(b *testing.B) {
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
	raw := []byte(sb.String())
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		if err := EachCatalogTable(raw, func(_ string, t *TableCatalog) error { n += 1 + len(t.Columns.Columns); return nil }); err != nil || n != 105000 {
			b.Fatalf("%d rows, %v", n, err)
		}
	}
}

// FuzzEachCatalogTable checks that reading a catalog table by table gives
// what decoding it whole gives, on any input: the same tables or an error.
func FuzzEachCatalogTable(f *testing.F) {
	f.Add([]byte(`{"schemas": [{"name": "s", "tables": [{"name": "t", "classification": "1", "columns": {"columns": [{"name": "c", "semanticType": "email", "labels": {"k": "v"}}]}}]}]}`))
	f.Add([]byte(`{"schemas": [{"name": "s", "tables": [{"name": "a"}, {"name": "b", "columns": {}}, null]}, {"tables": null}]}`))
	f.Add([]byte(`{"schemas": [{"name": "s\u00e9", "tables": [{"name": "t", "columns": {"columns": [{"name": "c", "labels": {"k": "1", "k": "2"}}]}}]}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		want, wantErr := tablesOf(string(raw))
		var got []string
		err := EachCatalogTable(raw, func(schema string, table *TableCatalog) error {
			b, _ := json.Marshal(table)
			got = append(got, schema+"/"+string(b))
			return nil
		})
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("error %v, want %v", err, wantErr)
		}
		if wantErr == nil && strings.Join(got, " ") != want {
			t.Fatalf("tables\n%s\nwant\n%s", strings.Join(got, " "), want)
		}
	})
}

func TestEachCatalogTable_invalidUTF8AsEncodingJSONReadsIt(t *testing.T) {
	raw := []byte("{\"schemas\": [{\"name\": \"s\xff\", \"tables\": [{\"name\": \"t\xfe\", \"columns\": {\"columns\": [{\"name\": \"c\xfd\"}]}}]}]}")
	var cat DatabaseCatalog
	if err := json.Unmarshal(raw, &cat); err != nil {
		t.Fatal(err)
	}
	want := cat.Schemas[0].Name + "/" + cat.Schemas[0].Tables[0].Name + "/" + cat.Schemas[0].Tables[0].Columns.Columns[0].Name
	var got string
	err := EachCatalogTable(raw, func(schema string, table *TableCatalog) error {
		got = schema + "/" + table.Name + "/" + table.Columns.Columns[0].Name
		return nil
	})
	if err != nil || got != want {
		t.Fatalf("got %q (%v), want %q", got, err, want)
	}
}
