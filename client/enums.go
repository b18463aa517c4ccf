package client

import "slices"

// ObjectSchemaTypes lists the known ObjectSchemaType values.
func ObjectSchemaTypes() []ObjectSchemaType {
	return []ObjectSchemaType{ObjectSchemaTypeUnspecified, ObjectSchemaTypeString, ObjectSchemaTypeNumber,
		ObjectSchemaTypeBoolean, ObjectSchemaTypeObject, ObjectSchemaTypeArray}
}

// Known reports whether t is a value this version knows.
func (t ObjectSchemaType) Known() bool { return slices.Contains(ObjectSchemaTypes(), t) }

// RevisionTypes lists the known RevisionType values.
func RevisionTypes() []RevisionType {
	return []RevisionType{RevisionTypeUnspecified, RevisionTypeVersioned, RevisionTypeDeclarative}
}

// Known reports whether t is a value this version knows.
func (t RevisionType) Known() bool { return slices.Contains(RevisionTypes(), t) }

// Known reports whether t is a value this version knows.
func (t PolicyType) Known() bool { return slices.Contains(PolicyTypes(), t) }
