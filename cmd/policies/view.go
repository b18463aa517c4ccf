package policies

import (
	"strconv"
	"strings"
	"time"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/output"
)

// policyList is how policies print.
var policyList = output.List[client.Policy]{
	Columns: []output.Column[client.Policy]{
		{Header: "NAME", Kind: output.Name, MinWidth: 20, Value: func(p *client.Policy) string { return p.Name }},
		{Header: "TYPE", Priority: 1, Value: func(p *client.Policy) string { return string(p.Type) }},
		{Header: "RESOURCE TYPE", Priority: 4, Value: func(p *client.Policy) string { return string(p.ResourceType) }},
		{Header: "ENFORCE", Priority: 1, Value: func(p *client.Policy) string { return strconv.FormatBool(p.Enforce) }},
		{Header: "INHERIT", Priority: 4, Value: func(p *client.Policy) string { return strconv.FormatBool(p.InheritFromParent) }},
		{Header: "SUMMARY", Priority: 3, MinWidth: 20, Value: summary},
	},
	Name: func(p *client.Policy) string { return p.Name },
}

// policiesOf is where the policies of parent are named.
func policiesOf(parent client.PolicyParent) string {
	if parent == (client.PolicyParent{}) {
		return "policies/"
	}
	return parent.String() + "/policies/"
}

// summary says in a few words what the policy's payload holds. A policy
// normally has the one payload of its type; should it have several, each
// is summarised, separated by "; ".
func summary(p *client.Policy) string {
	var parts []string
	if r := p.RolloutPolicy; r != nil {
		s := "manual"
		if r.Automatic {
			s = "automatic"
		}
		if len(r.Roles) > 0 {
			s += ", " + count(len(r.Roles), "role")
		}
		parts = append(parts, s)
	}
	if m := p.MaskingRulePolicy; m != nil {
		parts = append(parts, count(len(m.Rules), "rule"))
	}
	if m := p.MaskingExemptionPolicy; m != nil {
		parts = append(parts, count(len(m.Exemptions), "exemption"))
	}
	if t := p.TagPolicy; t != nil {
		parts = append(parts, count(len(t.Tags), "tag"))
	}
	if d := p.DataSourceQueryPolicy; d != nil {
		parts = append(parts, dataSourceQuery(d))
	}
	if q := p.QueryDataPolicy; q != nil {
		parts = append(parts, queryData(q))
	}
	return strings.Join(parts, "; ")
}

// dataSourceQuery summarises the restrictions of a DATA_SOURCE_QUERY policy.
func dataSourceQuery(d *client.DataSourceQueryPolicy) string {
	r := d.AdminDataSourceRestriction
	return phrases("no restrictions",
		phrase{d.DisallowDdl, "DDL disallowed"},
		phrase{d.DisallowDml, "DML disallowed"},
		phrase{r != "" && r != client.AdminDataSourceRestrictionUnspecified, "admin data source: " + string(r)})
}

// queryData summarises the limits of a DATA_QUERY policy.
func queryData(q *client.QueryDataPolicy) string {
	return phrases("no limits",
		phrase{q.DisableExport, "export disabled"},
		phrase{q.DisableCopyData, "copy disabled"},
		phrase{q.AllowAdminDataSource, "admin data source allowed"}, // from 3.15, which moved the timeout and size limits out
		phrase{q.MaximumResultRows != 0, "max " + count(int(q.MaximumResultRows), "row")},
		phrase{q.MaximumResultSize != "" && q.MaximumResultSize != "0", "max " + size(q.MaximumResultSize)},
		phrase{q.Timeout != "", "timeout " + duration(q.Timeout)})
}

// phrase is a part of a summary, said when on.
type phrase struct {
	on   bool
	text string
}

// phrases joins the texts of the phrases that are on with ", ", or is none
// when no phrase is.
func phrases(none string, all ...phrase) string {
	var said []string
	for _, p := range all {
		if p.on {
			said = append(said, p.text)
		}
	}
	if said == nil {
		return none
	}
	return strings.Join(said, ", ")
}

// count is "1 rule", "2 rules", "0 rules".
func count(n int, noun string) string {
	s := strconv.Itoa(n) + " " + noun
	if n != 1 {
		s += "s"
	}
	return s
}

// size shows a byte count sent as an int64 string in binary units: "512
// bytes", "10 MiB", "1.5 GiB". A value that is no number is shown as sent.
func size(s string) string {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return s + " bytes"
	}
	if n < 1024 {
		return count(int(n), "byte")
	}
	v := float64(n)
	unit := 0
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	for v /= 1024; v >= 1024 && unit < len(units)-1; v /= 1024 {
		unit++
	}
	// At most one decimal, without a trailing ".0".
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0") + " " + units[unit]
}

// duration shows a protobuf duration ("3600s", "1.5s") the short way Go
// writes it, without zero units: "1h", "1m30s", "1.5s". A value Go cannot
// read is shown as sent.
func duration(s string) string {
	d, err := time.ParseDuration(s)
	if err != nil {
		return s
	}
	out := d.String()
	if strings.HasSuffix(out, "m0s") {
		out = strings.TrimSuffix(out, "0s")
	}
	if strings.HasSuffix(out, "h0m") {
		out = strings.TrimSuffix(out, "0m")
	}
	return out
}
