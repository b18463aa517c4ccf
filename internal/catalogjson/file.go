package catalogjson

import (
	"encoding/json"
	"slices"

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

// Body is a catalog file, already Checked, encoded again as the body of an
// update of the catalog Name: the JSON that decoding it as a
// client.DatabaseCatalog (with input.Decode's options) and encoding it would
// give, Name first, made a table at a time into JSON, whose capacity the
// caller sets to the file's size so that it is one piece of memory.
type Body struct {
	Name string
	JSON []byte
}

// UnmarshalJSONFrom encodes the catalog dec is at into b.JSON.
func (b *Body) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	out := appendString(append(b.JSON[:0], `{"name":`...), b.Name)
	err := each(dec, '{', func(member jsontext.Value) error {
		if unquote(member) != "schemas" {
			return dec.SkipValue()
		}
		list := len(out)
		out = append(out, `,"schemas":[`...)
		err := each(dec, '[', func(jsontext.Value) error {
			if out[len(out)-1] != '[' {
				out = append(out, ',')
			}
			start := len(out)
			out = append(out, '{')
			err := each(dec, '{', func(member jsontext.Value) error {
				switch unquote(member) {
				case "tables":
				case "name":
					v, err := dec.ReadValue()
					if name := unquote(v); name != "" { // before the tables, if they came first
						field := appendString([]byte(`"name":`), name)
						if len(out) > start+1 {
							field = append(field, ',')
						}
						out = slices.Insert(out, start+1, field...)
					}
					return err
				default:
					return dec.SkipValue()
				}
				before, n := len(out), 0
				if len(out) > start+1 {
					out = append(out, ',')
				}
				out = append(out, `"tables":[`...)
				err := decodeTables(dec, func(table *client.TableCatalog) error {
					if n++; n > 1 {
						out = append(out, ',')
					}
					js, err := jsonv2.Marshal(table, jsonv2.Deterministic(true))
					out = append(out, js...)
					return err
				})
				if out = append(out, ']'); n == 0 {
					out = out[:before]
				}
				return err
			})
			out = append(out, '}')
			return err
		})
		if out = append(out, ']'); out[list+len(`,"schemas":[`)] == ']' {
			out = out[:list]
		}
		return err
	})
	b.JSON = append(out, '}')
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

// appendString appends s to b as a JSON string.
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}
