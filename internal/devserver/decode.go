package devserver

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/dbgov/dbgov/client"
)

// decodeStrict decodes a JSON object into v, a struct pointer, as strictly as
// protobuf JSON: exact names, no unknown field or enum name, no wrong type.
func decodeStrict(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree any
	var syntax *json.SyntaxError
	switch err := dec.Decode(&tree); {
	case errors.As(err, &syntax):
		return fmt.Errorf("malformed JSON at byte %d: %s", syntax.Offset, strings.TrimPrefix(syntax.Error(), "json: "))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errors.New("malformed JSON: unexpected end of input")
	case err != nil:
		return fmt.Errorf("malformed JSON: %w", err)
	case len(bytes.Trim(data[dec.InputOffset():], " \t\r\n")) > 0:
		return errors.New("malformed JSON: unexpected data after the top-level value")
	case tree != nil && jsonKind(tree) != "an object":
		return fmt.Errorf("the body must be a JSON object, not %s", jsonKind(tree))
	}
	if err := (fieldCache{}).check(tree, reflect.TypeOf(v).Elem()); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode JSON: %w", err)
	}
	return nil
}

// enums lists the names of the enum types whose set is closed on the service.
var enums = map[reflect.Type][]string{
	reflect.TypeFor[client.RevisionType]():               enumNames(client.RevisionTypes()),
	reflect.TypeFor[client.ObjectSchemaType]():           enumNames(client.ObjectSchemaTypes()),
	reflect.TypeFor[client.PolicyType]():                 append([]string{string(client.PolicyTypeUnspecified)}, enumNames(client.PolicyTypes())...),
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

func enumNames[T ~string](values []T) []string {
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = string(v)
	}
	return names
}

// fieldError is a problem at a place in a JSON document, whose path
// (".requests[0].revision.type") is put together as the error goes up.
type fieldError struct{ path, problem string }

func (e *fieldError) Error() string {
	if e.problem == "" {
		return fmt.Sprintf("unknown field %q", strings.TrimPrefix(e.path, "."))
	}
	return fmt.Sprintf("field %q: %s", strings.TrimPrefix(e.path, "."), e.problem)
}

// under puts the problem of a value, if any, at step of its parent.
func (e *fieldError) under(step string) *fieldError {
	if e != nil {
		e.path = step + e.path
	}
	return e
}

func wrongType(want string, got any) *fieldError {
	return &fieldError{problem: "expected " + want + ", got " + jsonKind(got)}
}

// fieldCache maps the JSON names of the fields of each struct type met.
type fieldCache map[reflect.Type]map[string]reflect.StructField

// check walks a decoded tree along t, visiting object keys in order so that
// the first problem reported is the same on every run.
func (c fieldCache) check(value any, t reflect.Type) *fieldError {
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
			return wrongType("an object", value)
		}
		fields := c.fields(t)
		for _, k := range slices.Sorted(maps.Keys(object)) {
			f, known := fields[k]
			if !known {
				return &fieldError{path: "." + k}
			}
			if err := c.check(object[k], f.Type).under("." + k); err != nil {
				return err
			}
		}
	case reflect.Map:
		object, ok := value.(map[string]any)
		if !ok {
			return wrongType("an object", value)
		}
		for _, k := range slices.Sorted(maps.Keys(object)) {
			if err := c.check(object[k], t.Elem()).under("[" + k + "]"); err != nil {
				return err
			}
		}
	case reflect.Slice:
		list, ok := value.([]any)
		if !ok {
			return wrongType("an array", value)
		}
		for i, item := range list {
			if err := c.check(item, t.Elem()).under("[" + strconv.Itoa(i) + "]"); err != nil {
				return err
			}
		}
	case reflect.String:
		s, ok := value.(string)
		if !ok {
			return wrongType("a string", value)
		}
		if allowed, isEnum := enums[t]; isEnum && !slices.Contains(allowed, s) {
			return &fieldError{problem: fmt.Sprintf("unknown enum value %q (known: %s)", s, strings.Join(allowed, ", "))}
		}
	case reflect.Bool:
		if _, ok := value.(bool); !ok {
			return wrongType("a boolean", value)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := value.(json.Number)
		if !ok {
			return wrongType("an integer", value)
		}
		if _, err := strconv.ParseInt(n.String(), 10, t.Bits()); err != nil {
			return &fieldError{problem: fmt.Sprintf("%s is not a %d-bit integer", n, t.Bits())}
		}
	case reflect.Float32, reflect.Float64:
		n, ok := value.(json.Number)
		if !ok {
			return wrongType("a number", value)
		}
		if _, err := strconv.ParseFloat(n.String(), t.Bits()); err != nil {
			return &fieldError{problem: fmt.Sprintf("%s is not a valid number", n)}
		}
	}
	return nil
}

// fields maps the JSON names of t's fields, embedded structs flattened.
func (c fieldCache) fields(t reflect.Type) map[string]reflect.StructField {
	if fields, ok := c[t]; ok {
		return fields
	}
	fields := map[string]reflect.StructField{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || (!f.IsExported() && !f.Anonymous):
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			maps.Copy(fields, c.fields(f.Type))
		default:
			fields[cmp.Or(name, f.Name)] = f
		}
	}
	c[t] = fields
	return fields
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
