package output

import (
	"errors"
	"testing"
)

func TestJUnitPrinter(t *testing.T) {
	opts := Options{Format: "junit", Reports: true}
	printsExactly(t, opts, Document{Report: run}, `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="dbgov schema diff" tests="4" failures="2" errors="0" skipped="1">
  <testcase name="prod/orders" classname="dbgov schema diff"></testcase>
  <testcase name="prod/&lt;users&gt;" classname="dbgov schema diff">
    <failure message="ALTER TABLE t ADD c int; (2 lines)" type="differs">ALTER TABLE t ADD c int;&#xA;DROP TABLE u;</failure>
  </testcase>
  <testcase name="prod/&lt;x&gt;" classname="dbgov schema diff">
    <failure message="database &#34;prod/&lt;x&gt;&#34; not found | (HTTP 404 NOT_FOUND)" type="failed">database &#34;prod/&lt;x&gt;&#34; not found | (HTTP 404 NOT_FOUND)</failure>
  </testcase>
  <testcase name="prod/late" classname="dbgov schema diff">
    <skipped message="not sent"></skipped>
  </testcase>
</testsuite>
`)
	// A difference without --exit-code passes, its changes the test's output;
	// control characters are replaced, never written raw.
	printsExactly(t, opts, Document{Report: &Report{Title: "dbgov catalog diff", Cases: []Case{{Name: "p/a", Result: "differs", Detail: "~ t", Changes: "~ t\x1b[2J"}}}},
		`<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="dbgov catalog diff" tests="1" failures="0" errors="0" skipped="0">
  <testcase name="p/a" classname="dbgov catalog diff">
    <system-out>~ t`+"\uFFFD"+`[2J</system-out>
  </testcase>
</testsuite>
`)
}

func TestJUnitPrinter_onlyForReports(t *testing.T) {
	if _, err := New(Options{Format: "junit"}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("-o junit of a command without a report: %v, want a usage error", err)
	}
	// From DBGOV_OUTPUT or the config file, such a command prints its table.
	printsExactly(t, Options{Format: "junit", FormatIsDefault: true}, tablesDoc(Table{Headers: []string{"A"}, Rows: [][]string{{"1"}}}), "A\n1\n")
}
