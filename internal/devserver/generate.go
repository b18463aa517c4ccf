package devserver

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dbgov/dbgov/client"
)

// GenerateOptions sizes the data GenerateSeed adds to the demo data.
type GenerateOptions struct {
	// Users is the number of users added, named
	// users/user000001@example.com, users/user000002@example.com, ...
	Users int
	// Tables and ColumnsPerTable size the catalog of the added database
	// instances/bench-pg/databases/warehouse (no catalog when Tables is 0).
	Tables          int
	ColumnsPerTable int
	// Databases is the number of databases added to the instance
	// FleetInstance, named db0001, db0002, ...: each with its policies
	// and a schema, FleetSchema, or for every seventh one from the third,
	// a drifted one.
	Databases int
}

// Names of what GenerateSeed adds.
const (
	GeneratedInstance = "bench-pg"
	GeneratedDatabase = "warehouse"
)

// FleetInstance holds the generated databases; FleetSchema is the schema
// of those that did not drift, the golden schema of a drift gate.
const (
	FleetInstance = "fleet-pg"
	FleetSchema   = "CREATE TABLE customers (id bigint PRIMARY KEY, email text NOT NULL);\nCREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint, total numeric);\n"
)

// GeneratedUserName returns the name of the i-th generated user, from 1.
func GeneratedUserName(i int) string { return fmt.Sprintf("users/user%06d@example.com", i) }

// GenerateSeed writes a seed holding the demo data plus generated users and
// a large catalog, for benchmarks: 50,000 users make about 25 MB of seed and
// a 20 MB batchGet answer. The output depends on opts alone.
func GenerateSeed(w io.Writer, opts GenerateOptions) error {
	var doc seedDoc
	if err := decodeStrict(demoSeed, &doc); err != nil {
		return fmt.Errorf("generate seed: decode seed: %w", err)
	}
	for i := 1; i <= opts.Users; i++ {
		doc.Users = append(doc.Users, seedUser{User: generatedUser(i)})
	}
	db := seedDatabase{ID: GeneratedDatabase, Changelogs: []seedChangelog{{ID: "1", Schema: "CREATE SCHEMA analytics;\n"}}}
	if opts.Tables > 0 {
		db.Catalog = generatedCatalog(opts.Tables, opts.ColumnsPerTable)
	}
	doc.Instances = append(doc.Instances, seedInstance{ID: GeneratedInstance, Databases: []seedDatabase{db}})
	fleet := seedInstance{ID: FleetInstance}
	for i := 1; i <= opts.Databases; i++ {
		schema := FleetSchema
		if i%7 == 3 {
			schema = strings.Replace(schema, "total numeric", "total numeric, note text", 1)
		}
		masking := seedPolicy{Policy: client.Policy{Type: client.PolicyTypeMaskingRule, Enforce: i%2 == 0},
			MaskingRulePolicy: json.RawMessage(`{"rules":[{"id":"mask-email","semanticType":"email"}]}`)}
		rollout := seedPolicy{Policy: client.Policy{Type: client.PolicyTypeRollout, RolloutPolicy: &client.RolloutPolicy{Automatic: i%3 == 0}}}
		fleet.Databases = append(fleet.Databases, seedDatabase{ID: fmt.Sprintf("db%04d", i),
			Changelogs: []seedChangelog{{ID: "1", Schema: schema}}, Policies: []seedPolicy{masking, rollout}})
	}
	if len(fleet.Databases) > 0 {
		doc.Instances = append(doc.Instances, fleet)
	}

	enc := json.NewEncoder(w) // writes the encoded document at once
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("generate seed: write: %w", err)
	}
	return nil
}

func generatedUser(i int) client.User {
	name := GeneratedUserName(i)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	u := client.User{
		Name:       name,
		State:      client.UserStateActive,
		Email:      name[len("users/"):],
		Title:      fmt.Sprintf("Generated User %06d of the benchmark directory", i),
		UserType:   client.UserTypeUser,
		MfaEnabled: i%3 == 0,
		Phone:      fmt.Sprintf("+1415%07d", i%10_000_000),
		Profile: &client.UserProfile{
			LastLoginTime:          formatTime(base.Add(time.Duration(i) * time.Minute)),
			LastChangePasswordTime: formatTime(base.Add(-time.Duration(i) * time.Hour)),
			Source:                 []string{"LDAP", "OIDC", "OAUTH2", ""}[i%4],
		},
		Groups: []string{
			fmt.Sprintf("groups/team-%03d@example.com", i%250),
			fmt.Sprintf("groups/site-%02d@example.com", i%40),
			"groups/everyone@example.com",
		},
	}
	switch {
	case i%10 == 0:
		u.State = client.UserStateDeleted
	case i%97 == 0:
		u.UserType = client.UserTypeServiceAccount
		u.Groups = nil
	case i%89 == 0:
		u.UserType = client.UserTypeWorkloadIdentity
		u.WorkloadIdentityConfig = &client.WorkloadIdentityConfig{
			ProviderType:     client.WorkloadProviderTypeGitLab,
			IssuerURL:        "https://gitlab.example.com",
			AllowedAudiences: []string{"https://gitlab.example.com"},
			SubjectPattern:   fmt.Sprintf("project_path:bench/service-%d:ref_type:branch:ref:main", i),
		}
	}
	return u
}

func generatedCatalog(tables, columns int) *client.DatabaseCatalog {
	semantic := []string{"", "email", "phone-number", "address", "full-name", "credit-card"}
	schemas := []client.SchemaCatalog{{Name: "analytics"}, {Name: "raw"}, {Name: "mart"}, {Name: "staging"}}
	for t := range tables {
		table := client.TableCatalog{Name: fmt.Sprintf("table_%05d", t), Classification: fmt.Sprintf("1-%d", t%3+1)}
		if columns > 0 {
			table.Columns = &client.ColumnCatalogs{}
			for c := range columns {
				col := client.ColumnCatalog{
					Name:           fmt.Sprintf("column_%03d", c),
					SemanticType:   semantic[(t+c)%len(semantic)],
					Classification: fmt.Sprintf("1-%d", c%3+1),
					Labels:         map[string]string{"owner": fmt.Sprintf("team-%03d", t%250), "source": "generated"},
				}
				if c%10 == 9 {
					col.ObjectSchema = &client.ObjectSchema{Type: client.ObjectSchemaTypeObject, StructKind: &client.StructKind{
						Properties: map[string]client.ObjectSchema{"value": {Type: client.ObjectSchemaTypeString}},
					}}
				}
				table.Columns.Columns = append(table.Columns.Columns, col)
			}
		}
		s := &schemas[t%len(schemas)]
		s.Tables = append(s.Tables, table)
	}
	return &client.DatabaseCatalog{Name: databaseName(GeneratedInstance, GeneratedDatabase) + "/catalog", Schemas: schemas}
}
