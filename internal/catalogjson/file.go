package catalogjson

import (
	"bytes"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/client"
)

// File is a catalog file as input.Decode reads it: checked as strictly as a
// client.DatabaseCatalog, but decoded a table at a time, so that a large file
// never lives in memory as Go values. Each schema's tables are kept as the
// JSON they encode to.
type File struct {
	Name    string       `json:"name,omitempty"`
	Schemas []FileSchema `json:"schemas,omitempty"`
}

// FileSchema is one schema of a File.
type FileSchema struct {
	Name   string `json:"name,omitempty"`
	Tables Tables `json:"tables,omitempty"`
}

// Checked is a File read only to be checked: it keeps no tables.
type Checked struct {
	Name    string `json:"name,omitempty"`
	Schemas []struct {
		Name   string  `json:"name,omitempty"`
		Tables checked `json:"tables,omitempty"`
	} `json:"schemas,omitempty"`
}

// Body is the catalog of f named name, as the JSON that encoding it as a
// client.DatabaseCatalog gives.
func (f *File) Body(name string) []byte {
	body, _ := jsonv2.Marshal(struct {
		Name    string       `json:"name"`
		Schemas []FileSchema `json:"schemas,omitempty"`
	}{name, f.Schemas}) // strings and tables encoded once already: it cannot fail
	return body
}

// Tables are the tables of a schema of a File, as the JSON that their
// decoded client.TableCatalog values encode to; nil when there are none.
type Tables struct{ json []byte }

// MarshalJSON returns the tables' JSON, null when there are none.
func (t Tables) MarshalJSON() ([]byte, error) {
	if t.json == nil {
		return []byte("null"), nil
	}
	return t.json, nil
}

// UnmarshalJSONFrom decodes each table of the list dec is at with dec's
// options (a strict decoder's, from input.Decode) and keeps it encoded again.
func (t *Tables) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var buf bytes.Buffer
	enc := jsontext.NewEncoder(&buf)
	n, err := 0, enc.WriteToken(jsontext.BeginArray)
	if err == nil {
		err = decodeTables(dec, func(table *client.TableCatalog) error {
			n++
			return jsonv2.MarshalEncode(enc, table, jsonv2.Deterministic(true))
		})
	}
	if err == nil {
		err = enc.WriteToken(jsontext.EndArray)
	}
	if n > 0 {
		t.json = bytes.TrimSpace(buf.Bytes())
	}
	return err
}

// checked is the tables of a Checked: decoded, and dropped.
type checked struct{}

func (*checked) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeTables(dec, func(*client.TableCatalog) error { return nil })
}

// decodeTables decodes the list of tables dec is at (null: none) with dec's
// options, calling fn with each.
func decodeTables(dec *jsontext.Decoder, fn func(*client.TableCatalog) error) error {
	if dec.PeekKind() != '[' { // null, or what decoding a list refuses
		var none []client.TableCatalog
		return jsonv2.UnmarshalDecode(dec, &none)
	}
	return each(dec, '[', func(jsontext.Value) error {
		var table client.TableCatalog
		if err := jsonv2.UnmarshalDecode(dec, &table); err != nil {
			return err
		}
		return fn(&table)
	})
}
