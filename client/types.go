package client

// The resources of the /v1 API. JSON names are exactly the service's; int64
// values and byte counts the service sends as strings stay strings; every field
// is omitted when zero, as protobuf JSON does, so an absent field decodes to the
// zero value and a value built here encodes as the service expects.

// DatabaseCatalog is the metadata catalog of one database.
type DatabaseCatalog struct {
	Name    string          `json:"name,omitempty"`
	Schemas []SchemaCatalog `json:"schemas,omitempty"`
}

// SchemaCatalog is the catalog of one schema of a database.
type SchemaCatalog struct {
	Name   string         `json:"name,omitempty"`
	Tables []TableCatalog `json:"tables,omitempty"`
}

// TableCatalog is the catalog of one table.
type TableCatalog struct {
	Name           string          `json:"name,omitempty"`
	Columns        *ColumnCatalogs `json:"columns,omitempty"`
	ObjectSchema   *ObjectSchema   `json:"objectSchema,omitempty"`
	Classification string          `json:"classification,omitempty"`
}

// ColumnCatalogs wraps the columns of a table, as the service nests them.
type ColumnCatalogs struct {
	Columns []ColumnCatalog `json:"columns,omitempty"`
}

// ColumnCatalog is the catalog of one column.
type ColumnCatalog struct {
	Name           string            `json:"name,omitempty"`
	SemanticType   string            `json:"semanticType,omitempty"`
	Labels         map[string]string `json:"labels,omitempty"`
	Classification string            `json:"classification,omitempty"`
	ObjectSchema   *ObjectSchema     `json:"objectSchema,omitempty"`
}

// ObjectSchema describes the structure of a JSON-like column or table.
type ObjectSchema struct {
	Type         ObjectSchemaType `json:"type,omitempty"`
	StructKind   *StructKind      `json:"structKind,omitempty"`
	ArrayKind    *ArrayKind       `json:"arrayKind,omitempty"`
	SemanticType string           `json:"semanticType,omitempty"`
}

// StructKind is the object form of an ObjectSchema.
type StructKind struct {
	Properties map[string]ObjectSchema `json:"properties,omitempty"`
}

// ArrayKind is the array form of an ObjectSchema.
type ArrayKind struct {
	Kind *ObjectSchema `json:"kind,omitempty"`
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

// Revision is one schema revision of a database.
type Revision struct {
	Name          string       `json:"name,omitempty"`
	Release       string       `json:"release,omitempty"`
	File          string       `json:"file,omitempty"`
	Version       string       `json:"version,omitempty"`
	Sheet         string       `json:"sheet,omitempty"`
	TaskRun       string       `json:"taskRun,omitempty"`
	Type          RevisionType `json:"type,omitempty"`
	CreateTime    string       `json:"createTime,omitempty"`
	Deleter       string       `json:"deleter,omitempty"`
	DeleteTime    string       `json:"deleteTime,omitempty"`
	SheetSha256   string       `json:"sheetSha256,omitempty"`
	Statement     string       `json:"statement,omitempty"`
	StatementSize string       `json:"statementSize,omitempty"`
}

// RevisionInput holds the fields of a Revision a client may send.
type RevisionInput struct {
	Name    string       `json:"name,omitempty"`
	Release string       `json:"release,omitempty"`
	File    string       `json:"file,omitempty"`
	Version string       `json:"version,omitempty"`
	Sheet   string       `json:"sheet,omitempty"`
	TaskRun string       `json:"taskRun,omitempty"`
	Type    RevisionType `json:"type,omitempty"`
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
	Parent   string        `json:"parent,omitempty"`
	Revision RevisionInput `json:"revision"`
}

// BatchCreateRevisionsRequest is the body of revisions:batchCreate.
type BatchCreateRevisionsRequest struct {
	Parent   string                  `json:"parent,omitempty"`
	Requests []CreateRevisionRequest `json:"requests,omitempty"`
}

// BatchCreateRevisionsResponse lists the revisions a batch created.
type BatchCreateRevisionsResponse struct {
	Revisions []Revision `json:"revisions,omitempty"`
}

// ReviewConfig is a titled, switchable set of SQL review rules.
type ReviewConfig struct {
	Name      string       `json:"name,omitempty"`
	Title     string       `json:"title,omitempty"`
	Enabled   bool         `json:"enabled,omitempty"`
	Rules     []ReviewRule `json:"rules,omitempty"`
	Resources []string     `json:"resources,omitempty"`
}

// ReviewRule is one SQL review rule with at most one payload.
type ReviewRule struct {
	Type                     RuleType                  `json:"type,omitempty"`
	Level                    RuleLevel                 `json:"level,omitempty"`
	Engine                   Engine                    `json:"engine,omitempty"`
	NamingPayload            *NamingPayload            `json:"namingPayload,omitempty"`
	NumberPayload            *NumberPayload            `json:"numberPayload,omitempty"`
	StringArrayPayload       *StringArrayPayload       `json:"stringArrayPayload,omitempty"`
	CommentConventionPayload *CommentConventionPayload `json:"commentConventionPayload,omitempty"`
	StringPayload            *StringPayload            `json:"stringPayload,omitempty"`
	NamingCasePayload        *NamingCasePayload        `json:"namingCasePayload,omitempty"`
}

// NamingPayload configures a naming rule.
type NamingPayload struct {
	MaxLength int32  `json:"maxLength,omitempty"`
	Format    string `json:"format,omitempty"`
}

// NumberPayload configures a rule with a number.
type NumberPayload struct {
	Number int32 `json:"number,omitempty"`
}

// StringArrayPayload configures a rule with a list of strings.
type StringArrayPayload struct {
	List []string `json:"list,omitempty"`
}

// CommentConventionPayload configures a comment rule.
type CommentConventionPayload struct {
	Required  bool  `json:"required,omitempty"`
	MaxLength int32 `json:"maxLength,omitempty"`
}

// StringPayload configures a rule with one string.
type StringPayload struct {
	Value string `json:"value,omitempty"`
}

// NamingCasePayload configures an identifier case rule.
type NamingCasePayload struct {
	Upper bool `json:"upper,omitempty"`
}

// RuleType names a SQL review rule.
type RuleType string

// Known RuleType values.
const (
	RuleTypeUnspecified RuleType = "TYPE_UNSPECIFIED"
)

// RuleLevel is the severity of a rule.
type RuleLevel string

// Known RuleLevel values.
const (
	RuleLevelUnspecified RuleLevel = "LEVEL_UNSPECIFIED"
	RuleLevelError       RuleLevel = "ERROR"
	RuleLevelWarning     RuleLevel = "WARNING"
)

// Engine is a database engine.
type Engine string

// Known Engine values; the service may send others, which are shown as they are.
const (
	EngineUnspecified Engine = "ENGINE_UNSPECIFIED"
	EngineMySQL       Engine = "MYSQL"
	EnginePostgres    Engine = "POSTGRES"
	EngineTiDB        Engine = "TIDB"
	EngineOracle      Engine = "ORACLE"
	EngineMSSQL       Engine = "MSSQL"
	EngineSnowflake   Engine = "SNOWFLAKE"
	EngineClickHouse  Engine = "CLICKHOUSE"
)

// User is a user account: a person, a bot, a service account or a workload identity.
type User struct {
	Name                     string                  `json:"name,omitempty"`
	State                    UserState               `json:"state,omitempty"`
	Email                    string                  `json:"email,omitempty"`
	Title                    string                  `json:"title,omitempty"`
	UserType                 UserType                `json:"userType,omitempty"`
	MfaEnabled               bool                    `json:"mfaEnabled,omitempty"`
	TempOtpSecret            string                  `json:"tempOtpSecret,omitempty"`
	TempRecoveryCodes        []string                `json:"tempRecoveryCodes,omitempty"`
	TempOtpSecretCreatedTime string                  `json:"tempOtpSecretCreatedTime,omitempty"`
	Phone                    string                  `json:"phone,omitempty"`
	Profile                  *UserProfile            `json:"profile,omitempty"`
	Groups                   []string                `json:"groups,omitempty"`
	WorkloadIdentityConfig   *WorkloadIdentityConfig `json:"workloadIdentityConfig,omitempty"`
}

// UserProfile is the metadata of a user.
type UserProfile struct {
	LastLoginTime          string `json:"lastLoginTime,omitempty"`
	LastChangePasswordTime string `json:"lastChangePasswordTime,omitempty"`
	Source                 string `json:"source,omitempty"`
}

// WorkloadIdentityConfig configures a workload identity user.
type WorkloadIdentityConfig struct {
	ProviderType     WorkloadProviderType `json:"providerType,omitempty"`
	IssuerURL        string               `json:"issuerUrl,omitempty"`
	AllowedAudiences []string             `json:"allowedAudiences,omitempty"`
	SubjectPattern   string               `json:"subjectPattern,omitempty"`
}

// UserState is the lifecycle state of a user.
type UserState string

// Known UserState values.
const (
	UserStateUnspecified UserState = "STATE_UNSPECIFIED"
	UserStateActive      UserState = "ACTIVE"
	UserStateDeleted     UserState = "DELETED"
)

// UserType is the type of an account.
type UserType string

// Known UserType values.
const (
	UserTypeUnspecified      UserType = "USER_TYPE_UNSPECIFIED"
	UserTypeUser             UserType = "USER"
	UserTypeSystemBot        UserType = "SYSTEM_BOT"
	UserTypeServiceAccount   UserType = "SERVICE_ACCOUNT"
	UserTypeWorkloadIdentity UserType = "WORKLOAD_IDENTITY"
)

// WorkloadProviderType is the issuer kind of a workload identity.
type WorkloadProviderType string

// Known WorkloadProviderType values.
const (
	WorkloadProviderTypeUnspecified WorkloadProviderType = "PROVIDER_TYPE_UNSPECIFIED"
	WorkloadProviderTypeGitHub      WorkloadProviderType = "GITHUB"
	WorkloadProviderTypeGitLab      WorkloadProviderType = "GITLAB"
)

// BatchGetUsersResponse is the answer of users:batchGet.
type BatchGetUsersResponse struct {
	Users []User `json:"users,omitempty"`
}

// UndeleteUserRequest is the body of users/{user}:undelete.
type UndeleteUserRequest struct {
	Name string `json:"name"`
}

// Policy is a policy set on a database.
type Policy struct {
	Name                   string                  `json:"name,omitempty"`
	InheritFromParent      bool                    `json:"inheritFromParent,omitempty"`
	Type                   PolicyType              `json:"type,omitempty"`
	ResourceType           PolicyResourceType      `json:"resourceType,omitempty"`
	Enforce                bool                    `json:"enforce,omitempty"`
	RolloutPolicy          *RolloutPolicy          `json:"rolloutPolicy,omitempty"`
	MaskingRulePolicy      *MaskingRulePolicy      `json:"maskingRulePolicy,omitempty"`
	MaskingExemptionPolicy *MaskingExemptionPolicy `json:"maskingExemptionPolicy,omitempty"`
	TagPolicy              *TagPolicy              `json:"tagPolicy,omitempty"`
	DataSourceQueryPolicy  *DataSourceQueryPolicy  `json:"dataSourceQueryPolicy,omitempty"`
	QueryDataPolicy        *QueryDataPolicy        `json:"queryDataPolicy,omitempty"`
}

// RolloutPolicy is the payload of a ROLLOUT_POLICY policy.
type RolloutPolicy struct {
	Automatic bool     `json:"automatic,omitempty"`
	Roles     []string `json:"roles,omitempty"`
}

// MaskingRulePolicy is the payload of a MASKING_RULE policy.
type MaskingRulePolicy struct {
	Rules []MaskingRule `json:"rules,omitempty"`
}

// MaskingRule masks the values matching its condition.
type MaskingRule struct {
	ID           string      `json:"id,omitempty"`
	Condition    *Expression `json:"condition,omitempty"`
	SemanticType string      `json:"semanticType,omitempty"`
}

// MaskingExemptionPolicy is the payload of a MASKING_EXEMPTION policy.
type MaskingExemptionPolicy struct {
	Exemptions []MaskingExemption `json:"exemptions,omitempty"`
}

// MaskingExemption exempts members from masking under a condition.
type MaskingExemption struct {
	Members   []string    `json:"members,omitempty"`
	Condition *Expression `json:"condition,omitempty"`
}

// TagPolicy is the payload of a TAG policy.
type TagPolicy struct {
	Tags map[string]string `json:"tags,omitempty"`
}

// DataSourceQueryPolicy is the payload of a DATA_SOURCE_QUERY policy.
type DataSourceQueryPolicy struct {
	AdminDataSourceRestriction AdminDataSourceRestriction `json:"adminDataSourceRestriction,omitempty"`
	DisallowDdl                bool                       `json:"disallowDdl,omitempty"`
	DisallowDml                bool                       `json:"disallowDml,omitempty"`
}

// QueryDataPolicy is the payload of a DATA_QUERY policy.
type QueryDataPolicy struct {
	Timeout           string `json:"timeout,omitempty"`
	DisableExport     bool   `json:"disableExport,omitempty"`
	MaximumResultSize string `json:"maximumResultSize,omitempty"`
	MaximumResultRows int32  `json:"maximumResultRows,omitempty"`
	DisableCopyData   bool   `json:"disableCopyData,omitempty"`
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

// Known PolicyResourceType values.
const (
	PolicyResourceTypeUnspecified PolicyResourceType = "RESOURCE_TYPE_UNSPECIFIED"
	PolicyResourceTypeWorkspace   PolicyResourceType = "WORKSPACE"
	PolicyResourceTypeEnvironment PolicyResourceType = "ENVIRONMENT"
	PolicyResourceTypeProject     PolicyResourceType = "PROJECT"
)

// AdminDataSourceRestriction limits queries on the admin data source.
type AdminDataSourceRestriction string

// Known AdminDataSourceRestriction values.
const (
	AdminDataSourceRestrictionUnspecified AdminDataSourceRestriction = "RESTRICTION_UNSPECIFIED"
	AdminDataSourceRestrictionFallback    AdminDataSourceRestriction = "FALLBACK"
	AdminDataSourceRestrictionDisallow    AdminDataSourceRestriction = "DISALLOW"
)

// ListPoliciesResponse is the answer of a policy list.
type ListPoliciesResponse struct {
	Policies []Policy `json:"policies,omitempty"`
}

// Expression is a condition of a masking rule or exemption: an id and one node.
type Expression struct {
	ID                string             `json:"id,omitempty"`
	ConstExpr         *ConstExpr         `json:"constExpr,omitempty"`
	IdentExpr         *IdentExpr         `json:"identExpr,omitempty"`
	SelectExpr        *SelectExpr        `json:"selectExpr,omitempty"`
	CallExpr          *CallExpr          `json:"callExpr,omitempty"`
	ListExpr          *ListExpr          `json:"listExpr,omitempty"`
	StructExpr        *StructExpr        `json:"structExpr,omitempty"`
	ComprehensionExpr *ComprehensionExpr `json:"comprehensionExpr,omitempty"`
}

// ConstExpr is a literal value.
type ConstExpr struct {
	NullValue      string   `json:"nullValue,omitempty"`
	BoolValue      bool     `json:"boolValue,omitempty"`
	Int64Value     string   `json:"int64Value,omitempty"`
	Uint64Value    string   `json:"uint64Value,omitempty"`
	DoubleValue    *float64 `json:"doubleValue,omitempty"`
	StringValue    string   `json:"stringValue,omitempty"`
	BytesValue     string   `json:"bytesValue,omitempty"`
	DurationValue  string   `json:"durationValue,omitempty"`
	TimestampValue string   `json:"timestampValue,omitempty"`
}

// IdentExpr is an identifier.
type IdentExpr struct {
	Name string `json:"name,omitempty"`
}

// SelectExpr selects a field of an operand.
type SelectExpr struct {
	Operand  *Expression `json:"operand,omitempty"`
	Field    string      `json:"field,omitempty"`
	TestOnly bool        `json:"testOnly,omitempty"`
}

// CallExpr is a function call.
type CallExpr struct {
	Target   *Expression  `json:"target,omitempty"`
	Function string       `json:"function,omitempty"`
	Args     []Expression `json:"args,omitempty"`
}

// ListExpr is a list literal.
type ListExpr struct {
	Elements        []Expression `json:"elements,omitempty"`
	OptionalIndices []int32      `json:"optionalIndices,omitempty"`
}

// StructExpr is a message or map literal.
type StructExpr struct {
	MessageName string        `json:"messageName,omitempty"`
	Entries     []StructEntry `json:"entries,omitempty"`
}

// StructEntry is one entry of a StructExpr.
type StructEntry struct {
	ID            string      `json:"id,omitempty"`
	FieldKey      string      `json:"fieldKey,omitempty"`
	MapKey        *Expression `json:"mapKey,omitempty"`
	Value         *Expression `json:"value,omitempty"`
	OptionalEntry bool        `json:"optionalEntry,omitempty"`
}

// ComprehensionExpr is a comprehension over a range.
type ComprehensionExpr struct {
	IterVar       string      `json:"iterVar,omitempty"`
	IterVar2      string      `json:"iterVar2,omitempty"`
	IterRange     *Expression `json:"iterRange,omitempty"`
	AccuVar       string      `json:"accuVar,omitempty"`
	AccuInit      *Expression `json:"accuInit,omitempty"`
	LoopCondition *Expression `json:"loopCondition,omitempty"`
	LoopStep      *Expression `json:"loopStep,omitempty"`
	Result        *Expression `json:"result,omitempty"`
}

// IdentityProvider is an OAuth 2.0, OIDC or LDAP login provider.
type IdentityProvider struct {
	Name   string                  `json:"name,omitempty"`
	Title  string                  `json:"title,omitempty"`
	Domain string                  `json:"domain,omitempty"`
	Type   IdentityProviderType    `json:"type,omitempty"`
	Config *IdentityProviderConfig `json:"config,omitempty"`
}

// IdentityProviderConfig holds the configuration of the provider's type.
type IdentityProviderConfig struct {
	OAuth2Config *OAuth2Config `json:"oauth2Config,omitempty"`
	OIDCConfig   *OIDCConfig   `json:"oidcConfig,omitempty"`
	LDAPConfig   *LDAPConfig   `json:"ldapConfig,omitempty"`
}

// FieldMapping maps provider attributes to user fields.
type FieldMapping struct {
	Identifier  string `json:"identifier,omitempty"`
	DisplayName string `json:"displayName,omitempty"`
	Phone       string `json:"phone,omitempty"`
	Groups      string `json:"groups,omitempty"`
}

// OAuth2Config configures an OAuth 2.0 provider.
type OAuth2Config struct {
	AuthURL       string          `json:"authUrl,omitempty"`
	TokenURL      string          `json:"tokenUrl,omitempty"`
	UserInfoURL   string          `json:"userInfoUrl,omitempty"`
	ClientID      string          `json:"clientId,omitempty"`
	ClientSecret  string          `json:"clientSecret,omitempty"`
	Scopes        []string        `json:"scopes,omitempty"`
	FieldMapping  *FieldMapping   `json:"fieldMapping,omitempty"`
	SkipTLSVerify bool            `json:"skipTlsVerify,omitempty"`
	AuthStyle     OAuth2AuthStyle `json:"authStyle,omitempty"`
}

// OIDCConfig configures an OpenID Connect provider.
type OIDCConfig struct {
	Issuer        string          `json:"issuer,omitempty"`
	ClientID      string          `json:"clientId,omitempty"`
	ClientSecret  string          `json:"clientSecret,omitempty"`
	Scopes        []string        `json:"scopes,omitempty"`
	FieldMapping  *FieldMapping   `json:"fieldMapping,omitempty"`
	SkipTLSVerify bool            `json:"skipTlsVerify,omitempty"`
	AuthStyle     OAuth2AuthStyle `json:"authStyle,omitempty"`
	AuthEndpoint  string          `json:"authEndpoint,omitempty"`
}

// LDAPConfig configures an LDAP provider.
type LDAPConfig struct {
	Host             string               `json:"host,omitempty"`
	Port             int32                `json:"port,omitempty"`
	SkipTLSVerify    bool                 `json:"skipTlsVerify,omitempty"`
	BindDN           string               `json:"bindDn,omitempty"`
	BindPassword     string               `json:"bindPassword,omitempty"`
	BaseDN           string               `json:"baseDn,omitempty"`
	UserFilter       string               `json:"userFilter,omitempty"`
	SecurityProtocol LDAPSecurityProtocol `json:"securityProtocol,omitempty"`
	FieldMapping     *FieldMapping        `json:"fieldMapping,omitempty"`
}

// IdentityProviderType is the protocol of an identity provider.
type IdentityProviderType string

// Known IdentityProviderType values.
const (
	IdentityProviderTypeUnspecified IdentityProviderType = "IDENTITY_PROVIDER_TYPE_UNSPECIFIED"
	IdentityProviderTypeOAuth2      IdentityProviderType = "OAUTH2"
	IdentityProviderTypeOIDC        IdentityProviderType = "OIDC"
	IdentityProviderTypeLDAP        IdentityProviderType = "LDAP"
)

// OAuth2AuthStyle is how client credentials reach the token endpoint.
type OAuth2AuthStyle string

// Known OAuth2AuthStyle values.
const (
	OAuth2AuthStyleUnspecified OAuth2AuthStyle = "OAUTH2_AUTH_STYLE_UNSPECIFIED"
	OAuth2AuthStyleInParams    OAuth2AuthStyle = "IN_PARAMS"
	OAuth2AuthStyleInHeader    OAuth2AuthStyle = "IN_HEADER"
)

// LDAPSecurityProtocol is the transport security of an LDAP connection.
type LDAPSecurityProtocol string

// Known LDAPSecurityProtocol values.
const (
	LDAPSecurityProtocolUnspecified LDAPSecurityProtocol = "SECURITY_PROTOCOL_UNSPECIFIED"
	LDAPSecurityProtocolStartTLS    LDAPSecurityProtocol = "START_TLS"
	LDAPSecurityProtocolLDAPS       LDAPSecurityProtocol = "LDAPS"
)

// ListIdentityProvidersResponse is the answer of GET /v1/idps.
type ListIdentityProvidersResponse struct {
	IdentityProviders []IdentityProvider `json:"identityProviders,omitempty"`
}

// DiffSchemaRequest is the body of a changelog's :diffSchema: Name and one of
// Schema (a target schema) or Changelog (another changelog's name).
type DiffSchemaRequest struct {
	Name      string `json:"name,omitempty"`
	Schema    string `json:"schema,omitempty"`
	Changelog string `json:"changelog,omitempty"`
}

// DiffSchemaResponse holds the migration statements; empty when the schemas agree.
type DiffSchemaResponse struct {
	Diff string `json:"diff,omitempty"`
}

// LoginRequest is the body of POST /v1/auth/login for a service account.
type LoginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// LoginResponse carries the token a login returned.
type LoginResponse struct {
	Token string `json:"token,omitempty"`
}
