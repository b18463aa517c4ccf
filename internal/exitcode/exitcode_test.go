package exitcode_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/config"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/secret"
	"github.com/dbgov/dbgov/output"
)

func apiErr(status int, name string) error {
	return fmt.Errorf("get thing: %w", &client.APIError{HTTPStatus: status, CodeName: name, Message: "the service says no"})
}

func TestClassify_followsTheContractTable(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"plain error", errors.New("boom"), exitcode.Failure},
		{"usage", exitcode.Usagef("bad flag"), exitcode.Usage},
		{"invalid name", fmt.Errorf("x: %w", client.ErrInvalidName), exitcode.Usage},
		{"invalid request", fmt.Errorf("x: %w", client.ErrInvalidRequest), exitcode.Usage},
		{"invalid config", fmt.Errorf("x: %w", config.ErrInvalid), exitcode.Usage},
		{"invalid input", fmt.Errorf("x: %w", input.ErrInvalid), exitcode.Usage},
		{"invalid output options", fmt.Errorf("x: %w", output.ErrInvalidOptions), exitcode.Usage},
		{"no credentials", fmt.Errorf("x: %w", client.ErrNoCredentials), exitcode.Auth},
		{"401", apiErr(401, "UNAUTHENTICATED"), exitcode.Auth},
		{"403", apiErr(403, "PERMISSION_DENIED"), exitcode.Permission},
		{"404", apiErr(404, "NOT_FOUND"), exitcode.NotFound},
		{"400", apiErr(400, "INVALID_ARGUMENT"), exitcode.Rejected},
		{"409", apiErr(409, "ALREADY_EXISTS"), exitcode.Rejected},
		{"412", apiErr(412, "FAILED_PRECONDITION"), exitcode.Rejected},
		{"422", apiErr(422, "INVALID_ARGUMENT"), exitcode.Rejected},
		{"429", apiErr(429, "RESOURCE_EXHAUSTED"), exitcode.Service},
		{"500", apiErr(500, "INTERNAL"), exitcode.Service},
		{"502", apiErr(502, "UNAVAILABLE"), exitcode.Service},
		{"503", apiErr(503, "UNAVAILABLE"), exitcode.Service},
		{"501", apiErr(501, "UNIMPLEMENTED"), exitcode.Service},
		{"405", apiErr(405, "UNKNOWN"), exitcode.Failure},
		{"a status beyond 5xx is no service failure", apiErr(600, "UNKNOWN"), exitcode.Failure},
		{"999", apiErr(999, "UNKNOWN"), exitcode.Failure},
		{"no answer", &client.TransportError{Message: "connection refused"}, exitcode.NoAnswer},
		{"invalid response", &client.InvalidResponseError{HTTPStatus: 200, Err: errors.New("truncated")}, exitcode.Failure},
		{"differences", &exitcode.SilentError{Code: exitcode.Differences}, exitcode.Differences},
		{"interrupted", fmt.Errorf("list: %w", context.Canceled), exitcode.Interrupted},
		{"interrupted wins over the request's error", errors.Join(context.Canceled, apiErr(503, "UNAVAILABLE")), exitcode.Interrupted},
		{"SIGINT", errors.Join(exitcode.ErrInterrupted, errors.New("get: context canceled")), exitcode.Interrupted},
		{"SIGTERM", errors.Join(exitcode.ErrTerminated, fmt.Errorf("get: %w", context.Canceled)), exitcode.Terminated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exitcode.Classify(tt.err).Code; got != tt.want {
				t.Fatalf("Classify(%v) = %d, want %d", tt.err, got, tt.want)
			}
		})
	}
}

func TestWrite_text(t *testing.T) {
	var buf bytes.Buffer
	code := exitcode.Write(&buf, apiErr(404, "NOT_FOUND"), false, false, nil)
	want := "dbgov: get thing: the service says no (HTTP 404 NOT_FOUND)\n"
	if code != exitcode.NotFound || buf.String() != want {
		t.Fatalf("Write = %d %q, want %d %q", code, buf.String(), exitcode.NotFound, want)
	}
}

func TestWrite_hintOnItsOwnLine(t *testing.T) {
	var buf bytes.Buffer
	exitcode.Write(&buf, apiErr(401, "UNAUTHENTICATED"), false, false, nil)
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	if len(lines) != 2 || !bytes.HasPrefix(lines[1], []byte("hint: ")) {
		t.Fatalf("got %q, want an error line and a hint line", buf.String())
	}
}

func TestWrite_jsonIsOneLine(t *testing.T) {
	var buf bytes.Buffer
	err := fmt.Errorf("get: %w", &client.APIError{HTTPStatus: 404, CodeName: "NOT_FOUND", Message: "nope",
		Details: []json.RawMessage{json.RawMessage(`{"@type":"x"}`)}})
	if code := exitcode.Write(&buf, err, true, false, nil); code != exitcode.NotFound {
		t.Fatalf("code %d", code)
	}
	want := `{"error":{"httpStatus":404,"code":"NOT_FOUND","message":"nope","details":[{"@type":"x"}],"exitCode":5}}` + "\n"
	if buf.String() != want {
		t.Fatalf("got %s want %s", buf.String(), want)
	}
	buf.Reset()
	exitcode.Write(&buf, exitcode.Usagef("bad flag"), true, false, nil)
	want = `{"error":{"code":"USAGE","message":"bad flag","exitCode":2}}` + "\n"
	if buf.String() != want {
		t.Fatalf("got %s want %s", buf.String(), want)
	}
}

func TestWrite_silentPrintsNothing(t *testing.T) {
	var buf bytes.Buffer
	if code := exitcode.Write(&buf, &exitcode.SilentError{Code: exitcode.Differences}, false, false, nil); code != exitcode.Differences || buf.Len() != 0 {
		t.Fatalf("Write = %d %q", code, buf.String())
	}
}

func TestWrite_escapesControlCharacters(t *testing.T) {
	var buf bytes.Buffer
	exitcode.Write(&buf, &client.APIError{HTTPStatus: 500, CodeName: "INTERNAL", Message: "bad \x1b]0;pwned\x07 thing"}, false, false, nil)
	if bytes.ContainsAny(buf.Bytes(), "\x1b\x07") {
		t.Fatalf("raw control characters reached stderr: %q", buf.String())
	}
}

func TestWrite_escapesWhatCouldDriveATerminal(t *testing.T) {
	const message = "bad \x1b]0;pwned\x07 \u0085 \u202e \u2066 \u2028 \u200b thing"
	for _, asJSON := range []bool{false, true} {
		var buf bytes.Buffer
		exitcode.Write(&buf, &client.APIError{HTTPStatus: 500, CodeName: "INTERNAL", Message: message}, asJSON, false, nil)
		for _, r := range buf.String() {
			if r < 0x20 && r != '\n' || r >= 0x80 && r <= 0x9f || r >= 0x2000 && r <= 0x206f {
				t.Errorf("json %t: %U reached stderr: %q", asJSON, r, buf.String())
			}
		}
		if !asJSON {
			continue
		}
		var line struct{ Error struct{ Message string } }
		if err := json.Unmarshal(buf.Bytes(), &line); err != nil || line.Error.Message != message {
			t.Errorf("the JSON line reads back as %q, %v", line.Error.Message, err)
		}
	}
}

func TestWrite_incompleteSaysWhatWasDone(t *testing.T) {
	err := &exitcode.IncompleteError{Err: apiErr(409, "ALREADY_EXISTS"), Lines: []string{"created 2 of 5 revisions"}, Detail: map[string]int{"created": 2}}
	var buf bytes.Buffer
	if code := exitcode.Write(&buf, err, false, false, nil); code != exitcode.Rejected {
		t.Fatalf("code %d", code)
	}
	want := "dbgov: get thing: the service says no (HTTP 409 ALREADY_EXISTS)\nnote: created 2 of 5 revisions\n"
	if buf.String() != want {
		t.Fatalf("got %q want %q", buf.String(), want)
	}
	buf.Reset()
	exitcode.Write(&buf, err, true, false, nil)
	want = `{"error":{"httpStatus":409,"code":"ALREADY_EXISTS","message":"the service says no","exitCode":6,"incomplete":{"created":2}}}` + "\n"
	if buf.String() != want {
		t.Fatalf("got %s want %s", buf.String(), want)
	}
}

func TestWrite_serviceMessageStaysOnOneLine(t *testing.T) {
	var buf bytes.Buffer
	exitcode.Write(&buf, fmt.Errorf("get x: %w", &client.APIError{HTTPStatus: 404, CodeName: "NOT_FOUND", Message: "no\nsecond line"}), false, false, nil)
	want := "dbgov: get x: no\\nsecond line (HTTP 404 NOT_FOUND)\n"
	if buf.String() != want {
		t.Fatalf("got %q, want %q", buf.String(), want)
	}
}

func TestWrite_commandHintReplacesTheGeneralOne(t *testing.T) {
	var buf bytes.Buffer
	code := exitcode.Write(&buf, exitcode.WithHint(apiErr(401, "UNAUTHENTICATED"), "drop --x"), false, false, nil)
	want := "dbgov: get thing: the service says no (HTTP 401 UNAUTHENTICATED)\nhint: drop --x\n"
	if code != exitcode.Auth || buf.String() != want {
		t.Fatalf("Write = %d %q, want %d %q", code, buf.String(), exitcode.Auth, want)
	}
}

func TestErrorJSON_isTheObjectOfTheErrorLine(t *testing.T) {
	for _, err := range []error{apiErr(404, "NOT_FOUND"), exitcode.Usagef("bad flag"), &exitcode.IncompleteError{Err: apiErr(409, "ALREADY_EXISTS"), Detail: map[string]int{"created": 2}}} {
		var line bytes.Buffer
		code := exitcode.Write(&line, err, true, false, nil)
		obj, objCode := exitcode.ErrorJSON(err)
		want, _ := json.Marshal(map[string]any{"error": obj})
		if objCode != code || line.String() != string(want)+"\n" {
			t.Errorf("ErrorJSON(%v) = %s, %d; Write printed %s, %d", err, want, objCode, line.String(), code)
		}
	}
}

func TestWrite_silentErrorSaysItsMessageOnly(t *testing.T) {
	var buf bytes.Buffer
	if code := exitcode.Write(&buf, &exitcode.SilentError{Code: exitcode.Differences}, false, false, nil); code != exitcode.Differences || buf.Len() != 0 {
		t.Errorf("Write = %d %q, want 9 and nothing said", code, buf.String())
	}
	if code := exitcode.Write(&buf, &exitcode.SilentError{Code: exitcode.NotFound, Message: "1 of 3 databases failed (1 not found)"}, false, false, nil); code != exitcode.NotFound ||
		buf.String() != "dbgov: 1 of 3 databases failed (1 not found)\n" {
		t.Errorf("Write = %d %q", code, buf.String())
	}
}

func TestClassify_anExpiredTokenSaysToLogInAgain(t *testing.T) {
	tests := []struct {
		name, message, want string
	}{
		{"expired", "token expired at 2025-01-01T00:00:00Z", "dbgov auth login"},
		{"expired, other words", "The access token has Expired", "log in again"},
		{"refused for another reason", "invalid token", "check the credentials"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := fmt.Errorf("get thing: %w", &client.APIError{HTTPStatus: 401, CodeName: "UNAUTHENTICATED", Message: tt.message})
			r := exitcode.Classify(err)
			if r.Code != exitcode.Auth || !strings.Contains(r.Hint, tt.want) {
				t.Errorf("Classify = exit %d, hint %q; want exit %d and a hint holding %q", r.Code, r.Hint, exitcode.Auth, tt.want)
			}
		})
	}
}

func TestWrite_errorRedHintDim(t *testing.T) {
	var b strings.Builder
	err := &client.APIError{HTTPStatus: 403, CodeName: "PERMISSION_DENIED", Message: "no"}
	if code := exitcode.Write(&b, err, false, true, nil); code != exitcode.Permission {
		t.Fatalf("code %d, want %d", code, exitcode.Permission)
	}
	if got := b.String(); !strings.HasPrefix(got, "\x1b[31mdbgov: ") || !strings.Contains(got, "\x1b[2mhint: ") {
		t.Errorf("got %q, want a red error line and a dim hint", got)
	}
	b.Reset()
	exitcode.Write(&b, err, false, false, nil)
	if strings.Contains(b.String(), "\x1b") {
		t.Errorf("colour off printed escapes: %q", b.String())
	}
}

func TestWrite_masksWhatTheScrubberKnowsWhateverTheOrigin(t *testing.T) {
	const cred = "cred-a1b2c3d4e5"
	scrub := &secret.Scrubber{}
	scrub.Add(cred)
	tests := []struct {
		name string
		err  error
	}{
		{"config error", fmt.Errorf("%w: timeout from DBGOV_TIMEOUT: %q is not a duration", config.ErrInvalid, cred)},
		{"input file quoting its content", fmt.Errorf("%w: f.json: line 1: unknown field %q", input.ErrInvalid, cred)},
		{"usage error", exitcode.Usagef("invalid name: id %q may not contain spaces", "x "+cred)},
		{"filter error", fmt.Errorf("--jq: %w", output.FilterError{Err: errors.New("cannot iterate over string (\"" + cred + "\")")})},
		{"hint", exitcode.WithHint(errors.New("refused"), "try again without "+cred)},
		{"notes of an incomplete run", &exitcode.IncompleteError{Err: errors.New("stopped"), Lines: []string{"sent with " + cred}, Detail: map[string]string{"with": cred}}},
		{"service message", &client.APIError{HTTPStatus: 400, CodeName: "INVALID_ARGUMENT", Message: "bad " + cred,
			Details: []json.RawMessage{json.RawMessage(`{"echo":"` + cred + `"}`)}}},
		{"secret field quoted", errors.New(`bad document {"password": "hunter2-not-known"}`)},
	}
	for _, tt := range tests {
		for _, asJSON := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s json=%t", tt.name, asJSON), func(t *testing.T) {
				var buf bytes.Buffer
				exitcode.Write(&buf, tt.err, asJSON, false, scrub)
				got := buf.String()
				if strings.Contains(got, cred) || strings.Contains(got, "hunter2") || !strings.Contains(got, secret.Mask) {
					t.Errorf("the credential is not masked:\n%s", got)
				}
				if asJSON && !json.Valid([]byte(got)) {
					t.Errorf("not one JSON line: %s", got)
				}
			})
		}
	}
}

func TestSignalled_namesTheSignalOfTheCause(t *testing.T) {
	tests := []struct {
		name        string
		cause, want error
	}{
		{"SIGTERM as signal.NotifyContext words it", errors.New("terminated signal received"), exitcode.ErrTerminated},
		{"SIGINT as signal.NotifyContext words it", errors.New("interrupt signal received"), exitcode.ErrInterrupted},
		{"SIGTERM's own cause", exitcode.ErrTerminated, exitcode.ErrTerminated},
		{"a cancel without a cause", context.Canceled, exitcode.ErrInterrupted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exitcode.Signalled(tt.cause); got != tt.want {
				t.Errorf("Signalled(%v) = %v, want %v", tt.cause, got, tt.want)
			}
		})
	}
}
