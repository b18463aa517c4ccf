// Package devserver is dbgov's embedded reference server: an in-memory
// implementation of the service's /v1 API, safe for concurrent use, run by
// `dbgov dev-server` and by tests through Handler. docs/reference-server.md
// describes its demo data, its seed format, permissions and answers.
package devserver
