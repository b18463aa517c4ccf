package revisions

import (
	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/output"
)

var revisionColumns = []output.Column[client.Revision]{
	{Header: "NAME", Value: func(r client.Revision) string { return r.Name }},
	{Header: "VERSION", Value: func(r client.Revision) string { return r.Version }},
	{Header: "TYPE", Value: func(r client.Revision) string { return string(r.Type) }},
	{Header: "RELEASE", Value: func(r client.Revision) string { return r.Release }},
	{Header: "FILE", Value: func(r client.Revision) string { return r.File }},
	{Header: "CREATED", Value: func(r client.Revision) string { return r.CreateTime }},
}
