package client

import (
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// FuzzParseErrorBody checks that any answer yields a usable error: no panic,
// the status kept, a code name, a non-empty message, and never the text of a
// body that is not the service's error.
func FuzzParseErrorBody(f *testing.F) {
	f.Add(uint16(304), "application/json", []byte(`{"code":5,"message":"not found","details":[{"a":1}]}`))
	f.Add(uint16(402), "text/html; charset=utf-8", []byte("<html><body>Bad Gateway</body></html>"))
	f.Add(uint16(0), "", []byte(""))
	f.Add(uint16(400), "application/json", []byte(`{"code":"5","message":7}`))
	f.Fuzz(func(t *testing.T, s uint16, contentType string, body []byte) {
		status := 100 + int(s)%500
		e := parseErrorBody(status, contentType, body)
		if e.HTTPStatus != status {
			t.Fatalf("status %d became %d", status, e.HTTPStatus)
		}
		if strings.TrimSpace(e.Message) == "" || e.CodeName == "" {
			t.Fatalf("empty message or code name: %#v", e)
		}
		if e.CodeName != CodeName(e.Code) {
			t.Fatalf("code %d named %q", e.Code, e.CodeName)
		}
		if suffix := " (HTTP " + strconv.Itoa(status) + " " + e.CodeName + ")"; !strings.HasSuffix(e.Error(), suffix) {
			t.Fatalf("Error() = %q, want the suffix %q", e.Error(), suffix)
		}
		if !json.Valid(body) {
			// The message was written here, not taken from the body.
			for _, r := range e.Message {
				if unicode.IsControl(r) {
					t.Fatalf("a described body put a control character in the message: %q", e.Message)
				}
			}
		}
	})
}

// FuzzParseDatabase checks that a database name is refused or round-trips,
// and that its ids stay single path segments.
func FuzzParseDatabase(f *testing.F) {
	f.Add("prod", "app")
	f.Add("", "instances/prod/databases/app")
	f.Add("prod", "instances/prod/databases/a:b")
	f.Add("", "instances/../databases/x")
	f.Fuzz(func(t *testing.T, instance, database string) {
		d, err := ParseDatabase(instance, database)
		if err != nil {
			if !errors.Is(err, ErrInvalidName) {
				t.Fatalf("error %v does not wrap ErrInvalidName", err)
			}
			return
		}
		again, err := ParseDatabase("", d.String())
		if err != nil || again != d {
			t.Fatalf("%v does not round-trip: %v, %v", d, again, err)
		}
		r, err := ListPoliciesCall(PolicyParent{Database: &d}, ListPoliciesOptions{})
		if err != nil {
			t.Fatalf("build for %v: %v", d, err)
		}
		if strings.ContainsAny(r.Path, "?#") {
			t.Fatalf("path %q holds a query or fragment", r.Path)
		}
		segs := strings.Split(r.Path, "/")
		if len(segs) != 7 || segs[2] != "instances" || segs[4] != "databases" || segs[6] != "policies" {
			t.Fatalf("path %q has the wrong shape", r.Path)
		}
		for i, want := range map[int]string{3: d.Instance, 5: d.Database} {
			got, err := url.PathUnescape(segs[i])
			if err != nil || got != want {
				t.Fatalf("segment %q of %q unescapes to %q, %v; want %q", segs[i], r.Path, got, err, want)
			}
		}
		if err := r.validate(); err != nil {
			t.Fatalf("a built request is refused: %v", err)
		}
		u, err := url.Parse("http://h" + r.Path)
		if err != nil || u.Path != "/v1/"+d.String()+"/policies" {
			t.Fatalf("parsed path of %q = %q, %v", r.Path, u.Path, err)
		}
	})
}

// FuzzParseUser checks that a user is refused or round-trips, and that its
// email stays one path segment and one query value.
func FuzzParseUser(f *testing.F) {
	f.Add("alice@example.com")
	f.Add("users/o'neil+x@example.com")
	f.Add("a:undelete")
	f.Add("users/a@x.com&names=users/b@x.com")
	f.Fuzz(func(t *testing.T, s string) {
		email, err := ParseUser(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidName) {
				t.Fatalf("error %v does not wrap ErrInvalidName", err)
			}
			return
		}
		if again, err := ParseUser(usersPrefix + email); err != nil || again != email {
			t.Fatalf("%q does not round-trip: %q, %v", email, again, err)
		}
		r, err := UndeleteUserCall(email)
		if err != nil {
			t.Fatalf("build for %q: %v", email, err)
		}
		seg, ok := strings.CutPrefix(r.Path, "/v1/users/")
		seg, ok2 := strings.CutSuffix(seg, ":undelete")
		if !ok || !ok2 || strings.ContainsAny(seg, "/?#:") {
			t.Fatalf("path %q does not hold one escaped segment", r.Path)
		}
		if got, err := url.PathUnescape(seg); err != nil || got != email {
			t.Fatalf("segment %q unescapes to %q, %v; want %q", seg, got, err, email)
		}
		get, err := BatchGetUsersCall([]string{email})
		if err != nil {
			t.Fatalf("batch get for %q: %v", email, err)
		}
		q, err := url.ParseQuery(get.Query.Encode())
		if err != nil || len(q["names"]) != 1 || q["names"][0] != usersPrefix+email || len(q) != 1 {
			t.Fatalf("query of %q reads back as %v, %v", email, q, err)
		}
	})
}
