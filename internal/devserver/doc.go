// Package devserver is dbgov's embedded reference server, an in-memory /v1 API
// safe for concurrent use; docs/reference-server.md describes it.
package devserver
