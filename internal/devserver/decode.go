package devserver

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/client"
)

// decodeStrict decodes a JSON object into v, a struct pointer, as strictly as
// protobuf JSON: no unknown or repeated field, no unknown enum name. An empty
// body is the empty object.
func decodeStrict(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	return json.Unmarshal(data, v, strictOptions())
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
