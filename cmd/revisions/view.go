package revisions

import (
	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/output"
)

// revisionList is how revisions print.
var revisionList = output.List[client.Revision]{
	Columns: []output.Column[client.Revision]{
		{Header: "NAME", Kind: output.Name, MinWidth: 20, Value: func(r *client.Revision) string { return r.Name }},
		{Header: "VERSION", Value: func(r *client.Revision) string { return r.Version }},
		{Header: "TYPE", Priority: 1, Value: func(r *client.Revision) string { return string(r.Type) }},
		{Header: "RELEASE", Priority: 3, MinWidth: 12, Value: func(r *client.Revision) string { return r.Release }},
		{Header: "FILE", Priority: 2, MinWidth: 15, Value: func(r *client.Revision) string { return r.File }},
		{Header: "CREATED", Priority: 1, Kind: output.Time, Value: func(r *client.Revision) string { return r.CreateTime }},
	},
	Name: func(r *client.Revision) string { return r.Name },
}
