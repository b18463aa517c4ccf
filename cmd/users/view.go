package users

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/output"
)

// userRow holds the fields of a user that its table shows, and only those:
// decoding a large answer into it skips the rest (profiles, workload
// configurations, secrets) without allocating for them. Secret fields have
// no column, so a table never shows them.
type userRow struct {
	Name       string           `json:"name"`
	Email      string           `json:"email"`
	Title      string           `json:"title"`
	UserType   client.UserType  `json:"userType"`
	State      client.UserState `json:"state"`
	MfaEnabled bool             `json:"mfaEnabled"`
	Groups     []string         `json:"groups"`
}

// userColumns is the table of users.
var userColumns = []output.Column[*userRow]{
	{Header: "NAME", Value: func(u *userRow) string { return u.Name }},
	{Header: "EMAIL", Value: func(u *userRow) string { return u.Email }},
	{Header: "TITLE", Value: func(u *userRow) string { return u.Title }},
	{Header: "TYPE", Value: func(u *userRow) string { return string(u.UserType) }},
	{Header: "STATE", Value: func(u *userRow) string { return string(u.State) }},
	{Header: "MFA", Value: func(u *userRow) string { return strconv.FormatBool(u.MfaEnabled) }},
	{Header: "GROUPS", Value: func(u *userRow) string { return strings.Join(u.Groups, ", ") }},
}

// rowOf is the row of one user.
func rowOf(u *client.User) *userRow {
	return &userRow{Name: u.Name, Email: u.Email, Title: u.Title, UserType: u.UserType,
		State: u.State, MfaEnabled: u.MfaEnabled, Groups: u.Groups}
}

// usersTable is the table of rows, one each. It points into rows rather
// than copying each row once per column.
func usersTable(rows []userRow) output.Table {
	ptrs := make([]*userRow, len(rows))
	for i := range rows {
		ptrs[i] = &rows[i]
	}
	return output.TableOf(ptrs, userColumns)
}

// errNotObject is the fault of an answer that is not a JSON object.
var errNotObject = errors.New("the body is not a JSON object")

// invalidAnswer reports an answer to r that is not what the operation
// returns.
func invalidAnswer(r *client.Request, err error) error {
	return fmt.Errorf("invalid response to %s %s: %w", r.Method, r.Path, err)
}

// isObject reports whether the JSON text body is an object.
func isObject(body []byte) bool {
	for _, b := range body {
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return b == '{'
	}
	return false
}

// decodeAnswer decodes body, the JSON object answering r, into out.
func decodeAnswer(r *client.Request, body []byte, out any) error {
	if err := json.Unmarshal(body, out); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			err = fmt.Errorf("field %s holds a JSON %s, expected %s", typeErr.Field, typeErr.Value, typeErr.Type)
		}
		return invalidAnswer(r, err)
	}
	return nil
}
