// Package exitcode turns any error dbgov meets into the contract's exit code
// and the one line (or one JSON object) that reports it. The exit-code table
// lives here and nowhere else.
package exitcode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/secret"
	"github.com/dbgov/dbgov/internal/textsafe"
	"github.com/dbgov/dbgov/output"
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

// The causes a signal gives the cancelled context of a run.
var (
	ErrInterrupted = fmt.Errorf("interrupted: %w", context.Canceled)
	ErrTerminated  = fmt.Errorf("terminated: %w", context.Canceled)
)

// UsageError marks an error as the user's: a bad flag, argument or input.
type UsageError struct{ Err error }

// Error returns the message of the wrapped error.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *UsageError) Unwrap() error { return e.Err }

// NewUsage marks err as a usage error.
func NewUsage(err error) error {
	if err == nil {
		return nil
	}
	return &UsageError{Err: err}
}

// Usagef builds a usage error from a format.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
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

// WithCode gives err an exit code of its own, and kind, its code name in the
// JSON form: a refusal dbgov finds itself (a catalog object not found: 5).
func WithCode(err error, code int, kind string) error { return &codeError{err, code, kind} }

type codeError struct {
	error
	code int
	kind string
}

func (e *codeError) Unwrap() error { return e.error }

// WithHint gives err a hint of the command's own, in place of the general one.
func WithHint(err error, hint string) error { return &hintError{err, hint} }

type hintError struct {
	error
	hint string
}

func (e *hintError) Unwrap() error { return e.error }

// Report is what an error comes to: the exit code, the message, a hint.
type Report struct {
	Code    int
	Message string
	Hint    string
	Kind    string // the code name of the JSON form: the gRPC code name for service errors
	API     *client.APIError
}

// Classify maps err to its exit code, message and hint.
func Classify(err error) Report {
	r := Report{Code: Failure, Message: err.Error(), Kind: "FAILURE"}
	var (
		silent    *SilentError
		coded     *codeError
		usage     *UsageError
		api       *client.APIError
		transport *client.TransportError
		invalid   *client.InvalidResponseError
	)
	switch {
	case errors.As(err, &silent):
		r.Code, r.Message, r.Kind = silent.Code, silent.Message, "EXIT"
	case errors.As(err, &coded):
		r.Code, r.Kind = coded.code, coded.kind
	case errors.Is(err, ErrTerminated):
		r.Code, r.Message, r.Kind = Terminated, "terminated", "TERMINATED"
	case errors.Is(err, context.Canceled):
		r.Code, r.Message, r.Kind = Interrupted, "interrupted", "INTERRUPTED"
	case errors.As(err, &api):
		r.API = api
		r.Kind = api.CodeName
		r.Code = forStatus(api.HTTPStatus)
		switch r.Code {
		case Auth:
			r.Hint = "check the credentials (`dbgov auth status` shows which are used): --token, DBGOV_TOKEN, or `dbgov auth login`; a service account logs in with --service-account and --service-key"
			if strings.Contains(strings.ToLower(api.Message), "expired") {
				r.Hint = "the token has expired: log in again with `dbgov auth login`, or give a new token"
			}
		case Permission:
			r.Hint = "the credentials are valid but lack the permission this needs"
		}
	case errors.As(err, &transport):
		r.Code, r.Kind, r.Hint = NoAnswer, "NO_ANSWER", transport.Hint
	case errors.As(err, &invalid):
		r.Code, r.Kind = Failure, "INVALID_RESPONSE"
	case errors.Is(err, client.ErrNoCredentials):
		r.Code, r.Kind = Auth, "UNAUTHENTICATED"
		r.Hint = "log in with `dbgov auth login`, or pass --token or set DBGOV_TOKEN, or give --service-account and --service-key"
	case errors.As(err, &usage), errors.Is(err, client.ErrInvalidName), errors.Is(err, client.ErrInvalidRequest),
		errors.Is(err, client.ErrInvalidOptions), errors.Is(err, config.ErrInvalid),
		errors.Is(err, input.ErrInvalid), errors.Is(err, output.ErrInvalidOptions):
		r.Code, r.Kind = Usage, "USAGE"
	}
	if errors.As(err, new(output.FilterError)) && !errors.Is(err, context.Canceled) {
		r.Hint = "--jq and --template run on the document -o json prints; `dbgov help formatting` describes them"
	}
	var hinted *hintError
	if errors.As(err, &hinted) {
		r.Hint = hinted.hint
	}
	return r
}

// forStatus maps an HTTP status to the exit code of a service answer.
func forStatus(status int) int {
	switch {
	case status == http.StatusUnauthorized:
		return Auth
	case status == http.StatusForbidden:
		return Permission
	case status == http.StatusNotFound:
		return NotFound
	case status == http.StatusBadRequest, status == http.StatusConflict,
		status == http.StatusPreconditionFailed, status == http.StatusUnprocessableEntity:
		return Rejected
	case status == http.StatusTooManyRequests, status >= 500 && status <= 599:
		return Service
	}
	return Failure
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
	if r.API != nil {
		// The service's message is text from elsewhere: every control
		// character, line breaks included, is shown escaped.
		msg = textsafe.Line(scrub.String(r.Message))
	}
	fmt.Fprintln(w, output.Paint(colour, output.Red, "dbgov: "+msg))
	if r.Hint != "" {
		fmt.Fprintln(w, output.Paint(colour, output.Dim, "hint: "+scrub.String(r.Hint)))
	}
	var incomplete *IncompleteError
	if errors.As(err, &incomplete) {
		for _, l := range incomplete.Lines {
			fmt.Fprintf(w, "note: %s\n", textsafe.Lines(scrub.String(l)))
		}
	}
	return r.Code
}

// ErrorJSON is the object of the JSON error line Write prints for err, and
// err's exit code.
func ErrorJSON(err error) (any, int) {
	type body struct {
		HTTPStatus int               `json:"httpStatus,omitempty"`
		Code       string            `json:"code"`
		Message    string            `json:"message"`
		Details    []json.RawMessage `json:"details,omitempty"`
		Hint       string            `json:"hint,omitempty"`
		ExitCode   int               `json:"exitCode"`
		Incomplete any               `json:"incomplete,omitempty"`
	}
	r := Classify(err)
	b := body{Code: r.Kind, Message: r.Message, Hint: r.Hint, ExitCode: r.Code}
	var incomplete *IncompleteError
	if errors.As(err, &incomplete) {
		b.Incomplete = incomplete.Detail
	}
	if r.API != nil {
		b.HTTPStatus, b.Message, b.Details = r.API.HTTPStatus, r.API.Message, r.API.Details
	}
	return b, r.Code
}
