package output

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unsafe"
)

// decodeStandard is what jq and templates were given before valueDecoder:
// the normalized document decoded by encoding/json with UseNumber.
func decodeStandard(t testing.TB, raw []byte, mask bool, list string) any {
	t.Helper()
	data, err := normalizedJSON(Document{Raw: raw, ListField: list}, mask)
	if err != nil {
		t.Fatalf("normalize %q: %v", raw, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %q: %v", data, err)
	}
	return v
}

var decodeSeeds = []string{
	`{"users": [{"name": "users/a@x.com", "tempRecoveryCodes": ["a"], "tempOtpSecret": "", "quota": 12345678901234567890}]}`,
	`{"a": 1 , "b" :2, "a": 3}`,
	`{}`, `[]`, `null`, `"s"`, `-1.5e-3`, `true`, ` [ false , null ] `,
	`{"identityProviders":[{"config":{"ldapConfig":{"bindPassword":"x","clientSecret":{}}}}]}`,
	`{"client\u0053ecret":"s","users":null}`,
	`{"users":[],"users":null}`,
	`{"s":"a\\\"}","t":"\u00e9\ud83d\ude00","u":"\ud800"}`,
	"{\"bad\":\"\xff\xfe\",\"k\xffey\":1}",
	`{"a":[{"b":[{"c":{}}]}],"serviceKey":[1],"bindPassword":null}`,
}

func TestDecodeValue_matchesEncodingJSON(t *testing.T) {
	for _, raw := range decodeSeeds {
		for _, mask := range []bool{false, true} {
			for _, list := range []string{"", "users"} {
				got := decodeValue([]byte(raw), mask, list)
				if want := decodeStandard(t, []byte(raw), mask, list); !reflect.DeepEqual(got, want) {
					t.Errorf("%s (mask %v, list %q):\ngot  %#v\nwant %#v", raw, mask, list, got, want)
				}
			}
		}
	}
}

func TestDecodeValue_sharesRepeatedKeys(t *testing.T) {
	v := decodeValue([]byte(`[{"name":"a"},{"name":"b"}]`), false, "").([]any)
	var keys []string
	for _, o := range v {
		for k := range o.(map[string]any) {
			keys = append(keys, k)
		}
	}
	if len(keys) != 2 || keys[0] != "name" || keys[1] != "name" {
		t.Fatalf("keys %q", keys)
	}
	if unsafeStringData(keys[0]) != unsafeStringData(keys[1]) {
		t.Error("the two objects' keys do not share their text")
	}
}

func FuzzDecodeValue(f *testing.F) {
	for _, seed := range decodeSeeds {
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, raw []byte, mask bool) {
		if !json.Valid(raw) {
			return
		}
		for _, list := range []string{"", "users"} {
			got := decodeValue(raw, mask, list)
			if want := decodeStandard(t, raw, mask, list); !reflect.DeepEqual(got, want) {
				t.Fatalf("%q (mask %v, list %q):\ngot  %#v\nwant %#v", raw, mask, list, got, want)
			}
		}
	})
}

// unsafeStringData is where the bytes of s live.
func unsafeStringData(s string) *byte { return unsafe.StringData(s) }
