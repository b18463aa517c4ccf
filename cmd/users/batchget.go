package users

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/cmd/arity"
	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/helptext"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/jsondoc"
	"github.com/dbgov/dbgov/output"
)

// stdinArg is the argument that stands for the names read from stdin.
const stdinArg = "-"

type batchGetOptions struct {
	factory.Deps
	// Output gives the output options the printer was made from: the
	// users' fields are decoded only for a table or names.
	Output func() (output.Options, error)
	// Emails are the users to get, each once, in the order first given.
	Emails []string
}

// newBatchGetCmd builds users batch-get. runF, when not nil, is called with
// the options in place of the request: for tests of the flags.
func newBatchGetCmd(f *factory.Factory, runF func(*batchGetOptions) error) *cobra.Command {
	opts := &batchGetOptions{Deps: f.Deps(), Output: f.PrintFlags().Options}
	return helptext.Command(help, &cobra.Command{
		Use:   "batch-get NAME...",
		Short: "Show several users in one call",
		Args:  arity.AtLeast(1, "at least one user NAME (or - to read names from stdin)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.IO.InTTY && slices.Contains(args, stdinArg) {
				fmt.Fprintln(opts.IO.ErrOut, "Reading user names from stdin, one a line; press Ctrl-D to end.")
			}
			var skip func(string) // a bad line typed at a terminal is told and skipped
			if opts.IO.InTTY {
				skip = opts.IO.Warn
			}
			emails, err := userEmails(args, opts.IO.In, skip)
			if err != nil {
				return err
			}
			opts.Emails = emails
			if runF != nil {
				return runF(opts)
			}
			return runBatchGet(cmd.Context(), opts)
		},
	})
}

func runBatchGet(ctx context.Context, opts *batchGetOptions) error {
	p, c, err := opts.Connect()
	if err != nil {
		return err
	}
	// From 3.15 the service keeps service accounts and workload identities
	// apart: each is read from its own route, the others in batches.
	people, accounts := opts.Emails, []string(nil)
	isAccount := func(e string) bool { return client.AccountCall(e) != nil }
	if slices.ContainsFunc(people, isAccount) {
		if s, err := c.Server(ctx); err != nil {
			return err
		} else if s.Release.Has(client.AccountsApart) {
			accounts = slices.DeleteFunc(slices.Clone(people), func(e string) bool { return !isAccount(e) })
			people = slices.DeleteFunc(slices.Clone(people), isAccount)
		}
	}
	calls, err := batchGetCalls(people)
	if err != nil {
		return exitcode.NewUsage(err)
	}
	// -o json, yaml, --jq and --template print the body as it came: the
	// users' fields are decoded only for an output that reads them.
	o, err := opts.Output()
	a := answer{fields: err == nil && o.ReadsTables()}
	for _, call := range calls {
		if err := a.add(ctx, c, call, len(calls)+len(accounts)); err != nil {
			return fmt.Errorf("get %s: %w", describeUsers(opts.Emails), err)
		}
	}
	for _, email := range accounts { // an account the service does not have is left out
		if err := a.add(ctx, c, client.AccountCall(email), len(calls)+len(accounts)); err != nil && exitcode.Classify(err).Code != exitcode.NotFound {
			return fmt.Errorf("get %s: %w", describeUsers(opts.Emails), err)
		}
	}
	if err := a.check(ctx, c, opts.Emails); err != nil {
		return fmt.Errorf("get %s: %w", describeUsers(opts.Emails), err)
	}
	return p.Print(ctx, opts.IO.Out, userList.Document(a.raw, "users", a.rows, userCollection))
}

// answer gathers the answer to a batch get, asked for in parts when the list
// is long: the rows of the table when fields, the names of the users
// answered, and the body of the one request or the users of each part, as
// the service sent them, joined in {"users": [...]}.
type answer struct {
	fields bool
	rows   []userRow
	names  []string
	raw    []byte
}

// add sends call, one of parts, and adds its answer.
func (a *answer) add(ctx context.Context, c *client.Client, call *client.Request, parts int) error {
	var rows userRows
	var names userNames
	out := any(&names)
	if a.fields {
		out = &rows
	}
	account := !strings.HasSuffix(call.Path, ":batchGet") // one account, taken as a list of one
	if account {
		rows.Users = make([]userRow, 1)
		out = &rows.Users[0]
	}
	raw, err := c.Send(ctx, call, out)
	if err != nil {
		return err
	}
	if account { // its row was decoded whatever the output
		raw = slices.Concat([]byte(`{"users":[`), raw, []byte(`]}`))
	}
	a.rows = append(a.rows, rows.Users...)
	a.names = append(a.names, userList.Names(rows.Users)...)
	for _, u := range names.Users {
		a.names = append(a.names, u.Name)
	}
	if parts == 1 {
		a.raw = raw
		return nil
	}
	// A part is checked as it comes; unless the table is printed (fields),
	// its users join the answer as sent.
	if err := jsondoc.Check(raw); err != nil || a.fields {
		return err
	}
	var part struct {
		Users []jsontext.Value `json:"users"`
	}
	if err := jsonv2.Unmarshal(raw, &part, jsondoc.Lenient...); err != nil {
		return err
	}
	if a.raw == nil { // the parts are alike: room for as many as the first
		a.raw = append(make([]byte, 0, len(raw)*parts+64), `{"users":[]}`...)
	}
	list := a.raw[:len(a.raw)-len("]}")]
	for _, user := range part.Users {
		if list[len(list)-1] != '[' {
			list = append(list, ',')
		}
		list = append(list, user...)
	}
	a.raw = append(list, "]}"...)
	return nil
}

// check reports an answer that does not hold exactly the users of emails:
// one missing, or one not asked for (or given twice). Emails are compared
// whatever their case, as the service compares them. From 3.15 the service
// leaves out the users it lacks: those are not found. The table's rows are
// put in the order asked.
func (a *answer) check(ctx context.Context, c *client.Client, emails []string) error {
	asked, order := make(map[string]int, len(emails)), make(map[string]int, len(emails))
	for i, e := range emails {
		asked[strings.ToLower(e)]++
		order[strings.ToLower(e)] = i
	}
	slices.SortStableFunc(a.rows, func(x, y userRow) int {
		return order[strings.ToLower(x.Email)] - order[strings.ToLower(y.Email)]
	})
	var foreign, missing []string
	for _, name := range a.names {
		email, ok := client.AccountEmail(name)
		switch key := strings.ToLower(email); {
		case ok && asked[key] > 0:
			asked[key]--
		case name == "":
			foreign = append(foreign, "a user without a name")
		default:
			foreign = append(foreign, name)
		}
	}
	for _, e := range emails {
		if key := strings.ToLower(e); asked[key] > 0 {
			asked[key]--
			missing = append(missing, "users/"+e)
		}
	}
	if len(missing) > 0 && len(foreign) == 0 {
		if s, err := c.Server(ctx); err != nil || s.Release.Has(client.AccountsApart) {
			return cmp.Or(err, exitcode.WithCode(fmt.Errorf("not found: %s", strings.Join(missing, ", ")), exitcode.NotFound, "NOT_FOUND"))
		}
	}
	var problems []string
	if len(missing) > 0 {
		problems = append(problems, fmt.Sprintf("lacks %d of the %d users asked for (%s)", len(missing), len(emails), listSome(missing)))
	}
	if len(foreign) > 0 {
		problems = append(problems, fmt.Sprintf("holds %d not asked for (%s)", len(foreign), listSome(foreign)))
	}
	if problems == nil {
		return nil
	}
	return fmt.Errorf("%w: the answer %s", jsondoc.ErrInvalid, strings.Join(problems, " and "))
}

// listSome names the first few of names.
func listSome(names []string) string {
	const shown = 3
	if len(names) <= shown {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:shown], ", "), len(names)-shown)
}

// maxQuery bounds the query of one users:batchGet request. Proxies in front
// of a service commonly refuse a request line beyond 8 KiB, so a long list
// of names is asked for in several requests, whose answers are joined.
const maxQuery = 6 << 10

// batchGetCalls splits emails into requests whose queries stay under
// maxQuery, in order; a short list is one request, none is none.
func batchGetCalls(emails []string) ([]*client.Request, error) {
	var calls []*client.Request
	for start, end := 0, 0; start < len(emails); start = end {
		for size := 0; end < len(emails); end++ {
			n := len("&names=users%2F") + len(url.QueryEscape(emails[end]))
			if end > start && size+n > maxQuery {
				break
			}
			size += n
		}
		call, err := client.BatchGetUsersCall(emails[start:end])
		if err != nil {
			return nil, err
		}
		calls = append(calls, call)
	}
	return calls, nil
}

// userEmails reads the users named by args, where "-" stands for the names
// on stdin, and returns their emails without repeats, in the order first
// named. A name that cannot be a user's is a usage error naming it, but a
// line of stdin is passed to skip instead when skip is not nil.
func userEmails(args []string, stdin io.Reader, skip func(string)) ([]string, error) {
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
		if err := scanNames(stdin, add, skip); err != nil {
			return nil, err
		}
	}
	if len(emails) == 0 {
		return nil, exitcode.Usagef("no user names: stdin held none (give one a line)")
	}
	return emails, nil
}

// scanNames reads names from r, one a line, passing the email of each to add;
// blank lines and surrounding spaces are skipped. A line that is no user's
// name ends the reading, or, when skip is not nil, is told to skip and
// the reading goes on.
func scanNames(r io.Reader, add func(email string), skip func(string)) error {
	if r == nil {
		return exitcode.Usagef("read user names from stdin: no stdin")
	}
	return input.Lines(r, "stdin", func(n int, line string) error {
		name := strings.TrimSpace(line)
		if name == "" {
			return nil
		}
		email, err := client.ParseUser(name)
		switch {
		case err != nil && skip != nil:
			skip(fmt.Sprintf("stdin line %d skipped: %v", n, err))
			return nil
		case err != nil:
			return exitcode.NewUsage(fmt.Errorf("stdin line %d: %w", n, err))
		}
		add(email)
		return nil
	})
}

// describeUsers names the users of a call in an error message: the email
// of one user, the number of several.
func describeUsers(emails []string) string {
	if len(emails) == 1 {
		return "user " + emails[0]
	}
	return fmt.Sprintf("%d users", len(emails))
}
