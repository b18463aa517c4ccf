package devserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/dbgov/dbgov/client"
)

// decodeStrict decodes one JSON object from data into v, a pointer to a
// struct, the way protobuf JSON is parsed: field names are matched exactly,
// an unknown field, a value of the wrong type, an unknown enum name, malformed
// JSON or data after the object is refused with an error naming it. Empty
// data is the empty object. null stands for the zero value anywhere.
func decodeStrict(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return describeSyntaxError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("malformed JSON: unexpected data after the top-level value")
	}
	if _, isObject := tree.(map[string]any); !isObject && tree != nil {
		return fmt.Errorf("the body must be a JSON object, not %s", jsonKind(tree))
	}
	c := checker{fields: map[reflect.Type]map[string]reflect.StructField{}}
	if err := c.check(tree, reflect.TypeOf(v).Elem(), nil); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode JSON: %w", err)
	}
	return nil
}

func describeSyntaxError(err error) error {
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("malformed JSON at byte %d: %s", syntax.Offset, strings.TrimPrefix(syntax.Error(), "json: "))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errors.New("malformed JSON: unexpected end of input")
	default:
		return fmt.Errorf("malformed JSON: %w", err)
	}
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

// checker walks a decoded JSON tree along a Go type, remembering the JSON
// fields of each struct type it met.
type checker struct {
	fields map[reflect.Type]map[string]reflect.StructField
}

func (c *checker) check(value any, t reflect.Type, path *pathStep) error {
	if value == nil {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		object, ok := value.(map[string]any)
		if !ok {
			return wrongType(path, "an object", value)
		}
		fields := c.structFields(t)
		for _, k := range sortedKeys(object) {
			f, known := fields[k]
			if !known {
				return fmt.Errorf("unknown field %q", (&pathStep{parent: path, field: k}).String())
			}
			if err := c.check(object[k], f.Type, &pathStep{parent: path, field: k}); err != nil {
				return err
			}
		}
	case reflect.Slice:
		list, ok := value.([]any)
		if !ok {
			return wrongType(path, "an array", value)
		}
		for i, item := range list {
			if err := c.check(item, t.Elem(), &pathStep{parent: path, index: i, isIndex: true}); err != nil {
				return err
			}
		}
	case reflect.Map:
		object, ok := value.(map[string]any)
		if !ok {
			return wrongType(path, "an object", value)
		}
		for _, k := range sortedKeys(object) {
			if err := c.check(object[k], t.Elem(), &pathStep{parent: path, field: k, isKey: true}); err != nil {
				return err
			}
		}
	case reflect.String:
		s, ok := value.(string)
		if !ok {
			return wrongType(path, "a string", value)
		}
		if allowed, isEnum := enumValues(t); isEnum && !slices.Contains(allowed, s) {
			return fmt.Errorf("field %q: unknown enum value %q (known: %s)", path, s, strings.Join(allowed, ", "))
		}
	case reflect.Bool:
		if _, ok := value.(bool); !ok {
			return wrongType(path, "a boolean", value)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := value.(json.Number)
		if !ok {
			return wrongType(path, "an integer", value)
		}
		if _, err := strconv.ParseInt(n.String(), 10, t.Bits()); err != nil {
			return fmt.Errorf("field %q: %s is not a %d-bit integer", path, n, t.Bits())
		}
	case reflect.Float32, reflect.Float64:
		n, ok := value.(json.Number)
		if !ok {
			return wrongType(path, "a number", value)
		}
		if _, err := strconv.ParseFloat(n.String(), t.Bits()); err != nil {
			return fmt.Errorf("field %q: %s is not a valid number", path, n)
		}
	}
	return nil
}

// structFields maps the JSON names of t's fields, embedded structs flattened.
func (c *checker) structFields(t reflect.Type) map[string]reflect.StructField {
	if fields, ok := c.fields[t]; ok {
		return fields
	}
	fields := map[string]reflect.StructField{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || (!f.IsExported() && !f.Anonymous):
			continue
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			for k, inner := range c.structFields(f.Type) {
				fields[k] = inner
			}
			continue
		case name == "":
			name = f.Name
		}
		fields[name] = f
	}
	c.fields[t] = fields
	return fields
}

// sortedKeys returns the keys of an object in order, so that the first
// problem reported is the same on every run.
func sortedKeys(object map[string]any) []string {
	keys := make([]string, 0, len(object))
	for k := range object {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// pathStep is one step of the way to a value in a JSON document: a field,
// a list index or a map key. Steps are spelled out only for an error.
type pathStep struct {
	parent  *pathStep
	field   string
	index   int
	isIndex bool
	isKey   bool
}

// String spells a path as "requests[0].revision.type" or "labels[pii]".
func (p *pathStep) String() string {
	if p == nil {
		return ""
	}
	parent := p.parent.String()
	switch {
	case p.isIndex:
		return fmt.Sprintf("%s[%d]", parent, p.index)
	case p.isKey:
		return parent + "[" + p.field + "]"
	case parent == "":
		return p.field
	default:
		return parent + "." + p.field
	}
}

func wrongType(path *pathStep, want string, got any) error {
	return fmt.Errorf("field %q: expected %s, got %s", path, want, jsonKind(got))
}

func jsonKind(v any) string {
	switch v := v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "the number " + v.String()
	default:
		return "null"
	}
}
