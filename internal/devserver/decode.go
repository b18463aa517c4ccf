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

// decodeStrict decodes one JSON object from data into v, a pointer to a
// struct, the way protobuf JSON is parsed: field names are matched exactly,
// an unknown field, a field given twice, a value of the wrong type, an
// unknown enum name, malformed JSON or data after the object is refused with
// an error naming it. Empty data is the empty object. null stands for the
// zero value anywhere.
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

// strictOptions refuse unknown fields and, for the enums the server checks,
// unknown names. They are made on first use: start-up need not pay for them.
var strictOptions = sync.OnceValue(func() json.Options {
	return json.JoinOptions(json.RejectUnknownMembers(true), json.WithUnmarshalers(
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v any) error {
			allowed, isEnum := enumValues(reflect.TypeOf(v).Elem())
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
			for f := range t.Fields() {
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

// enumValues lists the names accepted for the enum types the server checks.
// Enums whose set is open on the service (rule types, engines) are not checked.
func enumValues(t reflect.Type) ([]string, bool) {
	switch t {
	case reflect.TypeFor[client.RevisionType]():
		return enumNames(client.RevisionTypes()), true
	case reflect.TypeFor[client.ObjectSchemaType]():
		return enumNames(client.ObjectSchemaTypes()), true
	case reflect.TypeFor[client.PolicyType]():
		return append([]string{string(client.PolicyTypeUnspecified)}, enumNames(client.PolicyTypes())...), true
	case reflect.TypeFor[client.UserState]():
		return []string{"STATE_UNSPECIFIED", "ACTIVE", "DELETED"}, true
	case reflect.TypeFor[client.UserType]():
		return []string{"USER_TYPE_UNSPECIFIED", "USER", "SYSTEM_BOT", "SERVICE_ACCOUNT", "WORKLOAD_IDENTITY"}, true
	case reflect.TypeFor[client.WorkloadProviderType]():
		return []string{"PROVIDER_TYPE_UNSPECIFIED", "GITHUB", "GITLAB"}, true
	case reflect.TypeFor[client.PolicyResourceType]():
		return []string{"RESOURCE_TYPE_UNSPECIFIED", "WORKSPACE", "ENVIRONMENT", "PROJECT"}, true
	case reflect.TypeFor[client.AdminDataSourceRestriction]():
		return []string{"RESTRICTION_UNSPECIFIED", "FALLBACK", "DISALLOW"}, true
	case reflect.TypeFor[client.IdentityProviderType]():
		return []string{"IDENTITY_PROVIDER_TYPE_UNSPECIFIED", "OAUTH2", "OIDC", "LDAP"}, true
	case reflect.TypeFor[client.OAuth2AuthStyle]():
		return []string{"OAUTH2_AUTH_STYLE_UNSPECIFIED", "IN_PARAMS", "IN_HEADER"}, true
	case reflect.TypeFor[client.LDAPSecurityProtocol]():
		return []string{"SECURITY_PROTOCOL_UNSPECIFIED", "START_TLS", "LDAPS"}, true
	case reflect.TypeFor[client.RuleLevel]():
		return []string{"LEVEL_UNSPECIFIED", "ERROR", "WARNING"}, true
	}
	return nil, false
}

func enumNames[T ~string](values []T) []string {
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = string(v)
	}
	return names
}
