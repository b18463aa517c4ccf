package reviewconfigs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/output"
)

var configColumns = []output.Column[client.ReviewConfig]{
	{Header: "NAME", Kind: output.Name, MinWidth: 20, Value: func(c *client.ReviewConfig) string { return c.Name }},
	{Header: "TITLE", Priority: 2, MinWidth: 10, Value: func(c *client.ReviewConfig) string { return c.Title }},
	{Header: "ENABLED", Priority: 1, Value: func(c *client.ReviewConfig) string { return strconv.FormatBool(c.Enabled) }},
	{Header: "RESOURCES", Priority: 3, MinWidth: 15, Value: func(c *client.ReviewConfig) string { return strings.Join(c.Resources, ", ") }},
}

var ruleColumns = []output.Column[client.ReviewRule]{
	{Header: "TYPE", Value: func(r *client.ReviewRule) string { return string(r.Type) }},
	{Header: "LEVEL", Priority: 1, Value: func(r *client.ReviewRule) string { return string(r.Level) }},
	{Header: "ENGINE", Priority: 2, Value: func(r *client.ReviewRule) string { return string(r.Engine) }},
	{Header: "PAYLOAD", Priority: 3, MinWidth: 15, Value: payload},
}

// payload summarises the rule's payload on one line.
func payload(r *client.ReviewRule) string {
	var parts []string
	add := func(format string, args ...any) { parts = append(parts, fmt.Sprintf(format, args...)) }
	if p := r.NamingPayload; p != nil {
		if p.Format != "" {
			add("format=%q", p.Format)
		}
		if p.MaxLength != 0 {
			add("maxLength=%d", p.MaxLength)
		}
	}
	if p := r.NumberPayload; p != nil {
		add("number=%d", p.Number)
	}
	if p := r.StringArrayPayload; p != nil {
		add("list=[%s]", strings.Join(p.List, ", "))
	}
	if p := r.CommentConventionPayload; p != nil {
		add("required=%t", p.Required)
		if p.MaxLength != 0 {
			add("maxLength=%d", p.MaxLength)
		}
	}
	if p := r.StringPayload; p != nil {
		add("value=%q", p.Value)
	}
	if p := r.NamingCasePayload; p != nil {
		if p.Upper {
			add("case=upper")
		} else {
			add("case=lower")
		}
	}
	return strings.Join(parts, " ")
}
