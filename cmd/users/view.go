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

// rowsAnswer is a users:batchGet answer decoded into the fields of the
// table only.
type rowsAnswer struct {
	Users []userRow `json:"users"`
}

// namesAnswer is a users:batchGet answer decoded into the names alone.
type namesAnswer struct {
	Users []struct {
		Name string `json:"name"`
	} `json:"users"`
}

// userNames lists the names of users, for -o name.
func userNames(users []userRow) []string {
	names := make([]string, len(users))
	for i := range users {
		names[i] = users[i].Name
	}
	return names
}

// decodeAnswer decodes body, the JSON object answering r, into out.
func decodeAnswer(r *client.Request, body []byte, out any) error {
	if err := json.Unmarshal(body, out); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			err = fmt.Errorf("field %s holds a JSON %s", typeErr.Field, typeErr.Value)
		}
		return fmt.Errorf("invalid response to %s %s: %w", r.Method, r.Path, err)
	}
	return nil
}
