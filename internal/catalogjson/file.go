package catalogjson

import (
	"encoding/json"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/client"
)

// Checked is a catalog file read only to be checked, as strictly as a
// client.DatabaseCatalog, a table at a time: it keeps no tables.
type Checked struct {
	Name    string `json:"name,omitempty"`
	Schemas []struct {
		Name   string  `json:"name,omitempty"`
		Tables checked `json:"tables,omitempty"`
	} `json:"schemas,omitempty"`
}

// Body is a catalog file that Checked read, encoded again as the body of an
// update of the catalog Name: what decoding it as a client.DatabaseCatalog
// (with input.Decode's options) and encoding it gives, made a table at a time
// into JSON, whose capacity the caller sets to the file's size.
type Body struct {
	Name    string
	Checked *Checked // the names of the schemas come from it
	JSON    []byte
}

// UnmarshalJSONFrom encodes the catalog dec is at into b.JSON.
func (b *Body) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	out := appendString(append(b.JSON[:0], `{"name":`...), b.Name)
	i := 0 // the index of the schema dec is at, in b.Checked.Schemas
	err := each(dec, '{', func(member jsontext.Value) error {
		if unquote(member) != "schemas" {
			return dec.SkipValue()
		}
		return each(dec, '[', func(jsontext.Value) error {
			if i == 0 {
				out = append(out, `,"schemas":[`...)
			} else {
				out = append(out, ',')
			}
			var err error
			out, err = appendSchema(out, dec, b.Checked.Schemas[i].Name)
			i++
			return err
		})
	})
	if i > 0 {
		out = append(out, ']')
	}
	b.JSON = append(out, '}')
	return err
}

// appendSchema appends to out the schema named name that dec is at: its
// name, and its tables, each decoded with dec's options and encoded again,
// left out when there are none.
func appendSchema(out []byte, dec *jsontext.Decoder, name string) ([]byte, error) {
	out = append(out, '{')
	if name != "" {
		out = appendString(append(out, `"name":`...), name)
	}
	err := each(dec, '{', func(member jsontext.Value) error {
		if unquote(member) != "tables" || dec.PeekKind() != '[' { // null: no tables
			return dec.SkipValue()
		}
		tables := len(out)
		if out[len(out)-1] != '{' {
			out = append(out, ',')
		}
		out = append(out, `"tables":[`...)
		err := decodeTables(dec, func(table *client.TableCatalog) error {
			if out[len(out)-1] != '[' {
				out = append(out, ',')
			}
			js, err := jsonv2.Marshal(table, jsonv2.Deterministic(true))
			out = append(out, js...)
			return err
		})
		if out = append(out, ']'); out[len(out)-2] == '[' { // no tables: left out
			out = out[:tables]
		}
		return err
	})
	return append(out, '}'), err
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

// appendString appends s to b as a JSON string.
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}
