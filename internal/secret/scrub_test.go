package secret

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestIsHeader_credentialsByName(t *testing.T) {
	for _, name := range []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "X-Auth-Token", "X-Proxy-Auth"} {
		if !IsHeader(name) {
			t.Errorf("%s: not taken for a credential", name)
		}
	}
	for _, name := range []string{"X-Env", "Accept", "User-Agent", "X-Request-Id"} {
		if IsHeader(name) {
			t.Errorf("%s: taken for a credential", name)
		}
	}
}

func TestScrubberString_masksKnownValuesInEveryForm(t *testing.T) {
	s := &Scrubber{}
	s.Add("ab/cd+ef<gh>", "tok", "")
	for _, in := range []string{
		"key ab/cd+ef<gh> refused",
		`{"message":"key ab\/cd+ef<gh> refused"}`,
		`{"message":"key ab/cd+ef\u003cgh\u003e refused"}`,
		"GET /v1/x?key=ab%2Fcd%2Bef%3Cgh%3E",
		"GET /v1/ab%2Fcd+ef%3Cgh%3E",
	} {
		if got := s.String(in); strings.Contains(got, "cd") || !strings.Contains(got, Mask) {
			t.Errorf("String(%q) = %q", in, got)
		}
	}
	if got := s.String("a tok of 3 letters"); got != "a tok of 3 letters" {
		t.Errorf("a short value was masked everywhere: %q", got)
	}
	var none *Scrubber
	if got := none.String(`x {"token": "abc"}`); got != `x {"token": "********"}` {
		t.Errorf("nil Scrubber: %q", got)
	}
}

func TestScrubberString_masksAValueHoldingAnotherWhole(t *testing.T) {
	for _, known := range [][]string{{"abcdef12", "abcdef1234"}, {"abcdef1234", "abcdef12"}} {
		s := &Scrubber{}
		s.Add(known...)
		if got := s.String("key abcdef1234, then abcdef12."); got != "key "+Mask+", then "+Mask+"." {
			t.Errorf("known %q: %q", known, got)
		}
	}
}

func TestScrubberString_masksSecretFieldsQuotedInText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"message quoting JSON", `bad request {"password": "hunter2"}`, `bad request {"password": "********"}`},
		{"any spelling", `{"client_secret":"a","BIND_PASSWORD":"b"}`, `{"client_secret":"********","BIND_PASSWORD":"********"}`},
		{"array", `{"tempRecoveryCodes":["a","b"],"n":1}`, `{"tempRecoveryCodes":"********","n":1}`},
		{"number", `{"bindPassword": 12345}`, `{"bindPassword": "********"}`},
		{"escaped key", `{"client\u0053ecret":"x"`, `{"client\u0053ecret":"********"`},
		{"cut inside the value", `{"a":1,"tempOtpSecret":"JBSWY3DP`, `{"a":1,"tempOtpSecret":"********`},
		{"cut inside an array", `{"tempRecoveryCodes":["aaa","bb`, `{"tempRecoveryCodes":"********"`},
		{"quoted in a string", `{"m":"{\"token\":\"abc\",\"n\":1}"}`, `{"m":"{\"token\":\"********\",\"n\":1}"}`},
		{"quoted object", `{"m":"{\"token\":{\"a\":\"}\"},\"n\":1}"}`, `{"m":"{\"token\":\"********\",\"n\":1}"}`},
		{"key after a secret key", `{"token":"serviceKey":"abc"}`, `{"token":"********":"********"}`},
		{"a value that looks like a key", `{"name":"password"}`, `{"name":"password"}`},
		{"not JSON", `oops " "token": "abc", "x": 1`, `oops " "token": "********", "x": 1`},
	}
	for _, tt := range tests {
		if got := (*Scrubber)(nil).String(tt.in); got != tt.want {
			t.Errorf("%s: String(%s)\n got %s\nwant %s", tt.name, tt.in, got, tt.want)
		}
	}
}

func TestScrubberString_keepsJSONAsIs(t *testing.T) {
	s := &Scrubber{}
	s.Add("tok-123456")
	tests := []struct{ name, in, want string }{
		{"odd spacing kept", "{ \"token\" :\n \"abc\" , \"x\": 1}", "{ \"token\" :\n \"********\" , \"x\": 1}"},
		{"nested, any type", `{"a":{"clientSecret":{"k":[1]},"n":12345678901234567890},"serviceKey":null}`,
			`{"a":{"clientSecret":"********","n":12345678901234567890},"serviceKey":"********"}`},
		{"escaped name", `{"pass\u0077ord":"x"}`, `{"pass\u0077ord":"********"}`},
		{"known value in a string", `{"m":"Bearer tok-123456 refused"}`, `{"m":"Bearer ******** refused"}`},
		{"JSON quoted in a string", `{"m":"echo {\"bindPassword\": 7}"}`, `{"m":"echo {\"bindPassword\": \"********\"}"}`},
		{"quoted twice", `{"m":"{\"m\":\"{\\\"token\\\":{\\\"a\\\":1}}\"}"}`, `{"m":"{\"m\":\"{\\\"token\\\":\\\"********\\\"}\"}"}`},
		{"a name ending in a backslash is another name", `{"password\\":[1]}`, `{"password\\":[1]}`},
	}
	for _, tt := range tests {
		got := s.String(tt.in)
		if got != tt.want || !json.Valid([]byte(got)) {
			t.Errorf("%s: String(%s)\n got %s\nwant %s", tt.name, tt.in, got, tt.want)
		}
	}
}

// secretNames are the secret field names, as fields holds them.
func secretNames() []string {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// FuzzScrubberString checks that the value of a secret field never shows,
// whatever text surrounds it, JSON or not.
func FuzzScrubberString(f *testing.F) {
	f.Add(`{"email":"a@x.com",`, uint8(0), " ", `}`)
	f.Add(`{"token":`, uint8(1), "", `}`)
	f.Add(`{"message":"echo {\"a\":1, `, uint8(3), "\n", `}"}`)
	f.Add(`oops "`, uint8(2), "\t", ``)
	names := secretNames()
	f.Fuzz(func(t *testing.T, prefix string, field uint8, space, suffix string) {
		const marker = "MZQXJV"
		if strings.Contains(prefix, "MZQ") || strings.Contains(suffix, "MZQ") {
			return
		}
		space = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
				return r
			}
			return -1
		}, space)
		key := names[int(field)%len(names)]
		if field&0x80 != 0 {
			key = strings.ToUpper(key)
		}
		body := prefix + `"` + key + `"` + space + ":" + space + `"` + marker + `"` + suffix
		if out := (*Scrubber)(nil).String(body); strings.Contains(out, marker) {
			t.Fatalf("String(%q) = %q", body, out)
		}
	})
}

// FuzzScrubberString_keepsJSONValid checks that masking a JSON document
// leaves JSON, whatever the type of the secret values.
func FuzzScrubberString_keepsJSONValid(f *testing.F) {
	f.Add(`{"tempRecoveryCodes":["a","b"],"n":1}`)
	f.Add(`{"serviceKey":{"k":"v"},"bindPassword":12}`)
	f.Add(`{"message":"echo {\"token\":[\"]\"],\"n\":1}"}`)
	f.Add(`{"m":"{\"m\":\"{\\\"password\\\":{\\\"a\\\":1}}\"}"}`)
	f.Add(`[{"password\\":null},"\"token\": 1"]`)
	f.Fuzz(func(t *testing.T, doc string) {
		if !json.Valid([]byte(doc)) {
			return
		}
		if out := (*Scrubber)(nil).String(doc); !json.Valid([]byte(out)) {
			t.Fatalf("String(%s) = %s: not JSON", doc, out)
		}
	})
}

func TestScrubberAddURL_masksTheCredentialOfAURL(t *testing.T) {
	tests := []struct{ name, url, masked, kept string }{
		{"password", "https://admin:pw-1234@gov.example.com", "pw-1234", "admin"},
		{"user alone is a token", "https://tok-5678@gov.example.com", "tok-5678", "gov.example.com"},
		{"empty password leaves the user", "https://tok-9012:@gov.example.com", "tok-9012", "gov.example.com"},
		{"no user information", "https://gov.example.com", "", "gov.example.com"},
	}
	for _, tt := range tests {
		s := &Scrubber{}
		s.AddURL(tt.url, "")
		got := s.String("sent " + tt.masked + " and " + tt.kept + " to " + tt.url)
		if tt.masked != "" && strings.Contains(got, tt.masked) || !strings.Contains(got, tt.kept) {
			t.Errorf("%s: %q", tt.name, got)
		}
	}
}
