package client

import "encoding/json"

// The resources of the /v1 API. JSON names are exactly the service's; int64
// values and byte counts the service sends as strings stay strings; every field
// is omitted when zero, as protobuf JSON does, so an absent field decodes to the
// zero value and a value built here encodes as the service expects. dbgov
// prints an answer as the service sent it, so these types hold only what it
// reads (for tables and checks) or sends; the rest of an answer is left out.

// DatabaseCatalog is the metadata catalog of one database.
type DatabaseCatalog struct {
	Name    string          `json:"name,omitempty"`    // instances/I/databases/D/catalog
	Schemas []SchemaCatalog `json:"schemas,omitempty"` // its schemas
}

// SchemaCatalog is the catalog of one schema of a database.
type SchemaCatalog struct {
	Name   string         `json:"name,omitempty"`   // the schema's name
	Tables []TableCatalog `json:"tables,omitempty"` // its tables
}

// TableCatalog is the catalog of one table.
type TableCatalog struct {
	Name           string          `json:"name,omitempty"`           // the table's name
	Columns        *ColumnCatalogs `json:"columns,omitempty"`        // its columns
	ObjectSchema   *ObjectSchema   `json:"objectSchema,omitempty"`   // the structure of a JSON-like table
	Classification string          `json:"classification,omitempty"` // its data classification
}

// ColumnCatalogs wraps the columns of a table, as the service nests them.
type ColumnCatalogs struct {
	Columns []ColumnCatalog `json:"columns,omitempty"` // the columns
}

// ColumnCatalog is the catalog of one column.
type ColumnCatalog struct {
	Name           string            `json:"name,omitempty"`           // the column's name
	SemanticType   string            `json:"semanticType,omitempty"`   // its semantic type
	Labels         map[string]string `json:"labels,omitempty"`         // its key/value labels
	Classification string            `json:"classification,omitempty"` // its data classification
	ObjectSchema   *ObjectSchema     `json:"objectSchema,omitempty"`   // the structure of a JSON-like column
}

// ObjectSchema describes the structure of a JSON-like column or table.
type ObjectSchema struct {
	Type         ObjectSchemaType `json:"type,omitempty"`         // the kind of value described
	StructKind   *StructKind      `json:"structKind,omitempty"`   // an object's properties
	ArrayKind    *ArrayKind       `json:"arrayKind,omitempty"`    // an array's elements
	SemanticType string           `json:"semanticType,omitempty"` // the value's semantic type
}

// StructKind is the object form of an ObjectSchema.
type StructKind struct {
	Properties map[string]ObjectSchema `json:"properties,omitempty"` // each property by name
}

// ArrayKind is the array form of an ObjectSchema.
type ArrayKind struct {
	Kind *ObjectSchema `json:"kind,omitempty"` // the elements
}

// ObjectSchemaType is the type of an ObjectSchema.
type ObjectSchemaType string

// Known ObjectSchemaType values.
const (
	ObjectSchemaTypeUnspecified ObjectSchemaType = "TYPE_UNSPECIFIED"
	ObjectSchemaTypeString      ObjectSchemaType = "STRING"
	ObjectSchemaTypeNumber      ObjectSchemaType = "NUMBER"
	ObjectSchemaTypeBoolean     ObjectSchemaType = "BOOLEAN"
	ObjectSchemaTypeObject      ObjectSchemaType = "OBJECT"
	ObjectSchemaTypeArray       ObjectSchemaType = "ARRAY"
)

// Revision is one schema revision of a database: the fields a client sends,
// and those the service adds.
type Revision struct {
	RevisionInput
	// CreateTime is when the revision was created (RFC 3339); output only.
	CreateTime string `json:"createTime,omitempty"`
	// Deleter names who deleted the revision; output only.
	Deleter string `json:"deleter,omitempty"`
	// DeleteTime is when the revision was deleted (RFC 3339); output only.
	DeleteTime string `json:"deleteTime,omitempty"`
	// SheetSha256 is the SHA-256 of the sheet; output only.
	SheetSha256 string `json:"sheetSha256,omitempty"`
	// Statement is the revision's SQL; output only.
	Statement string `json:"statement,omitempty"`
	// StatementSize is the statement's size in bytes, as a string; output only.
	StatementSize string `json:"statementSize,omitempty"`
}

// RevisionInput holds the fields of a Revision a client may send.
type RevisionInput struct {
	// Name is the revision's resource name.
	Name string `json:"name,omitempty"`
	// Release names the release the revision comes from.
	Release string `json:"release,omitempty"`
	// File names the file the revision comes from.
	File string `json:"file,omitempty"`
	// Version is the revision's version.
	Version string `json:"version,omitempty"`
	// Sheet is the sheet holding the revision's statement.
	Sheet string `json:"sheet,omitempty"`
	// TaskRun names the revision's task run.
	TaskRun string `json:"taskRun,omitempty"`
	// Type is the kind of revision.
	Type RevisionType `json:"type,omitempty"`
}

// RevisionType is the kind of a revision.
type RevisionType string

// Known RevisionType values.
const (
	RevisionTypeUnspecified RevisionType = "TYPE_UNSPECIFIED"
	RevisionTypeVersioned   RevisionType = "VERSIONED"
	RevisionTypeDeclarative RevisionType = "DECLARATIVE"
)

// CreateRevisionRequest is one entry of a batch create.
type CreateRevisionRequest struct {
	// Parent is the database the revision is created in.
	Parent string `json:"parent,omitempty"`
	// Revision is the revision to create.
	Revision RevisionInput `json:"revision"`
}

// BatchCreateRevisionsRequest is the body of revisions:batchCreate.
type BatchCreateRevisionsRequest struct {
	// Parent is the database the revisions are created in.
	Parent string `json:"parent,omitempty"`
	// Requests are the revisions to create, in order.
	Requests []CreateRevisionRequest `json:"requests,omitempty"`
}

// BatchCreateRevisionsResponse lists the revisions a batch created.
type BatchCreateRevisionsResponse struct {
	// Revisions are the revisions created.
	Revisions []Revision `json:"revisions,omitempty"`
}

// ReviewConfig is a titled, switchable set of SQL review rules.
type ReviewConfig struct {
	// Name is the configuration's name, reviewConfigs/ID.
	Name string `json:"name,omitempty"`
	// Title is the configuration's title.
	Title string `json:"title,omitempty"`
	// Enabled tells whether the configuration is enabled.
	Enabled bool `json:"enabled,omitempty"`
	// Rules are the SQL review rules to enforce.
	Rules []ReviewRule `json:"rules,omitempty"`
	// Resources are the resources using the configuration, each {resource}/{resource id}.
	Resources []string `json:"resources,omitempty"`
}

// ReviewRule is one SQL review rule with at most one payload.
type ReviewRule struct {
	// Type names the rule.
	Type RuleType `json:"type,omitempty"`
	// Level is the rule's severity.
	Level RuleLevel `json:"level,omitempty"`
	// Engine is the database engine the rule applies to.
	Engine Engine `json:"engine,omitempty"`
	// NamingPayload configures a naming rule.
	NamingPayload *NamingPayload `json:"namingPayload,omitempty"`
	// NumberPayload configures a rule with a number.
	NumberPayload *NumberPayload `json:"numberPayload,omitempty"`
	// StringArrayPayload configures a rule with a list of strings.
	StringArrayPayload *StringArrayPayload `json:"stringArrayPayload,omitempty"`
	// CommentConventionPayload configures a comment rule.
	CommentConventionPayload *CommentConventionPayload `json:"commentConventionPayload,omitempty"`
	// StringPayload configures a rule with one string.
	StringPayload *StringPayload `json:"stringPayload,omitempty"`
	// NamingCasePayload configures an identifier case rule.
	NamingCasePayload *NamingCasePayload `json:"namingCasePayload,omitempty"`
}

// NamingPayload configures a naming rule.
type NamingPayload struct {
	// MaxLength is the longest name allowed.
	MaxLength int32 `json:"maxLength,omitempty"`
	// Format is the pattern names must follow.
	Format string `json:"format,omitempty"`
}

// NumberPayload configures a rule with a number.
type NumberPayload struct {
	// Number is the rule's number.
	Number int32 `json:"number,omitempty"`
}

// StringArrayPayload configures a rule with a list of strings.
type StringArrayPayload struct {
	// List is the rule's list of strings.
	List []string `json:"list,omitempty"`
}

// CommentConventionPayload configures a comment rule.
type CommentConventionPayload struct {
	// Required tells whether a comment is required.
	Required bool `json:"required,omitempty"`
	// MaxLength is the longest comment allowed.
	MaxLength int32 `json:"maxLength,omitempty"`
}

// StringPayload configures a rule with one string.
type StringPayload struct {
	// Value is the rule's string.
	Value string `json:"value,omitempty"`
}

// NamingCasePayload configures an identifier case rule.
type NamingCasePayload struct {
	// Upper asks for upper-case identifiers.
	Upper bool `json:"upper,omitempty"`
}

// RuleType names a SQL review rule.
type RuleType string

// RuleLevel is the severity of a rule, such as ERROR or WARNING.
type RuleLevel string

// Engine is a database engine.
type Engine string

// Engine values dbgov tells apart; the service sends others too, shown as they are.
const (
	EngineMySQL    Engine = "MYSQL"
	EnginePostgres Engine = "POSTGRES"
)

// User is a user account: a person, a bot, a service account or a workload identity.
type User struct {
	// Name is the user's name, users/EMAIL.
	Name string `json:"name,omitempty"`
	// State is the account's lifecycle state.
	State UserState `json:"state,omitempty"`
	// Email is the address used for login and notifications.
	Email string `json:"email,omitempty"`
	// Title is the user's display title or full name.
	Title string `json:"title,omitempty"`
	// UserType is the type of account.
	UserType UserType `json:"userType,omitempty"`
	// MfaEnabled tells whether the user enabled MFA.
	MfaEnabled bool `json:"mfaEnabled,omitempty"`
	// TempOtpSecret is the temporary OTP secret of an MFA setup; a secret.
	TempOtpSecret string `json:"tempOtpSecret,omitempty"`
	// TempRecoveryCodes are the temporary recovery codes of an MFA setup; secrets.
	TempRecoveryCodes []string `json:"tempRecoveryCodes,omitempty"`
	// TempOtpSecretCreatedTime is when TempOtpSecret was created (RFC 3339).
	TempOtpSecretCreatedTime string `json:"tempOtpSecretCreatedTime,omitempty"`
	// Phone is an E.164 phone number, possibly empty.
	Phone string `json:"phone,omitempty"`
	// Profile is the user's metadata.
	Profile *UserProfile `json:"profile,omitempty"`
	// Groups are the user's groups, each groups/EMAIL.
	Groups []string `json:"groups,omitempty"`
	// WorkloadIdentityConfig is set for a workload identity only.
	WorkloadIdentityConfig *WorkloadIdentityConfig `json:"workloadIdentityConfig,omitempty"`
}

// UserProfile is the metadata of a user.
type UserProfile struct {
	// LastLoginTime is when the user last logged in (RFC 3339).
	LastLoginTime string `json:"lastLoginTime,omitempty"`
	// LastChangePasswordTime is when the user last changed password (RFC 3339).
	LastChangePasswordTime string `json:"lastChangePasswordTime,omitempty"`
	// Source is where the account comes from.
	Source string `json:"source,omitempty"`
}

// WorkloadIdentityConfig configures a workload identity user.
type WorkloadIdentityConfig struct {
	// ProviderType is the kind of issuer.
	ProviderType WorkloadProviderType `json:"providerType,omitempty"`
	// IssuerURL is the issuer's address.
	IssuerURL string `json:"issuerUrl,omitempty"`
	// AllowedAudiences are the audiences a token may be for.
	AllowedAudiences []string `json:"allowedAudiences,omitempty"`
	// SubjectPattern is the pattern a token's subject must match.
	SubjectPattern string `json:"subjectPattern,omitempty"`
}

// UserState is the lifecycle state of a user.
type UserState string

// Known UserState values.
const (
	UserStateActive  UserState = "ACTIVE"
	UserStateDeleted UserState = "DELETED"
)

// UserType is the type of an account.
type UserType string

// Known UserType values.
const (
	UserTypeUser             UserType = "USER"
	UserTypeServiceAccount   UserType = "SERVICE_ACCOUNT"
	UserTypeWorkloadIdentity UserType = "WORKLOAD_IDENTITY"
)

// WorkloadProviderType is the issuer kind of a workload identity, such as GITHUB.
type WorkloadProviderType string

// WorkloadProviderTypeGitLab is the issuer kind of a GitLab CI job.
const WorkloadProviderTypeGitLab WorkloadProviderType = "GITLAB"

// BatchGetUsersResponse is the answer of users:batchGet.
type BatchGetUsersResponse struct {
	// Users are the users found.
	Users []User `json:"users,omitempty"`
}

// UndeleteUserRequest is the body of users/{user}:undelete.
type UndeleteUserRequest struct {
	// Name is the deleted user's name, users/EMAIL.
	Name string `json:"name"`
}

// Policy is a policy set on a database.
type Policy struct {
	// Name is the policy's resource name.
	Name string `json:"name,omitempty"`
	// InheritFromParent tells whether the policy inherits from its parent resource.
	InheritFromParent bool `json:"inheritFromParent,omitempty"`
	// Type is the policy's type, which tells which payload applies.
	Type PolicyType `json:"type,omitempty"`
	// ResourceType is the kind of resource the policy is attached to.
	ResourceType PolicyResourceType `json:"resourceType,omitempty"`
	// Enforce tells whether the policy is enforced.
	Enforce bool `json:"enforce,omitempty"`
	// RolloutPolicy is the payload of a ROLLOUT_POLICY policy.
	RolloutPolicy *RolloutPolicy `json:"rolloutPolicy,omitempty"`
	// MaskingRulePolicy is the payload of a MASKING_RULE policy.
	MaskingRulePolicy *MaskingRulePolicy `json:"maskingRulePolicy,omitempty"`
	// MaskingExemptionPolicy is the payload of a MASKING_EXEMPTION policy.
	MaskingExemptionPolicy *MaskingExemptionPolicy `json:"maskingExemptionPolicy,omitempty"`
	// TagPolicy is the payload of a TAG policy.
	TagPolicy *TagPolicy `json:"tagPolicy,omitempty"`
	// DataSourceQueryPolicy is the payload of a DATA_SOURCE_QUERY policy.
	DataSourceQueryPolicy *DataSourceQueryPolicy `json:"dataSourceQueryPolicy,omitempty"`
	// QueryDataPolicy is the payload of a DATA_QUERY policy.
	QueryDataPolicy *QueryDataPolicy `json:"queryDataPolicy,omitempty"`
}

// RolloutPolicy is the payload of a ROLLOUT_POLICY policy.
type RolloutPolicy struct {
	// Automatic tells whether rollout is automatic.
	Automatic bool `json:"automatic,omitempty"`
	// Roles are the roles the rollout policy names.
	Roles []string `json:"roles,omitempty"`
}

// MaskingRulePolicy is the payload of a MASKING_RULE policy.
type MaskingRulePolicy struct {
	// Rules are the masking rules, as sent: dbgov counts them.
	Rules []json.RawMessage `json:"rules,omitempty"`
}

// MaskingExemptionPolicy is the payload of a MASKING_EXEMPTION policy.
type MaskingExemptionPolicy struct {
	// Exemptions are the masking exemptions, as sent: dbgov counts them.
	Exemptions []json.RawMessage `json:"exemptions,omitempty"`
}

// TagPolicy is the payload of a TAG policy.
type TagPolicy struct {
	// Tags are the key/value tags.
	Tags map[string]string `json:"tags,omitempty"`
}

// DataSourceQueryPolicy is the payload of a DATA_SOURCE_QUERY policy.
type DataSourceQueryPolicy struct {
	// AdminDataSourceRestriction limits queries on the admin data source.
	AdminDataSourceRestriction AdminDataSourceRestriction `json:"adminDataSourceRestriction,omitempty"`
	// DisallowDdl forbids DDL statements.
	DisallowDdl bool `json:"disallowDdl,omitempty"`
	// DisallowDml forbids DML statements.
	DisallowDml bool `json:"disallowDml,omitempty"`
}

// QueryDataPolicy is the payload of a DATA_QUERY policy.
type QueryDataPolicy struct {
	// Timeout limits a query, as a duration string.
	Timeout string `json:"timeout,omitempty"`
	// DisableExport forbids exporting query results.
	DisableExport bool `json:"disableExport,omitempty"`
	// MaximumResultSize limits a result's size in bytes, as a string.
	MaximumResultSize string `json:"maximumResultSize,omitempty"`
	// MaximumResultRows limits a result's rows.
	MaximumResultRows int32 `json:"maximumResultRows,omitempty"`
	// DisableCopyData forbids copying query results.
	DisableCopyData bool `json:"disableCopyData,omitempty"`
	// AllowAdminDataSource lets queries use the admin data source (3.15 and later).
	AllowAdminDataSource bool `json:"allowAdminDataSource,omitempty"`
}

// PolicyType is the type of a policy, also the policyType filter of a list.
type PolicyType string

// Known PolicyType values.
const (
	PolicyTypeUnspecified      PolicyType = "POLICY_TYPE_UNSPECIFIED"
	PolicyTypeMaskingRule      PolicyType = "MASKING_RULE"
	PolicyTypeMaskingExemption PolicyType = "MASKING_EXEMPTION"
	PolicyTypeRollout          PolicyType = "ROLLOUT_POLICY"
	PolicyTypeTag              PolicyType = "TAG"
	PolicyTypeDataSourceQuery  PolicyType = "DATA_SOURCE_QUERY"
	PolicyTypeDataQuery        PolicyType = "DATA_QUERY"
)

// PolicyTypes lists the policy types a user may filter by.
func PolicyTypes() []PolicyType {
	return []PolicyType{PolicyTypeMaskingRule, PolicyTypeMaskingExemption, PolicyTypeRollout,
		PolicyTypeTag, PolicyTypeDataSourceQuery, PolicyTypeDataQuery}
}

// PolicyResourceType is the kind of resource a policy is attached to.
type PolicyResourceType string

// AdminDataSourceRestriction limits queries on the admin data source.
type AdminDataSourceRestriction string

// AdminDataSourceRestrictionUnspecified is a restriction left unset; FALLBACK is another.
const AdminDataSourceRestrictionUnspecified AdminDataSourceRestriction = "RESTRICTION_UNSPECIFIED"

// ListPoliciesResponse is the answer of a policy list.
type ListPoliciesResponse struct {
	// Policies are the policies listed.
	Policies []Policy `json:"policies,omitempty"`
}

// IdentityProvider is an OAuth 2.0, OIDC or LDAP login provider.
type IdentityProvider struct {
	// Name is the provider's resource name.
	Name string `json:"name,omitempty"`
	// Title is the provider's display title.
	Title string `json:"title,omitempty"`
	// Domain is the provider's domain.
	Domain string `json:"domain,omitempty"`
	// Type is the provider's protocol.
	Type IdentityProviderType `json:"type,omitempty"`
	// Config holds the configuration of the provider's type.
	Config *IdentityProviderConfig `json:"config,omitempty"`
}

// IdentityProviderConfig holds the configuration of the provider's type.
type IdentityProviderConfig struct {
	// OAuth2Config is set for an OAuth 2.0 provider.
	OAuth2Config *OAuth2Config `json:"oauth2Config,omitempty"`
	// OIDCConfig is set for an OpenID Connect provider.
	OIDCConfig *OIDCConfig `json:"oidcConfig,omitempty"`
	// LDAPConfig is set for an LDAP provider.
	LDAPConfig *LDAPConfig `json:"ldapConfig,omitempty"`
}

// OAuth2Config configures an OAuth 2.0 provider; dbgov reads where it is reached.
type OAuth2Config struct {
	// AuthURL is the authorization endpoint.
	AuthURL string `json:"authUrl,omitempty"`
}

// OIDCConfig configures an OpenID Connect provider; dbgov reads where it is reached.
type OIDCConfig struct {
	// Issuer is the issuer's address.
	Issuer string `json:"issuer,omitempty"`
}

// LDAPConfig configures an LDAP provider; dbgov reads where it is reached.
type LDAPConfig struct {
	// Host is the LDAP server's host.
	Host string `json:"host,omitempty"`
	// Port is the LDAP server's port.
	Port int32 `json:"port,omitempty"`
}

// IdentityProviderType is the protocol of an identity provider: OAUTH2, OIDC or LDAP.
type IdentityProviderType string

// ListIdentityProvidersResponse is the answer of GET /v1/idps.
type ListIdentityProvidersResponse struct {
	// IdentityProviders are the identity providers listed.
	IdentityProviders []IdentityProvider `json:"identityProviders,omitempty"`
}

// DiffSchemaRequest is the body of a changelog's :diffSchema: Name and one of
// Schema (a target schema) or Changelog (another changelog's name).
type DiffSchemaRequest struct {
	// Name is the database or changelog compared from.
	Name string `json:"name,omitempty"`
	// Schema is the target schema.
	Schema string `json:"schema,omitempty"`
	// Changelog is the full name of the target changelog.
	Changelog string `json:"changelog,omitempty"`
}

// DiffSchemaResponse holds the migration statements; empty when the schemas agree.
type DiffSchemaResponse struct {
	// Diff is the migration statements.
	Diff string `json:"diff,omitempty"`
}

// LoginRequest is the body of POST /v1/auth/login for a service account.
type LoginRequest struct {
	// Email is the service account's email.
	Email string `json:"email"`
	// Password is the service account's key; a secret.
	Password string `json:"password"`
}

// LoginResponse carries the token a login returned.
type LoginResponse struct {
	// Token is the bearer token to send with later calls; a secret.
	Token string `json:"token,omitempty"`
	// AccessToken is the token of a workload identity's exchange instead.
	AccessToken string `json:"accessToken,omitempty"`
}

// ExchangeTokenRequest is the body of POST /v1/auth:exchangeToken: the CI
// system's OIDC token (a secret) for the workload identity of Email.
type ExchangeTokenRequest struct {
	// Token is the OIDC token (a JWT); a secret.
	Token string `json:"token"`
	// Email is the workload identity's email.
	Email string `json:"email"`
}
