package client

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/jsondoc"
	"github.com/dbgov/dbgov/internal/secret"
)

// ErrNoCredentials is wrapped by the error of a request that needs credentials
// when neither a token nor a service account with its key was given; nothing
// was sent.
var ErrNoCredentials = exitcode.WithCode(errors.New("no credentials"), exitcode.Auth, "")

// ErrInvalidRequest is wrapped by the error of a request that is refused before
// anything is sent (other than for a bad name, see ErrInvalidName): an empty
// batch, an unknown enum value, a path outside /v1.
var ErrInvalidRequest = exitcode.NewUsage(errors.New("invalid request"))

// ErrInvalidOptions is wrapped by the errors of New: no or a malformed base
// URL, an unreadable CA bundle, a malformed header.
var ErrInvalidOptions = exitcode.NewUsage(errors.New("invalid client options"))

// APIError is a non-2xx answer of the service. Code and CodeName are the gRPC
// code of the error body, or derived from the HTTP status when the body is not
// the service's error (a proxy's HTML page, say).
type APIError struct {
	// HTTPStatus is the status code of the answer.
	HTTPStatus int
	// Code is the gRPC code, such as 5 for NOT_FOUND.
	Code int
	// CodeName is the name of Code, such as NOT_FOUND.
	CodeName string
	// Message says what went wrong, credentials removed.
	Message string
	// Details are the details of the error body, credentials removed.
	Details []json.RawMessage
}

// Error returns "<message> (HTTP <status> <CODE_NAME>)".
func (e *APIError) Error() string {
	return e.Message + " (HTTP " + strconv.Itoa(e.HTTPStatus) + " " + e.CodeName + ")"
}

// ExitCode is the exit code of the answer's HTTP status.
func (e *APIError) ExitCode() int { return exitcode.ForStatus(e.HTTPStatus) }

// ExitKind is the gRPC code name, which the JSON error line shows.
func (e *APIError) ExitKind() string { return e.CodeName }

// Answer returns the answer as the JSON error line shows it.
func (e *APIError) Answer() (int, string, []json.RawMessage) {
	return e.HTTPStatus, e.Message, e.Details
}

// InvalidResponseError is an answer that cannot be taken: a 2xx body that is
// not the expected JSON, a redirect not followed, an answer too large.
type InvalidResponseError struct {
	// Method is the method of the request answered, "" when the answer is
	// refused whatever the request was.
	Method string
	// Path is the escaped path of the request answered.
	Path string
	// HTTPStatus is the status code of the answer.
	HTTPStatus int
	// ContentType is the Content-Type header of the answer.
	ContentType string
	// Err says what is wrong with the body.
	Err error
}

// Error returns a message starting with "invalid response".
func (e *InvalidResponseError) Error() string {
	if e.Method == "" {
		return "invalid response: " + e.Err.Error()
	}
	return fmt.Sprintf("invalid response to %s %s (HTTP %d, %s): %v", e.Method, e.Path, e.HTTPStatus, describeContentType(e.ContentType), e.Err)
}

// Unwrap returns the decoding error.
func (e *InvalidResponseError) Unwrap() error { return e.Err }

// ExitCode is 1, a failure, whatever the answer held.
func (e *InvalidResponseError) ExitCode() int { return exitcode.Failure }

// ExitKind names an invalid response in the JSON error line.
func (e *InvalidResponseError) ExitKind() string { return "INVALID_RESPONSE" }

// TransportError is a request that got no answer: the connection was refused,
// the host did not resolve, TLS failed or the attempt timed out.
type TransportError struct {
	// Message is a short account of what failed.
	Message string
	// Hint, when not empty, says how to fix it.
	Hint string
	// Timeout reports whether the attempt ran out of time.
	Timeout bool
	// SentNothing reports that the request never left: the connection could
	// not be made (refused, no such host), so the service cannot have acted
	// on it.
	SentNothing bool
	// Err is the underlying error.
	Err error
	// retry tells whether another attempt may get an answer.
	retry bool
}

// Error returns the short message.
func (e *TransportError) Error() string { return e.Message }

// Unwrap returns the underlying error.
func (e *TransportError) Unwrap() error { return e.Err }

// ExitCode is 8: no answer.
func (e *TransportError) ExitCode() int { return exitcode.NoAnswer }

// ErrorHint returns Hint, for the report of the error.
func (e *TransportError) ErrorHint() string { return e.Hint }

// codeNames are the names of the gRPC codes, indexed by number.
var codeNames = [...]string{
	"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
	"NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
	"FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
	"INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
}

// CodeName returns the name of a gRPC code, or CODE_<n> for a number it does not know.
func CodeName(code int) string {
	if code >= 0 && code < len(codeNames) {
		return codeNames[code]
	}
	return "CODE_" + strconv.Itoa(code)
}

// statusCodes are the gRPC codes of HTTP statuses: the service's mapping
// from gRPC code to HTTP status read backwards.
var statusCodes = map[int]int{400: 3, 401: 16, 403: 7, 404: 5, 409: 6, 429: 8, 499: 1, 500: 13, 501: 12, 502: 14, 503: 14, 504: 4}

// errorBody is the service's error body, each field kept raw so that one field
// of an unexpected type does not hide the others.
type errorBody struct {
	Code    json.RawMessage `json:"code"`
	Message json.RawMessage `json:"message"`
	Details json.RawMessage `json:"details"`
}

// parseErrorBody turns a non-2xx answer into an APIError. It never fails: a
// body that is not the service's error yields a message naming the status and
// the content type, never the body's text.
func parseErrorBody(status int, contentType string, body []byte) *APIError {
	var raw errorBody
	var code int
	var hasCode bool
	var msg string
	if trimmed := bytes.TrimSpace(body); len(trimmed) > 0 && trimmed[0] == '{' && jsondoc.CheckDepth(trimmed) == nil && json.Unmarshal(trimmed, &raw) == nil {
		code, hasCode = parseCode(raw.Code)
		if len(raw.Message) > 0 && json.Unmarshal(raw.Message, &msg) == nil {
			msg = strings.TrimSpace(msg)
		}
	}
	var details []json.RawMessage
	if (hasCode || msg != "") && json.Unmarshal(raw.Details, &details) != nil {
		details = nil // the service's error, but details not a list
	}
	switch {
	case !hasCode && msg == "":
		msg = describeOddBody(status, contentType, body)
	case msg == "":
		msg = "service answered " + statusText(status) + " without a message"
	}
	if !hasCode || code == 0 {
		code = cmp.Or(statusCodes[status], 2) // UNKNOWN for any other status
	}
	return &APIError{HTTPStatus: status, Code: code, CodeName: CodeName(code), Message: msg, Details: details}
}

// parseCode reads a JSON integer code.
func parseCode(raw json.RawMessage) (int, bool) {
	var n json.Number
	if len(raw) == 0 || json.Unmarshal(raw, &n) != nil {
		return 0, false
	}
	code, err := strconv.ParseInt(n.String(), 10, 32)
	return int(code), err == nil
}

// describeOddBody says what the service answered instead of an error body.
func describeOddBody(status int, contentType string, body []byte) string {
	what := "service answered " + statusText(status)
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return what + " with an empty body"
	}
	media := mediaType(contentType)
	if media == "" {
		media = mediaType(http.DetectContentType(body))
	}
	switch {
	case media == "text/html" || media == "application/xhtml+xml":
		return what + " with a " + media + " page instead of an error body"
	case media == "application/json" || strings.HasSuffix(media, "+json") || trimmed[0] == '{' || trimmed[0] == '[':
		if !json.Valid(trimmed) {
			return what + " with a malformed JSON body (" + describeContentType(contentType) + ") instead of an error body"
		}
		return what + " with JSON that is not an error body (" + describeContentType(contentType) + ")"
	}
	return what + " with " + media + " content instead of an error body"
}

// statusText returns "502 Bad Gateway", or "HTTP 599" for a status without a text.
func statusText(status int) string {
	if t := http.StatusText(status); t != "" {
		return strconv.Itoa(status) + " " + t
	}
	return "HTTP " + strconv.Itoa(status)
}

// describeContentType names a content type for a message.
func describeContentType(contentType string) string {
	if m := mediaType(contentType); m != "" {
		return "content type " + m
	}
	return "no content type"
}

// mediaType returns the media type of a Content-Type header, lower case and
// without parameters, or "" when there is none worth showing.
func mediaType(contentType string) string {
	m, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		m, _, _ = strings.Cut(contentType, ";")
		m = strings.ToLower(strings.TrimSpace(m))
	}
	odd := func(r rune) bool {
		return r > unicode.MaxASCII || !(r == '/' || r == '.' || r == '+' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r))
	}
	if len(m) > 100 || strings.IndexFunc(m, odd) >= 0 {
		return "unrecognized"
	}
	return m
}

// maxMessage is the length from which the service's message is cut.
const maxMessage = 2 << 10

// cleanAPIError keeps credentials out of an error the service sent (those
// the client knows, which the service may echo, and the values of secret
// fields quoted in its message or details) and cuts a long message.
func (c *Client) cleanAPIError(e *APIError) {
	if e.Message = c.secrets.String(e.Message); len(e.Message) > maxMessage {
		cut := maxMessage
		for !utf8.RuneStart(e.Message[cut]) {
			cut--
		}
		e.Message = e.Message[:cut] + "…"
	}
	for i, d := range e.Details {
		if e.Details[i] = json.RawMessage(c.secrets.String(string(d))); !json.Valid(e.Details[i]) {
			e.Details[i] = json.RawMessage(`"` + secret.Mask + `"`)
		}
	}
}
