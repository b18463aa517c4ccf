// Package exitcode holds the contract's exit codes and the error kinds that
// carry them, and turns any error into its exit code and the one line (or
// one JSON object) that reports it. It imports no other dbgov package but
// leaves, so that every layer may classify the errors it makes; the
// exit-code table lives here and nowhere else.
package exitcode

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"

	"github.com/dbgov/dbgov/internal/secret"
	"github.com/dbgov/dbgov/internal/textsafe"
)

// The exit codes of the contract.
const (
	OK          = 0   // success
	Failure     = 1   // a failure not listed below
	Usage       = 2   // a bad flag, argument or input file, or no URL; nothing was sent
	Auth        = 3   // no credentials where needed, or HTTP 401
	Permission  = 4   // HTTP 403
	NotFound    = 5   // HTTP 404
	Rejected    = 6   // HTTP 400, 409, 412, 422
	Service     = 7   // HTTP 5xx, or 429 after the retries
	NoAnswer    = 8   // connection refused, DNS, TLS, or timeout
	Differences = 9   // schema diff --exit-code found differences
	Interrupted = 130 // Ctrl-C (SIGINT)
	Terminated  = 143 // SIGTERM
)

// kinds names each exit code in the JSON error line ("code") when its error
// does not name itself (as a service answer does: NOT_FOUND).
var kinds = map[int]string{
	Failure:     "FAILURE",
	Usage:       "USAGE",
	Auth:        "UNAUTHENTICATED",
	NoAnswer:    "NO_ANSWER",
	Interrupted: "INTERRUPTED",
	Terminated:  "TERMINATED",
}

// statusCodes are the exit codes of the HTTP statuses that have their own;
// a 5xx is Service, any other status Failure.
var statusCodes = map[int]int{
	http.StatusUnauthorized:        Auth,
	http.StatusForbidden:           Permission,
	http.StatusNotFound:            NotFound,
	http.StatusBadRequest:          Rejected,
	http.StatusConflict:            Rejected,
	http.StatusPreconditionFailed:  Rejected,
	http.StatusUnprocessableEntity: Rejected,
	http.StatusTooManyRequests:     Service,
}

// ForStatus maps the HTTP status of a service answer to its exit code.
func ForStatus(status int) int {
	if status >= 500 && status <= 599 {
		return Service
	}
	return cmp.Or(statusCodes[status], Failure)
}

// Coder is an error that knows its exit code, as the errors of the client,
// the configuration and the inputs do. An error may also name its kind for
// the JSON error line with an ExitKind method, and offer a hint with an
// ErrorHint method. Wrap another program's errors that have an ExitCode
// method of their own (gojq's) with %v, not %w.
type Coder interface {
	error
	ExitCode() int
}

// Answer is an error the service sent: the JSON error line gives its HTTP
// status, its message and its details as they came.
type Answer interface {
	Answer() (status int, message string, details []json.RawMessage)
}

// WithCode returns err with the exit code code, and kind as its name in the
// JSON error line ("" for the code's usual name): for a usage error, or a
// refusal dbgov finds itself (a catalog object not found: 5).
func WithCode(err error, code int, kind string) error { return &codeError{err, code, kind} }

// codeError is an error with an exit code of its own and its kind.
type codeError struct {
	err  error
	code int
	kind string
}

func (e *codeError) Error() string    { return e.err.Error() }
func (e *codeError) Unwrap() error    { return e.err }
func (e *codeError) ExitCode() int    { return e.code }
func (e *codeError) ExitKind() string { return e.kind }

// NewUsage marks err as a usage error: a bad flag, argument or input.
func NewUsage(err error) error {
	if err == nil {
		return nil
	}
	return WithCode(err, Usage, "")
}

// Usagef builds a usage error from a format.
func Usagef(format string, args ...any) error { return NewUsage(fmt.Errorf(format, args...)) }

// The causes a signal gives the cancelled context of a run.
var (
	ErrInterrupted = fmt.Errorf("interrupted: %w", context.Canceled)
	ErrTerminated  = fmt.Errorf("terminated: %w", context.Canceled)
)

// Signalled returns the error of a run that a signal cancelled with cause:
// ErrTerminated when cause is SIGTERM (ErrTerminated itself, or the cause
// signal.NotifyContext gives), else ErrInterrupted.
func Signalled(cause error) error {
	if errors.Is(cause, ErrTerminated) || cause != nil && cause.Error() == syscall.SIGTERM.String()+" signal received" {
		return ErrTerminated
	}
	return ErrInterrupted
}

// SilentError ends dbgov with Code and prints nothing but Message, when
// set: the outcome was already reported on stdout (schema diff --exit-code,
// the results of many databases and their summary).
type SilentError struct {
	Code    int
	Message string
}

// Error names the exit status; it is never printed.
func (e *SilentError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// IncompleteError is a failure after part of the work was done. Its lines
// say what was done and what was not; they follow the error's own line as
// notes, and in the JSON form Detail goes under "incomplete".
type IncompleteError struct {
	Err    error
	Lines  []string
	Detail any
}

// Error returns the message of the failure that stopped the work.
func (e *IncompleteError) Error() string { return e.Err.Error() }

// Unwrap returns the failure that stopped the work.
func (e *IncompleteError) Unwrap() error { return e.Err }

// InvalidError is a usage error with a message of its own. errors.Is matches
// it to Kind, the sentinel of the package that made it (config.ErrInvalid,
// say), and it unwraps to Cause, when set.
type InvalidError struct {
	Kind  error
	Msg   string
	Cause error
}

func (e *InvalidError) Error() string        { return e.Msg }
func (e *InvalidError) Unwrap() error        { return e.Cause }
func (e *InvalidError) Is(target error) bool { return target == e.Kind }
func (e *InvalidError) ExitCode() int        { return Usage }

// WithHint gives err a hint of the command's own, in place of the general one.
func WithHint(err error, hint string) error { return &hintError{err, hint} }

// hintError is an error with the hint WithHint gave it.
type hintError struct {
	error
	hint string
}

func (e *hintError) Unwrap() error     { return e.error }
func (e *hintError) ErrorHint() string { return e.hint }

// Report is what an error comes to: the exit code, the message, a hint; as
// a JSON error line (ErrorJSON) also the service's answer and what was left
// incomplete.
type Report struct {
	HTTPStatus int               `json:"httpStatus,omitempty"`
	Kind       string            `json:"code"` // the gRPC code name for service errors
	Message    string            `json:"message"`
	Details    []json.RawMessage `json:"details,omitempty"`
	Hint       string            `json:"hint,omitempty"`
	Code       int               `json:"exitCode"`
	Incomplete any               `json:"incomplete,omitempty"`
	Answer     Answer            `json:"-"` // the service's answer, when the error is one
}

// Classify maps err to its exit code, message and hint.
func Classify(err error) Report {
	r := Report{Code: Failure, Message: err.Error()}
	var silent *SilentError
	var coded Coder
	switch {
	case errors.As(err, &silent):
		r.Code, r.Message, r.Kind = silent.Code, silent.Message, "EXIT"
	case errors.Is(err, ErrTerminated):
		r.Code, r.Message = Terminated, "terminated"
	case errors.Is(err, context.Canceled):
		r.Code, r.Message = Interrupted, "interrupted"
	case errors.As(err, &coded):
		r.Code = coded.ExitCode()
		if k, ok := coded.(interface{ ExitKind() string }); ok {
			r.Kind = k.ExitKind()
		}
		r.Answer, _ = coded.(Answer)
	}
	if r.Kind == "" {
		r.Kind = kinds[r.Code]
	}
	r.Hint = hint(err, r)
	return r
}

// hint returns the hint of r, the report of err: the command's or the
// error's own (an ErrorHint method), else a general one for its exit code;
// none for a signal or differences found.
func hint(err error, r Report) string {
	var hinted interface{ ErrorHint() string }
	switch {
	case r.Code == Interrupted || r.Code == Terminated || r.Code == Differences:
	case errors.As(err, &hinted):
		return hinted.ErrorHint()
	case r.Code == Auth && r.Answer == nil:
		return "log in with `dbgov auth login`, or pass --token or set DBGOV_TOKEN, or give --service-account and --service-key"
	case r.Code == Auth:
		if _, msg, _ := r.Answer.Answer(); strings.Contains(strings.ToLower(msg), "expired") {
			return "the token has expired: log in again with `dbgov auth login`, or give a new token"
		}
		return "check the credentials (`dbgov auth status` shows which are used): --token, DBGOV_TOKEN, or `dbgov auth login`; a service account logs in with --service-account and --service-key"
	case r.Code == Permission && r.Answer != nil:
		return "the credentials are valid but lack the permission this needs"
	}
	return ""
}

// Write reports err on w (stderr) as the contract says, one line of text
// (the error red and the hint dim when colour) or, when asJSON, one line of
// JSON, with what scrub masks masked, and returns the exit code.
func Write(w io.Writer, err error, asJSON, colour bool, scrub *secret.Scrubber) int {
	if err == nil {
		return OK
	}
	r := Classify(err)
	if r.Message == "" {
		return r.Code
	}
	if asJSON {
		obj, _ := ErrorJSON(err)
		line, merr := json.Marshal(map[string]any{"error": obj})
		if merr == nil {
			// C1 controls and format characters as JSON escapes: the same
			// JSON, which cannot drive a terminal.
			fmt.Fprintf(w, "%s\n", textsafe.JSON(scrub.String(string(line))))
			return r.Code
		}
	}
	msg := textsafe.Lines(scrub.String(r.Message))
	if r.Answer != nil {
		// The service's message is text from elsewhere: every control
		// character, line breaks included, is shown escaped.
		msg = textsafe.Line(scrub.String(r.Message))
	}
	fmt.Fprintln(w, paint(colour, "31", "dbgov: "+msg))
	if r.Hint != "" {
		fmt.Fprintln(w, paint(colour, "2", "hint: "+scrub.String(r.Hint)))
	}
	var incomplete *IncompleteError
	if errors.As(err, &incomplete) {
		for _, l := range incomplete.Lines {
			fmt.Fprintf(w, "note: %s\n", textsafe.Lines(scrub.String(l)))
		}
	}
	return r.Code
}

// paint returns text in the SGR style when on: errors red (31), hints dim (2).
func paint(on bool, style, text string) string {
	if !on {
		return text
	}
	return "\x1b[" + style + "m" + text + "\x1b[0m"
}

// ErrorJSON returns the object of the JSON error line that Write prints for
// err, and err's exit code.
func ErrorJSON(err error) (any, int) {
	r := Classify(err)
	var incomplete *IncompleteError
	if errors.As(err, &incomplete) {
		r.Incomplete = incomplete.Detail
	}
	if r.Answer != nil {
		r.HTTPStatus, r.Message, r.Details = r.Answer.Answer()
	}
	return r, r.Code
}
