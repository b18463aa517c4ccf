package catalogjson

import (
	"bytes"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/client"
)

// File is a catalog file as input.Decode reads it: checked as strictly as
// a client.DatabaseCatalog, but decoded a table at a time, so that a large
// file never lives in memory as Go values.
type File struct {
	Name    string       `json:"name,omitempty"`
	Schemas []FileSchema `json:"schemas,omitempty"`
}

// FileSchema is one schema of a File.
type FileSchema struct {
	Name   string `json:"name,omitempty"`
	Tables Tables `json:"tables,omitempty"`
}

// Tables are the tables of a FileSchema, kept as the JSON that their
// decoded client.TableCatalog values encode to.
type Tables struct{ json jsontext.Value }

// UnmarshalJSONFrom decodes each table of the list dec is at with dec's
// options (a strict decoder's, from input.Decode) and keeps it encoded again.
func (t *Tables) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() != '[' { // null, or what decoding a list refuses
		var none []client.TableCatalog
		return jsonv2.UnmarshalDecode(dec, &none)
	}
	var buf bytes.Buffer
	enc := jsontext.NewEncoder(&buf)
	err := enc.WriteToken(jsontext.BeginArray)
	if err == nil {
		err = each(dec, '[', func(jsontext.Value) error {
			var table client.TableCatalog
			if err := jsonv2.UnmarshalDecode(dec, &table); err != nil {
				return err
			}
			return jsonv2.MarshalEncode(enc, &table, jsonv2.Deterministic(true))
		})
	}
	if err == nil {
		err = enc.WriteToken(jsontext.EndArray)
	}
	t.json = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	return err
}

// MarshalJSONTo writes the tables as a list.
func (t Tables) MarshalJSONTo(enc *jsontext.Encoder) error {
	if len(t.json) == 0 {
		return enc.WriteValue(jsontext.Value("[]"))
	}
	return enc.WriteValue(t.json)
}
