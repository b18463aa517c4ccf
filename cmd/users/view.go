package users

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/output"
)

// userRow holds the fields of a user that its table shows, and only those:
// decoding a large answer into it skips the rest (profiles, workload
// configurations, secrets) without allocating for them. Secret fields have
// no column, so a table never shows them. On a terminal, the name shown is
// the email, so EMAIL goes first when the table is too wide.
type userRow struct {
	Name       string           `json:"name"`
	Email      string           `json:"email"`
	Title      string           `json:"title"`
	UserType   client.UserType  `json:"userType"`
	State      client.UserState `json:"state"`
	MfaEnabled bool             `json:"mfaEnabled"`
	Groups     []string         `json:"groups"`
}

// userList is how users print, their names relative to userCollection.
var userList = output.List[userRow]{
	Columns: []output.Column[userRow]{
		{Header: "NAME", Kind: output.Name, MinWidth: 20, Value: func(u *userRow) string { return u.Name }},
		{Header: "EMAIL", Priority: 5, Value: func(u *userRow) string { return u.Email }},
		{Header: "TITLE", Priority: 2, MinWidth: 10, Value: func(u *userRow) string { return u.Title }},
		{Header: "TYPE", Priority: 3, Value: func(u *userRow) string { return string(cmp.Or(u.UserType, client.AccountType(u.Email))) }},
		{Header: "STATE", Priority: 1, Value: func(u *userRow) string { return string(u.State) }},
		{Header: "MFA", Priority: 1, Value: func(u *userRow) string { return strconv.FormatBool(u.MfaEnabled) }},
		{Header: "GROUPS", Priority: 4, MinWidth: 15, Value: func(u *userRow) string { return strings.Join(u.Groups, ", ") }},
	},
	Name: func(u *userRow) string { return u.Name },
}

// userCollection is where users are named.
const userCollection = "users/"

// userRows is a users:batchGet answer decoded into the table's fields only.
type userRows struct {
	Users []userRow `json:"users"`
}

// userNames is a users:batchGet answer decoded into the names alone.
type userNames struct {
	Users []struct {
		Name string `json:"name"`
	} `json:"users"`
}
