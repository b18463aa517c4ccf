// Package devserver is dbgov's embedded reference server: an in-memory
// implementation of the service's /v1 API that behaves like the real one,
// for trying dbgov without a service and for its end-to-end tests. `dbgov
// dev-server` runs it; tests use Handler with httptest.
//
// docs/reference-server.md describes the demo data (DemoSeed), the seed
// format (Options.Seed), the permission each route needs, and how the
// server answers. The server is safe for concurrent use.
package devserver
