package devserver

import (
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dbgov/dbgov/client"
)

// seedDoc is the JSON document that fills a server's state.
type seedDoc struct {
	Tokens            []TokenInfo           `json:"tokens,omitempty"`
	ServiceAccounts   []ServiceAccountInfo  `json:"serviceAccounts,omitempty"`
	Instances         []seedInstance        `json:"instances,omitempty"`
	Policies          []seedPolicy          `json:"policies,omitempty"`
	Sheets            []seedSheet           `json:"sheets,omitempty"`
	ReviewConfigs     []client.ReviewConfig `json:"reviewConfigs,omitempty"`
	Users             []seedUser            `json:"users,omitempty"`
	IdentityProviders []json.RawMessage     `json:"identityProviders,omitempty"` // answered as given
}

type seedInstance struct {
	ID          string         `json:"id"`
	Title       string         `json:"title,omitempty"`
	Engine      client.Engine  `json:"engine,omitempty"`      // POSTGRES when absent
	Environment string         `json:"environment,omitempty"` // environments/{e}
	Databases   []seedDatabase `json:"databases,omitempty"`
}

type seedDatabase struct {
	ID         string                  `json:"id"`
	Project    string                  `json:"project,omitempty"` // projects/default when absent
	Catalog    *client.DatabaseCatalog `json:"catalog,omitempty"`
	Changelogs []seedChangelog         `json:"changelogs,omitempty"`
	Revisions  []client.Revision       `json:"revisions,omitempty"`
	Policies   []seedPolicy            `json:"policies,omitempty"`
}

type seedChangelog struct {
	ID     string `json:"id"`
	Schema string `json:"schema,omitempty"`
}

// seedUser is a user, service account or workload identity, with the
// permissions of the tokens a workload identity's exchange gives.
type seedUser struct {
	client.User
	Permissions []string `json:"permissions,omitempty"`
}

// seedPolicy is a policy with the deleted mark the service keeps beside it;
// its masking payloads, which the server only hands back, are kept as given.
type seedPolicy struct {
	client.Policy
	MaskingRulePolicy      json.RawMessage `json:"maskingRulePolicy,omitempty"`
	MaskingExemptionPolicy json.RawMessage `json:"maskingExemptionPolicy,omitempty"`
	Deleted                bool            `json:"deleted,omitempty"`
}

type seedSheet struct {
	Name      string `json:"name"`
	Statement string `json:"statement,omitempty"`
}

// state is everything the server holds; the Server's mutex guards it.
type state struct {
	tokens          map[string]*grant
	serviceAccounts map[string]ServiceAccountInfo
	instances       map[string]*instance
	databases       []*database // in the service's order: by project, then name
	sheets          map[string]string
	reviewConfigs   map[string]*client.ReviewConfig
	users           map[string]*seedUser
	userList        []*seedUser // in the order created
	uuids           bool        // changelogs and revisions have UUID ids
	idps            []json.RawMessage
	policies        []seedPolicy // of environments, projects and the workspace
}

// grant is a token, what it may do, and until when.
type grant struct {
	TokenInfo
	expires time.Time // zero: never
}

func (g *grant) expired(now time.Time) bool { return !g.expires.IsZero() && !now.Before(g.expires) }

type instance struct {
	seedInstance
	databases map[string]*database
}

type database struct {
	name, project string
	instance      *instance
	catalog       *client.DatabaseCatalog
	changelogs    []seedChangelog // oldest first
	revisions     []client.Revision
	lastID        int
	policies      []seedPolicy
}

// newState builds the server's state from a seed, checking the permissions
// it names and the names the server reads ids from (of revisions and users);
// other ids and names are taken as given, repeats included. With uuids,
// changelogs and revisions get UUID ids.
func newState(doc *seedDoc, uuids bool) (*state, error) {
	st := &state{
		tokens:          map[string]*grant{},
		serviceAccounts: map[string]ServiceAccountInfo{},
		instances:       map[string]*instance{},
		sheets:          map[string]string{},
		reviewConfigs:   map[string]*client.ReviewConfig{},
		users:           map[string]*seedUser{},
		idps:            doc.IdentityProviders,
		policies:        doc.Policies,
		uuids:           uuids,
	}
	for i, t := range doc.Tokens {
		if err := checkPermissions(t.Permissions); err != nil {
			return nil, fmt.Errorf("tokens[%d]: %w", i, err)
		}
		st.tokens[t.Token] = &grant{TokenInfo: t}
	}
	for i, a := range doc.ServiceAccounts {
		if err := checkPermissions(a.Permissions); err != nil {
			return nil, fmt.Errorf("serviceAccounts[%d]: %w", i, err)
		}
		st.serviceAccounts[a.Email] = a
	}
	for _, sh := range doc.Sheets {
		st.sheets[sh.Name] = sh.Statement
	}
	for i, inst := range doc.Instances {
		in := &instance{seedInstance: inst, databases: map[string]*database{}}
		in.Engine, in.Databases = cmp.Or(in.Engine, client.EnginePostgres), nil
		st.instances[inst.ID] = in
		for j, sd := range inst.Databases {
			if err := st.addDatabase(in, sd); err != nil {
				return nil, fmt.Errorf("instances[%d].databases[%d]: %w", i, j, err)
			}
		}
	}
	slices.SortStableFunc(st.databases, func(a, b *database) int {
		return cmp.Or(cmp.Compare(a.project, b.project), cmp.Compare(a.name, b.name))
	})
	for i := range doc.ReviewConfigs {
		rc := &doc.ReviewConfigs[i]
		st.reviewConfigs[strings.TrimPrefix(rc.Name, "reviewConfigs/")] = rc
	}
	for i := range doc.Users {
		u := &doc.Users[i]
		if err := cmp.Or(completeUser(&u.User), checkPermissions(u.Permissions)); err != nil {
			return nil, fmt.Errorf("users[%d]: %w", i, err)
		}
		st.users[u.Email] = u
		st.userList = append(st.userList, u)
	}
	return st, nil
}

// addDatabase adds a database of the seed to its instance and the state.
func (st *state) addDatabase(in *instance, sd seedDatabase) error {
	dbName := databaseName(in.ID, sd.ID)
	db := &database{name: dbName, project: cmp.Or(sd.Project, "projects/default"), instance: in, catalog: sd.Catalog}
	if db.catalog != nil {
		db.catalog.Name = dbName + "/catalog"
	}
	for _, cl := range sd.Changelogs {
		cl.ID = st.id(dbName+"/changelogs", cl.ID)
		db.changelogs = append(db.changelogs, cl)
	}
	for i, rev := range sd.Revisions {
		id, ok := strings.CutPrefix(rev.Name, dbName+"/revisions/")
		n, err := strconv.Atoi(id)
		if !ok || err != nil || n <= 0 {
			return fmt.Errorf("revisions[%d]: name %q is not of the form %s/revisions/{positive number}", i, rev.Name, dbName)
		}
		if rev.Statement == "" && rev.Sheet != "" {
			rev.Statement = st.sheets[rev.Sheet]
		}
		fillStatementFields(&rev)
		rev.Name = dbName + "/revisions/" + st.id(dbName+"/revisions", id)
		db.revisions = append(db.revisions, rev)
		db.lastID = max(db.lastID, n)
	}
	for _, p := range sd.Policies {
		p.Name = cmp.Or(p.Name, dbName+"/policies/"+strings.ToLower(string(p.Type)))
		db.policies = append(db.policies, p)
	}
	in.databases[sd.ID] = db
	st.databases = append(st.databases, db)
	return nil
}

// fillStatementFields derives the size and digest of a revision's statement.
func fillStatementFields(rev *client.Revision) {
	if rev.Statement != "" {
		rev.StatementSize = cmp.Or(rev.StatementSize, strconv.Itoa(len(rev.Statement)))
		rev.SheetSha256 = cmp.Or(rev.SheetSha256, fmt.Sprintf("%x", sha256.Sum256([]byte(rev.Statement))))
	}
}

// completeUser fills a user's name from its email or the other way round.
func completeUser(u *client.User) error {
	switch {
	case u.Name == "" && u.Email == "":
		return fmt.Errorf("name and email are both empty")
	case u.Name == "":
		u.Name = "users/" + u.Email
	case u.Email == "":
		u.Email = strings.TrimPrefix(u.Name, "users/")
	}
	return nil
}

func checkPermissions(perms []string) error {
	if i := slices.IndexFunc(perms, func(p string) bool { return !slices.Contains(Permissions(), p) }); i >= 0 {
		return fmt.Errorf("unknown permission %q (known: %s)", perms[i], strings.Join(Permissions(), ", "))
	}
	return nil
}

// id is the id of a changelog or revision numbered n in a collection: n
// itself, or with uuids a UUID made from both.
func (st *state) id(collection, n string) string {
	if _, err := strconv.Atoi(n); !st.uuids || err != nil {
		return n
	}
	h := sha256.Sum256([]byte(collection + "/" + n))
	h[6], h[8] = h[6]&0x0f|0x40, h[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// validID reports whether id can be one path segment of a resource name.
func validID(id string) bool { return id != "" && !strings.Contains(id, "/") }

func validSheetName(name string) bool {
	parts := strings.Split(name, "/")
	return len(parts) == 4 && parts[0] == "projects" && parts[2] == "sheets" && parts[1] != "" && parts[3] != ""
}

func databaseName(instance, db string) string {
	return "instances/" + instance + "/databases/" + db
}
