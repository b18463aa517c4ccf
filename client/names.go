package client

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dbgov/dbgov/internal/exitcode"
)

// ErrInvalidName is wrapped by every error about a resource name or id that
// cannot be one; such a name is refused before anything is sent.
var ErrInvalidName = exitcode.NewUsage(errors.New("invalid name"))

// Name prefixes of the resources a user names on the command line.
const (
	instancesPrefix     = "instances/"
	usersPrefix         = "users/"
	reviewConfigsPrefix = "reviewConfigs/"
)

// ValidateID reports whether id can be the id of a resource of the given kind
// (a word such as "instance" or "user" used in the message). An id must be
// valid UTF-8 and non-empty, and may not contain a control, invisible
// formatting or space character, '/', '?', '#', '%' or "..", nor be ".".
func ValidateID(kind, id string) error {
	reason := idProblem(id)
	if reason == "" {
		return nil
	}
	return fmt.Errorf("%w: %s id %q %s", ErrInvalidName, kind, id, reason)
}

// idProblem says what makes id unusable, or "" when it is a valid id.
func idProblem(id string) string {
	switch {
	case id == "":
		return "is empty"
	case !utf8.ValidString(id):
		return "is not valid UTF-8"
	case id == ".":
		return `may not be "."`
	case strings.Contains(id, ".."):
		return `may not contain ".."`
	}
	for _, r := range id {
		switch {
		case r == '/':
			return `may not contain "/"`
		case r == '?' || r == '#' || r == '%':
			return fmt.Sprintf("may not contain %q", string(r))
		case unicode.IsControl(r):
			return "may not contain control characters"
		case unicode.IsSpace(r):
			return "may not contain spaces"
		case unicode.Is(unicode.Cf, r):
			return "may not contain invisible formatting characters"
		}
	}
	return ""
}

// escapeID escapes a valid id for use as one path segment. A colon is escaped
// too, so that an id cannot be read as the ":verb" suffix of a route.
func escapeID(id string) string {
	return strings.ReplaceAll(url.PathEscape(id), ":", "%3A")
}

// DatabaseName names a database: instances/{Instance}/databases/{Database}.
type DatabaseName struct {
	// Instance is the instance id.
	Instance string
	// Database is the database id within the instance.
	Database string
}

// String returns the resource name, instances/I/databases/D.
func (d DatabaseName) String() string {
	return instancesPrefix + d.Instance + "/databases/" + d.Database
}

// CatalogName returns the name of the database's catalog,
// instances/I/databases/D/catalog.
func (d DatabaseName) CatalogName() string { return d.String() + "/catalog" }

// Validate reports whether both ids of d are valid.
func (d DatabaseName) Validate() error {
	if err := ValidateID("instance", d.Instance); err != nil {
		return err
	}
	return ValidateID("database", d.Database)
}

// path returns the escaped /v1 path of the database.
func (d DatabaseName) path() string {
	return "/v1/instances/" + escapeID(d.Instance) + "/databases/" + escapeID(d.Database)
}

// ParseDatabase reads a database given as an instance id and a database id,
// or as the full name instances/I/databases/D in database (then instance is
// empty or the same I).
func ParseDatabase(instance, database string) (DatabaseName, error) {
	if strings.Contains(database, "/") {
		d, err := parseFullDatabase(database)
		if err != nil {
			return DatabaseName{}, err
		}
		if instance != "" && instance != d.Instance {
			return DatabaseName{}, fmt.Errorf("%w: instance %q does not match database %q", ErrInvalidName, instance, database)
		}
		return d, nil
	}
	if instance == "" && database != "" {
		return DatabaseName{}, fmt.Errorf("%w: database %q needs an instance, or the full name instances/I/databases/D", ErrInvalidName, database)
	}
	d := DatabaseName{Instance: instance, Database: database}
	return d, d.Validate()
}

// parseFullDatabase reads instances/I/databases/D.
func parseFullDatabase(name string) (DatabaseName, error) {
	parts := strings.Split(name, "/")
	if len(parts) != 4 || parts[0] != "instances" || parts[2] != "databases" {
		return DatabaseName{}, fmt.Errorf("%w: database name %q is not of the form instances/I/databases/D", ErrInvalidName, name)
	}
	d := DatabaseName{Instance: parts[1], Database: parts[3]}
	return d, d.Validate()
}

// ParseUser reads a user given as an email or as users/EMAIL and returns the email.
func ParseUser(s string) (email string, err error) { return parseID("user", usersPrefix, s) }

// ParseReviewConfig reads a review configuration given as ID or reviewConfigs/ID.
func ParseReviewConfig(s string) (id string, err error) {
	return parseID("review config", reviewConfigsPrefix, s)
}

// parseID reads the id of a resource of kind given as the id or as its name,
// prefix followed by the id.
func parseID(kind, prefix, s string) (string, error) {
	id := strings.TrimPrefix(s, prefix)
	return id, ValidateID(kind, id)
}

// ParseChangelog reads a changelog of db given as its id C or as its full
// name instances/I/databases/D/changelogs/C, which must name a changelog of db.
func ParseChangelog(db DatabaseName, s string) (id string, err error) {
	if !strings.Contains(s, "/") {
		return parseID("changelog", "", s)
	}
	owner, id, err := parseFullChangelog(s)
	if err != nil {
		return "", err
	}
	if owner != db {
		return "", fmt.Errorf("%w: changelog %q is not a changelog of %s", ErrInvalidName, s, db)
	}
	return id, nil
}

// parseFullChangelog reads instances/I/databases/D/changelogs/C.
func parseFullChangelog(name string) (DatabaseName, string, error) {
	parts := strings.Split(name, "/")
	if len(parts) != 6 || parts[0] != "instances" || parts[2] != "databases" || parts[4] != "changelogs" {
		return DatabaseName{}, "", fmt.Errorf("%w: changelog name %q is not of the form instances/I/databases/D/changelogs/C", ErrInvalidName, name)
	}
	db := DatabaseName{Instance: parts[1], Database: parts[3]}
	err := db.Validate()
	if err == nil {
		err = ValidateID("changelog", parts[5])
	}
	return db, parts[5], err
}

// changelogName returns the full name of changelog id of db.
func changelogName(db DatabaseName, id string) string {
	return db.String() + "/changelogs/" + id
}

// PolicyParent is what policies are listed under.
type PolicyParent struct {
	// Database, when set, is the parent.
	Database *DatabaseName
	// Environment or Project is the parent's id; both empty: the workspace.
	Environment, Project string
	// Workspace is the workspace's id, where its policies are listed under
	// it (from 3.16); empty: /v1/policies.
	Workspace string
}

// String returns the parent's resource name, or "the workspace".
func (p PolicyParent) String() string {
	switch {
	case p.Database != nil:
		return p.Database.String()
	case p.Environment != "":
		return "environments/" + p.Environment
	case p.Project != "":
		return "projects/" + p.Project
	}
	return "the workspace"
}

// path returns the escaped /v1 path of the parent's policies.
func (p PolicyParent) path() (string, error) {
	switch {
	case p.Database != nil:
		return p.Database.path() + "/policies", p.Database.Validate()
	case p.Environment != "":
		return "/v1/environments/" + escapeID(p.Environment) + "/policies", ValidateID("environment", p.Environment)
	case p.Project != "":
		return "/v1/projects/" + escapeID(p.Project) + "/policies", ValidateID("project", p.Project)
	case p.Workspace != "":
		return "/v1/workspaces/" + escapeID(p.Workspace) + "/policies", ValidateID("workspace", p.Workspace)
	}
	return "/v1/policies", nil
}
