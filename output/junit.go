package output

import (
	"bufio"
	"cmp"
	"context"
	"encoding/xml"
	"fmt"
	"io"
)

// junitPrinter prints the report of a run over many databases as JUnit XML
// (-o junit), which CI systems show as test results: a test case a
// database; one that failed, or differs under --exit-code, has a <failure>,
// one not sent is <skipped>.
type junitPrinter struct{}

// junitCase is a <testcase>.
type junitCase struct {
	Name      string     `xml:"name,attr"`
	ClassName string     `xml:"classname,attr"`
	Failure   *junitText `xml:"failure"`
	Skipped   *junitText `xml:"skipped"`
	Out       string     `xml:"system-out,omitempty"` // the changes of a difference that is no failure
}

// junitText is a <failure> or <skipped>: its message, type and text.
type junitText struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// Print prints doc's report as one <testsuite> named after its command.
func (junitPrinter) Print(ctx context.Context, w io.Writer, doc Document) error {
	if doc.Report == nil {
		return fmt.Errorf("%w: -o junit is for runs over many databases and diffs", ErrInvalidOptions)
	}
	suite := struct {
		XMLName  xml.Name    `xml:"testsuite"`
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Skipped  int         `xml:"skipped,attr"`
		Cases    []junitCase `xml:"testcase"`
	}{Name: doc.Report.Title, Tests: len(doc.Report.Cases)}
	for _, c := range doc.Report.Cases {
		tc := junitCase{Name: c.Name, ClassName: doc.Report.Title}
		switch {
		case c.Result == NotSent:
			tc.Skipped, suite.Skipped = &junitText{Message: c.Result}, suite.Skipped+1
		case c.Failure:
			tc.Failure, suite.Failures = &junitText{Message: c.Detail, Type: c.Result, Text: cmp.Or(c.Changes, c.Detail)}, suite.Failures+1
		default:
			tc.Out = c.Changes
		}
		suite.Cases = append(suite.Cases, tc)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(xml.Header)
	enc := xml.NewEncoder(bw)
	enc.Indent("", "  ")
	err := enc.Encode(suite)
	bw.WriteByte('\n')
	if err = cmp.Or(err, bw.Flush()); err != nil {
		return fmt.Errorf("write JUnit XML: %w", err)
	}
	return nil
}
