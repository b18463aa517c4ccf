// Package devserver is dbgov's embedded reference server: an in-memory
// implementation of the service's /v1 API that behaves like the real one,
// for trying dbgov without a service and for its end-to-end tests. `dbgov
// dev-server` runs it; tests use Handler with httptest.
//
// # Running it
//
//	dbgov dev-server --addr 127.0.0.1:8080
//	export DBGOV_URL=http://127.0.0.1:8080 DBGOV_TOKEN=dev-admin-token
//	dbgov users batch-get alice@example.com bob@example.com
//
// The state lives in memory only: every start begins from the demo data, or
// from the seed given with --seed FILE, again.
//
// # Demo data
//
// Credentials:
//
//	dev-admin-token        users/admin@example.com   every permission
//	dev-readonly-token     users/viewer@example.com  svc.users.get, svc.policies.list,
//	                                                 svc.reviewConfigs.get, svc.databases.get
//	ci-bot@example.com     service account, key dev-ci-bot-key: every permission but
//	                       svc.users.undelete; log in with POST /v1/auth/login
//	                       (dbgov --service-account ci-bot@example.com --service-key dev-ci-bot-key)
//
// Resources:
//
//   - instances/prod-pg/databases/orders: a catalog with schemas public and
//     billing (tables with classifications; columns with semantic types,
//     labels and nested object schemas); changelogs 101 and 102, whose
//     schemas differ by a few lines; revisions 1 and 2 (VERSIONED 1.0.0 and
//     1.1.0) and 3 (DECLARATIVE 2024.03.01, deleted); one policy of each
//     type (ROLLOUT_POLICY, MASKING_RULE with an expression condition,
//     MASKING_EXEMPTION, TAG, DATA_SOURCE_QUERY, DATA_QUERY), plus a deleted
//     TAG policy, policies/tag-2023, shown only with showDeleted=true.
//   - instances/prod-pg/databases/inventory: no catalog (catalog update
//     needs allowMissing=true there); changelog 201.
//   - instances/staging-mysql/databases/orders: a small catalog, changelog
//     301, one DATA_SOURCE_QUERY policy.
//   - sheets projects/orders/sheets/101, 102, 201 and 202, whose statements
//     new revisions naming them get.
//   - reviewConfigs/sql-review-prod (enabled; rules with each payload kind,
//     both levels, several engines) and reviewConfigs/sql-review-dev
//     (disabled).
//   - users: admin, viewer and alice@example.com (USER, ACTIVE; admin and
//     alice with MFA, phone, profile and groups); bob and erin@example.com
//     (USER, DELETED: try undelete on them); carol@example.com (MFA setup in
//     progress: tempOtpSecret, tempRecoveryCodes); system-bot@example.com
//     (SYSTEM_BOT); ci-bot@example.com (SERVICE_ACCOUNT);
//     deploy@workload.example.com (WORKLOAD_IDENTITY, GITHUB).
//   - identity providers idps/google (OAUTH2), idps/okta (OIDC) and
//     idps/corp-ldap (LDAP), with a clientSecret or bindPassword each.
//
// DemoSeed returns the demo data as a seed document, a starting point for
// one's own.
//
// # Seed format
//
// Options.Seed replaces the demo data with a JSON document; every part is
// optional and an absent part is empty:
//
//	{
//	  "tokens": [{"token": "t1", "user": "users/a@x.com", "permissions": ["svc.users.get"]}],
//	  "serviceAccounts": [{"email": "bot@x.com", "key": "secret", "permissions": ["svc.revisions.create"]}],
//	  "instances": [{"id": "prod", "databases": [{
//	    "id": "app",
//	    "catalog": {"schemas": [...]},                          // a DatabaseCatalog; name filled in
//	    "changelogs": [{"id": "1", "schema": "CREATE TABLE ..."}],
//	    "revisions": [{"name": "instances/prod/databases/app/revisions/1", "version": "1.0", "type": "VERSIONED", ...}],
//	    "policies": [{"type": "TAG", "tagPolicy": {...}, "deleted": true}]
//	  }]}],
//	  "sheets": [{"name": "projects/p/sheets/1", "statement": "ALTER TABLE ..."}],
//	  "reviewConfigs": [{"name": "reviewConfigs/r", ...}],   // ReviewConfig
//	  "users": [{"email": "a@x.com", "state": "ACTIVE", ...}], // User; name or email may be left out
//	  "identityProviders": [{"name": "idps/x", ...}]         // IdentityProvider
//	}
//
// Resources are written as the API returns them (the JSON of the client
// package's types). A policy may carry "deleted": true; one without a name is
// named instances/{i}/databases/{d}/policies/{type in lower case}. A seeded
// revision with a sheet and no statement gets the sheet's statement; its
// statementSize and sheetSha256 are derived from the statement when absent.
// The seed is decoded strictly, like request bodies: an unknown field, a
// value of the wrong type or an unknown enum name is refused, and so are
// duplicate ids, names not of the API's forms, unknown permissions and
// revisions repeating a (type, version). New names the first problem, with
// its place: `check seed: instances[0].databases[1]: database "d" given twice`.
//
// GenerateSeed writes a larger seed for benchmarks: the demo data plus
// generated users (users/user000001@example.com, ...; 50,000 make about
// 20 MB) and a catalog of any number of tables and columns in
// instances/bench-pg/databases/warehouse.
//
// # Permissions
//
//	GET   /v1/instances/{i}/databases/{d}/catalog                       svc.databaseCatalogs.get
//	PATCH /v1/instances/{i}/databases/{d}/catalog                       svc.databaseCatalogs.update
//	POST  /v1/instances/{i}/databases/{d}/revisions:batchCreate         svc.revisions.create
//	GET   /v1/reviewConfigs/{id}                                        svc.reviewConfigs.get
//	GET   /v1/users:batchGet                                            svc.users.get
//	POST  /v1/users/{email}:undelete                                    svc.users.undelete (not named by the spec)
//	GET   /v1/instances/{i}/databases/{d}/policies                      svc.policies.list (not named by the spec)
//	POST  /v1/instances/{i}/databases/{d}/changelogs/{c}:diffSchema     svc.databases.get
//	GET   /v1/idps                                                      none: open
//	POST  /v1/auth/login                                                none: open
//
// # Behaviour
//
// Requests are checked in this order: route, credentials, permission, query
// parameters and body, then the resources named.
//
//   - Routes: an unknown path answers 404 with code 2 (UNKNOWN), message
//     "Not Found"; a known path with another method answers 405 with code 2,
//     message "Method Not Allowed" and an Allow header, as a gRPC gateway
//     does. Path ids are unescaped before use
//     (/v1/users/a%40b.com:undelete); a custom method is what follows the last
//     literal colon of the last segment, so an escaped colon (%3A) belongs to
//     the id.
//   - Credentials: `Authorization: Bearer <token>`; none, an unknown or an
//     expired token is 401 UNAUTHENTICATED; a token without the operation's
//     permission is 403 PERMISSION_DENIED naming the user and the
//     permission. Tokens from POST /v1/auth/login ({"email", "password": the
//     service key} → {"token"}) expire after an hour (Options.Now is the
//     clock); a wrong email or key is 401, a missing one 400.
//   - Errors are {"code": <gRPC code>, "message": "..."} with the HTTP status
//     of the code (see the contract); "details" is left out.
//   - Responses are protobuf JSON: zero values and empty lists left out (an
//     empty list is {}), int64 values as strings, times in RFC 3339 UTC.
//   - Bodies are strict: field names match exactly (case too), and an
//     unknown field, a value of the wrong type, an unknown enum name,
//     malformed JSON or data after the object is 400 INVALID_ARGUMENT naming
//     the field, as in `unknown field "requests[0].revision.statement"`. An
//     empty body is the empty object. Bodies are limited to MaxBodyBytes;
//     the request line and headers, under Serve, to MaxHeaderBytes (16 MiB),
//     and a query may hold any number of parameters.
//   - Query parameters take their camelCase or snake_case names
//     (allowMissing or allow_missing); enum values are names, in upper
//     case; booleans are true/false (or 1/0); a parameter given twice is 400.
//     Unknown parameters are ignored.
//   - users:batchGet takes a repeated names parameter (a comma-joined value
//     is one name) and returns the users in the order asked, deleted ones
//     too; no names is 400, a name without users/ is 400, one unknown user
//     fails the call with 404 naming it.
//   - :undelete needs {"name": "users/{email}"} naming the user of the path
//     (else 400); an active user is 400 FAILED_PRECONDITION (code 9), an
//     unknown one 404; the restored user is returned, ACTIVE.
//   - Catalog get returns the catalog, 404 for a database without one.
//   - Catalog update replaces the whole catalog and returns it, its name
//     filled in; a name other than instances/{i}/databases/{d}/catalog is
//     400; a database without a catalog is 404 unless allowMissing=true.
//     update_mask is not read.
//   - revisions:batchCreate: an absent batch parent is the path's database,
//     another is 400; every requests[].parent must equal it (400, nothing
//     created). Then each revision in turn: type VERSIONED or DECLARATIVE
//     required (400), version required (400), sheet, when given, of the form
//     projects/{p}/sheets/{s} (400), and a (type, version) the database
//     already holds, or that comes twice in the batch, is 409 ALREADY_EXISTS.
//     It is not atomic, like the real service: revisions before the failing
//     one stay created. A revision gets the name
//     instances/{i}/databases/{d}/revisions/{n} (n counting up per
//     database), createTime, and, when it names a sheet, the sheet's
//     statement with its statementSize and sheetSha256 (a sheet the server
//     does not hold gets a placeholder comment as statement). The input name
//     is not used.
//   - Policies: policyType (a type name; POLICY_TYPE_UNSPECIFIED means all,
//     an unknown name is 400) and showDeleted filter the database's
//     policies, in seed order.
//   - :diffSchema takes {"name": <the path's changelog>} with exactly one of
//     "schema" (a target schema) or "changelog" (another changelog's full
//     name, of any database); anything else is 400. The diff goes from the
//     stored schema of the path's changelog to the target, line by line:
//     "-line" for each line removed and "+line" for each line added, in
//     order, each ending in a newline; common lines are left out. The kept
//     lines are a longest common subsequence of the two, computed after
//     setting aside the lines both start and end with; when the rest is too
//     large (more than about four million line pairs) it is shown as removed
//     then added whole. Identical schemas answer {}.
//   - A missing instance, database, changelog or review config is 404
//     NOT_FOUND naming it.
//
// Where the real service is known to answer 500 for a client's mistake (a
// missing database or changelog, a duplicate revision version, a schema sent
// to a changelog's :diffSchema), this server answers the 404, 409 or success
// above instead.
//
// The server is safe for concurrent use; a panic in an operation would be
// answered 500 INTERNAL rather than dropping the connection. Options.Log gets
// one line per request, `METHOD PATH STATUS DURATION`, never a credential.
package devserver
