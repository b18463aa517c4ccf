package client

import (
	"fmt"
	"slices"
	"strings"
)

// ObjectSchemaTypes lists the known ObjectSchemaType values.
func ObjectSchemaTypes() []ObjectSchemaType {
	return []ObjectSchemaType{ObjectSchemaTypeUnspecified, ObjectSchemaTypeString, ObjectSchemaTypeNumber,
		ObjectSchemaTypeBoolean, ObjectSchemaTypeObject, ObjectSchemaTypeArray}
}

// Set reads a known value in any case (string is STRING), as input files give it.
func (t *ObjectSchemaType) Set(s string) error { return setEnum(t, s, ObjectSchemaTypes()) }

// RevisionTypes lists the known RevisionType values.
func RevisionTypes() []RevisionType {
	return []RevisionType{RevisionTypeUnspecified, RevisionTypeVersioned, RevisionTypeDeclarative}
}

// Known reports whether t is a value this version knows.
func (t RevisionType) Known() bool { return slices.Contains(RevisionTypes(), t) }

// Set reads a known value in any case (versioned is VERSIONED), as input files give it.
func (t *RevisionType) Set(s string) error { return setEnum(t, s, RevisionTypes()) }

// Known reports whether t is a value this version knows.
func (t PolicyType) Known() bool { return slices.Contains(PolicyTypes(), t) }

// Set reads a known value in any case (tag is TAG), as --type gives it.
func (t *PolicyType) Set(s string) error { return setEnum(t, s, PolicyTypes()) }

// setEnum sets *t to the value of known that s names in any case; another
// value is an error listing the known ones. Answers from the service are
// not read this way: a value this version does not know is shown as sent.
func setEnum[T ~string](t *T, s string, known []T) error {
	for _, k := range known {
		if strings.EqualFold(s, string(k)) {
			*t = k
			return nil
		}
	}
	return fmt.Errorf("unknown value %q: want one of %s", s, strings.Join(Names(known), ", "))
}

// Names returns the names of enum values, in their order.
func Names[T ~string](values []T) []string {
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = string(v)
	}
	return names
}
