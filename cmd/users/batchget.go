package users

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
	"github.com/dbgov/dbgov/internal/jsonscan"
	"github.com/dbgov/dbgov/output"
)

// stdinArg is the argument that stands for the names read from stdin.
const stdinArg = "-"

type batchGetOptions struct {
	IO      *iostreams.IOStreams
	Client  func() (*client.Client, error)
	Printer func() (output.Printer, error)
	// Output tells which output was asked for, so that no more of a large
	// answer is decoded than it shows.
	Output func() (output.Options, error)

	// Emails are the users to get, each once, in the order first given.
	Emails []string
}

func newBatchGetCmd(f *factory.Factory, runF func(context.Context, *batchGetOptions) error) *cobra.Command {
	opts := &batchGetOptions{IO: f.IO, Client: f.Client, Printer: f.PrintFlags().ToPrinter, Output: f.PrintFlags().Options}
	cmd := &cobra.Command{
		Use:   "batch-get NAME...",
		Short: "Show several users in one call",
		Long: `Show several users in one call: their email, title, type, state, whether
they enabled MFA, and their groups.

Each NAME is an email, alice@example.com, or a full name, users/alice@example.com.
The argument - reads more names from stdin, one a line; blank lines and the
spaces around a name are skipped. A user named more than once is asked for
and shown once, where it was first named.

The service answers for all the users or for none: if one of them does not
exist, the command fails with exit code 5 and shows nobody.

Temporary MFA secrets (tempOtpSecret, tempRecoveryCodes) print as ******** in
-o json, -o yaml, --jq and --template unless --show-secrets is given; the table
never shows them.`,
		Example: `  dbgov users batch-get alice@example.com users/bob@example.com
  dbgov users batch-get alice@example.com -o json
  grep -v '^#' on-call.txt | dbgov users batch-get - --jq '.users[] | select(.mfaEnabled | not) | .email'`,
		Args: arity.AtLeast(1, "at least one user NAME (or - to read names from stdin)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.IO.InTTY && slices.Contains(args, stdinArg) {
				fmt.Fprintln(opts.IO.ErrOut, "Reading user names from stdin, one a line; press Ctrl-D to end.")
			}
			emails, err := userEmails(args, opts.IO.In)
			if err != nil {
				return err
			}
			opts.Emails = emails
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runBatchGet(cmd.Context(), opts)
		},
	}
	return cmd
}

func runBatchGet(ctx context.Context, opts *batchGetOptions) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	calls, err := batchGetCalls(opts.Emails)
	if err != nil {
		return exitcode.NewUsage(err)
	}
	r := calls[0]
	// An answer may hold tens of thousands of users. It is decoded into the
	// fields the table shows when a table or names will be printed, and
	// otherwise only checked for its shape: -o json, yaml, --jq and
	// --template print the body as it came.
	var rows *rowsAnswer
	var out any = new(shapeAnswer)
	if o, err := opts.Output(); err == nil && showsFields(o) {
		rows = new(rowsAnswer)
		out = rows
	}
	var raw []byte
	if len(calls) == 1 {
		raw, err = c.Send(ctx, r, out)
	} else {
		raw, err = sendInParts(ctx, c, calls)
		if err == nil && rows != nil {
			err = decodeAnswer(r, raw, rows)
		}
	}
	if err != nil {
		return fmt.Errorf("get %s: %w", describeUsers(opts.Emails), err)
	}
	var decodeErr error
	// users are the decoded users, nil when the answer does not decode.
	users := func() []userRow {
		if rows == nil {
			rows = new(rowsAnswer)
			decodeErr = decodeAnswer(r, raw, rows)
		}
		if decodeErr != nil {
			return nil
		}
		return rows.Users
	}
	doc := output.Document{
		Raw:       raw,
		ListField: "users",
		Names:     func() []string { return userList.Names(users()) },
		Tables: func() []output.Table {
			if u := users(); decodeErr == nil {
				return []output.Table{userList.Table(u, userCollection)}
			}
			return nil
		},
	}
	// A printer asks for the names or the tables before it writes anything,
	// so an answer that does not decode leaves stdout empty.
	if err := p.Print(opts.IO.Out, doc); err != nil {
		return err
	}
	if decodeErr != nil {
		return fmt.Errorf("get %s: %w", describeUsers(opts.Emails), decodeErr)
	}
	return nil
}

// maxQuery bounds the query of one users:batchGet request. Proxies in front
// of a service commonly refuse a request line beyond 8 KiB, so a long list
// of names is asked for in several requests, whose answers are joined.
const maxQuery = 6 << 10

// batchGetCalls splits emails into requests whose queries stay under
// maxQuery, in order; a short list is one request.
func batchGetCalls(emails []string) ([]*client.Request, error) {
	var calls []*client.Request
	start, size := 0, 0
	for i, email := range emails {
		n := len("&names=users%2F") + len(url.QueryEscape(email))
		if i > start && size+n > maxQuery {
			call, err := client.BatchGetUsersCall(emails[start:i])
			if err != nil {
				return nil, err
			}
			calls = append(calls, call)
			start, size = i, 0
		}
		size += n
	}
	call, err := client.BatchGetUsersCall(emails[start:])
	if err != nil {
		return nil, err
	}
	return append(calls, call), nil
}

// sendInParts sends the requests of one batch get in turn and joins their
// users into one answer, {"users": [...]}, each user as the service sent
// it. The service answers for all the users or none: the first failure
// fails the whole.
func sendInParts(ctx context.Context, c *client.Client, calls []*client.Request) ([]byte, error) {
	parts := make([][]byte, 0, len(calls))
	size := len(`{"users":[]}`)
	for _, call := range calls {
		raw, err := c.Send(ctx, call, new(shapeAnswer))
		if err != nil {
			return nil, err
		}
		users := usersIn(raw)
		parts = append(parts, users)
		size += len(users) + 1
	}
	joined := make([]byte, 0, size)
	joined = append(joined, `{"users":[`...)
	for _, users := range parts {
		if len(users) == 0 {
			continue
		}
		if joined[len(joined)-1] != '[' {
			joined = append(joined, ',')
		}
		joined = append(joined, users...)
	}
	return append(joined, "]}"...), nil
}

// usersIn returns the users of an answer whose shape was checked: the text
// between the brackets of its top-level "users" list, nil when the list is
// absent, null or empty. It is a slice of raw, not a copy.
func usersIn(raw []byte) []byte {
	i := jsonscan.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil
	}
	i = jsonscan.SkipSpace(raw, i+1)
	for i < len(raw) && raw[i] == '"' {
		kEnd := jsonscan.StringEnd(raw, i)
		var key string
		_ = json.Unmarshal(raw[i:kEnd], &key)
		v := jsonscan.SkipSpace(raw, jsonscan.SkipSpace(raw, kEnd)+1)
		end := jsonscan.ValueEnd(raw, v)
		if key == "users" && v < len(raw) && raw[v] == '[' {
			return bytes.TrimSpace(raw[v+1 : end-1])
		}
		i = jsonscan.SkipSpace(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i = jsonscan.SkipSpace(raw, i+1)
		}
	}
	return nil
}

// showsFields reports whether the output chosen prints fields of the users
// (a table, or names) rather than the body as it came.
func showsFields(o output.Options) bool {
	return o.JQ == "" && o.Template == "" && (o.Format == "" || o.Format == "table" || o.Format == "wide" || o.Format == "name")
}

// userEmails reads the users named by args, where "-" stands for the names
// on stdin, and returns their emails without repeats, in the order first
// named. A name that cannot be a user's is a usage error naming it.
func userEmails(args []string, stdin io.Reader) ([]string, error) {
	var emails []string
	seen := make(map[string]bool, len(args))
	add := func(email string) {
		if !seen[email] {
			seen[email] = true
			emails = append(emails, email)
		}
	}
	readStdin := false
	for _, arg := range args {
		if arg != stdinArg {
			email, err := client.ParseUser(arg)
			if err != nil {
				return nil, exitcode.NewUsage(err)
			}
			add(email)
			continue
		}
		if readStdin {
			return nil, exitcode.Usagef("- may be given only once: it reads all of stdin")
		}
		readStdin = true
		if err := scanNames(stdin, add); err != nil {
			return nil, err
		}
	}
	if len(emails) == 0 {
		return nil, exitcode.Usagef("no user names: stdin held none (give one a line)")
	}
	return emails, nil
}

// scanNames reads names from r, one a line, passing the email of each to add;
// blank lines and surrounding spaces are skipped.
func scanNames(r io.Reader, add func(email string)) error {
	if r == nil {
		return exitcode.Usagef("read user names from stdin: no stdin")
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for line := 1; sc.Scan(); line++ {
		name := strings.TrimSpace(sc.Text())
		if name == "" {
			continue
		}
		email, err := client.ParseUser(name)
		if err != nil {
			return exitcode.NewUsage(fmt.Errorf("stdin line %d: %w", line, err))
		}
		add(email)
	}
	if err := sc.Err(); err != nil {
		return exitcode.NewUsage(fmt.Errorf("read user names from stdin: %w", err))
	}
	return nil
}

// describeUsers names the users of a call in an error message: the email
// of one user, the number of several.
func describeUsers(emails []string) string {
	if len(emails) == 1 {
		return "user " + emails[0]
	}
	return fmt.Sprintf("%d users", len(emails))
}
