package devserver

import (
	"strings"
	"testing"

	"github.com/dbgov/dbgov/client"
)

func TestDecodeStrict_readsProtobufJSONStrictly(t *testing.T) {
	tests := []struct {
		name, body, err string
	}{
		{"empty body is the empty object", "  \n", ""},
		{"null body is the empty object", "null", ""},
		{"null fields are zero values", `{"maskingRulePolicy":null,"tagPolicy":{"tags":null},"enforce":null}`, ""},
		{"integer given as a string", `{"queryDataPolicy":{"maximumResultRows":"10"}}`, `JSON string into Go int32 within "/queryDataPolicy/maximumResultRows"`},
		{"unknown enum in a known field", `{"type":"BACKUP"}`, `"/type": unknown enum value "BACKUP"`},
		{"a known enum name", `{"resourceType":"WORKSPACE"}`, ""},
		{"truncated", `{"name":"a"`, "unexpected EOF"},
		{"unknown field", `{"zeta":1,"alpha":2}`, `unknown object member name "zeta"`},
		{"a field given twice", `{"name":"a","name":"b"}`, `duplicate object member name "name"`},
		{"data after the body", `{} {}`, "after top-level value"},
		{"enum names are case-sensitive", `{"type":"tag"}`, `unknown enum value "tag"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p client.Policy
			err := decodeStrict([]byte(tt.body), &p)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("decodeStrict: %v", err)
			case tt.err != "" && err == nil:
				t.Fatalf("decodeStrict accepted %s", tt.body)
			case tt.err != "" && !strings.Contains(err.Error(), tt.err):
				t.Fatalf("error %q does not mention %q", err, tt.err)
			}
		})
	}
}

func TestDecodeStrict_fillsTheValue(t *testing.T) {
	var p client.Policy
	body := `{"name":"p","type":"DATA_QUERY","queryDataPolicy":{"maximumResultRows":5,"timeout":"3s"}}`
	if err := decodeStrict([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	if p.Name != "p" || p.Type != client.PolicyTypeDataQuery || p.QueryDataPolicy.MaximumResultRows != 5 || p.QueryDataPolicy.Timeout != "3s" {
		t.Errorf("decoded %+v", p)
	}
}
