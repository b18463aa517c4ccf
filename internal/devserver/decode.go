package devserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/client"
)

// decodeStrict decodes a JSON object into v, a struct pointer, as strictly as
// protobuf JSON: exact names, no unknown or repeated field, enum name or wrong type.
func decodeStrict(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	err := json.Unmarshal(data, v, strictOptions())
	var syn *jsontext.SyntacticError
	var sem *json.SemanticError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &syn) && errors.Is(syn.Err, io.ErrUnexpectedEOF):
		return errors.New("malformed JSON: unexpected end of input")
	case errors.As(err, &syn) && strings.Contains(syn.Err.Error(), "after top-level value"):
		return errors.New("malformed JSON: unexpected data after the top-level value")
	case errors.As(err, &syn) && errors.Is(syn.Err, jsontext.ErrDuplicateName):
		return fmt.Errorf("field %q is given twice", pathOf(reflect.TypeOf(v), syn.JSONPointer))
	case errors.As(err, &syn):
		return fmt.Errorf("malformed JSON at byte %d: %v", syn.ByteOffset+1, syn.Err)
	case !errors.As(err, &sem):
		return fmt.Errorf("decode JSON: %w", err)
	}
	path := pathOf(reflect.TypeOf(v), sem.JSONPointer)
	got := map[jsontext.Kind]string{'"': "a string", 't': "a boolean", 'f': "a boolean", 'n': "null", '{': "an object", '[': "an array"}[sem.JSONKind]
	if sem.JSONKind == '0' {
		n, _ := jsontext.NewDecoder(bytes.NewReader(data[sem.ByteOffset:])).ReadValue()
		got = "the number " + string(n)
	}
	switch {
	case errors.Is(sem.Err, json.ErrUnknownName):
		return fmt.Errorf("unknown field %q", path)
	case sem.JSONPointer == "":
		return fmt.Errorf("the body must be a JSON object, not %s", got)
	case sem.Err != nil && sem.JSONKind == '0' && sem.GoType.Kind() <= reflect.Uint64:
		return fmt.Errorf("field %q: %s is not a %d-bit integer", path, strings.TrimPrefix(got, "the number "), sem.GoType.Bits())
	case sem.Err != nil && sem.JSONKind == '0':
		return fmt.Errorf("field %q: %s is not a valid number", path, strings.TrimPrefix(got, "the number "))
	case sem.Err != nil:
		return fmt.Errorf("field %q: %v", path, sem.Err)
	}
	return fmt.Errorf("field %q: expected %s, got %s", path, expected(sem.GoType), got)
}

// strictOptions refuse unknown fields and enum names; they and the enum table
// are made on first use.
var strictOptions = sync.OnceValue(func() json.Options {
	enums := map[reflect.Type][]string{
		reflect.TypeFor[client.RevisionType]():               client.Names(client.RevisionTypes()),
		reflect.TypeFor[client.ObjectSchemaType]():           client.Names(client.ObjectSchemaTypes()),
		reflect.TypeFor[client.PolicyType]():                 append([]string{string(client.PolicyTypeUnspecified)}, client.Names(client.PolicyTypes())...),
		reflect.TypeFor[client.UserState]():                  {"STATE_UNSPECIFIED", "ACTIVE", "DELETED"},
		reflect.TypeFor[client.UserType]():                   {"USER_TYPE_UNSPECIFIED", "USER", "SYSTEM_BOT", "SERVICE_ACCOUNT", "WORKLOAD_IDENTITY"},
		reflect.TypeFor[client.WorkloadProviderType]():       {"PROVIDER_TYPE_UNSPECIFIED", "GITHUB", "GITLAB"},
		reflect.TypeFor[client.PolicyResourceType]():         {"RESOURCE_TYPE_UNSPECIFIED", "WORKSPACE", "ENVIRONMENT", "PROJECT"},
		reflect.TypeFor[client.AdminDataSourceRestriction](): {"RESTRICTION_UNSPECIFIED", "FALLBACK", "DISALLOW"},
		reflect.TypeFor[client.IdentityProviderType]():       {"IDENTITY_PROVIDER_TYPE_UNSPECIFIED", "OAUTH2", "OIDC", "LDAP"},
		reflect.TypeFor[client.OAuth2AuthStyle]():            {"OAUTH2_AUTH_STYLE_UNSPECIFIED", "IN_PARAMS", "IN_HEADER"},
		reflect.TypeFor[client.LDAPSecurityProtocol]():       {"SECURITY_PROTOCOL_UNSPECIFIED", "START_TLS", "LDAPS"},
		reflect.TypeFor[client.RuleLevel]():                  {"LEVEL_UNSPECIFIED", "ERROR", "WARNING"},
	}
	return json.JoinOptions(json.RejectUnknownMembers(true), json.WithUnmarshalers(
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v any) error {
			allowed, isEnum := enums[reflect.TypeOf(v).Elem()]
			if !isEnum || dec.PeekKind() != '"' {
				return errors.ErrUnsupported // the default decoding
			}
			tok, err := dec.ReadToken()
			if err != nil {
				return err
			}
			if !slices.Contains(allowed, tok.String()) {
				return fmt.Errorf("unknown enum value %q (known: %s)", tok.String(), strings.Join(allowed, ", "))
			}
			reflect.ValueOf(v).Elem().SetString(tok.String())
			return nil
		})))
})

// pathOf spells a JSON pointer into a value of type t as
// "requests[0].revision.type", a map key as "labels[pii]".
func pathOf(t reflect.Type, p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map:
			b.WriteString("[" + tok + "]")
			t = t.Elem()
			continue
		case reflect.Struct:
			for _, f := range reflect.VisibleFields(t) { // embedded structs' fields too
				if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == tok || name == "" && f.Name == tok {
					t = f.Type
					break
				}
			}
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// expected names what a Go type takes in JSON.
func expected(t reflect.Type) string {
	switch k := t.Kind(); {
	case k == reflect.String:
		return "a string"
	case k == reflect.Bool:
		return "a boolean"
	case k >= reflect.Int && k <= reflect.Uint64:
		return "an integer"
	case k == reflect.Float32 || k == reflect.Float64:
		return "a number"
	case k == reflect.Slice || k == reflect.Array:
		return "an array"
	}
	return "an object"
}
