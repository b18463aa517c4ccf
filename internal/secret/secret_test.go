package secret

import "testing"

func TestIsData_anySpelling(t *testing.T) {
	for _, name := range []string{"clientSecret", "client_secret", "ClientSecret", "CLIENT_SECRET", "BIND_PASSWORD", "serviceKey", "service-key"} {
		if !IsData(name) || !IsField(name) {
			t.Errorf("%s: not taken for a secret", name)
		}
	}
	for _, name := range []string{"password", "Token", "access_token"} {
		if IsData(name) || !IsField(name) {
			t.Errorf("%s: IsData %v IsField %v, want false true", name, IsData(name), IsField(name))
		}
	}
	for _, name := range []string{"name", "email", "secretary", "tokens"} {
		if IsField(name) {
			t.Errorf("%s: taken for a secret", name)
		}
	}
}

func TestURL_hidesUserInformation(t *testing.T) {
	for in, want := range map[string]string{
		"https://u:pw@h.example/x": "https://u:********@h.example/x",
		"http://TOKEN@h.example":   "http://********@h.example",
		"https://h.example/v1?a=b": "https://h.example/v1?a=b",
		"not a url \x7f":           "not a url \x7f",
	} {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}
