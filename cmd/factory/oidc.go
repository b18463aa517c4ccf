package factory

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
)

// oidcToken returns the CI system's OIDC token for the workload identity:
// the content of --oidc-token-file, else DBGOV_OIDC_TOKEN, else one asked
// of GitHub Actions. Each call reads it afresh, as an exchange after a 401
// wants a token that has not expired.
func (f *Factory) oidcToken(ctx context.Context) (string, error) {
	s, err := f.Settings()
	if err != nil {
		return "", err
	}
	requestURL := f.Getenv("ACTIONS_ID_TOKEN_REQUEST_URL")
	switch {
	case s.OIDCTokenFile != "":
		data, err := input.Read(s.OIDCTokenFile, nil)
		if err != nil {
			return "", fmt.Errorf("read the OIDC token: %w", err)
		}
		return strings.TrimSpace(string(data)), nil
	case s.OIDCToken != "":
		return strings.TrimSpace(s.OIDCToken), nil
	case requestURL != "":
		return actionsToken(ctx, requestURL, f.Getenv("ACTIONS_ID_TOKEN_REQUEST_TOKEN"), s.OIDCAudience, s.Timeout)
	}
	return "", exitcode.Usagef("no OIDC token for workload identity %s: give --oidc-token-file FILE or DBGOV_OIDC_TOKEN "+
		"(in GitLab CI, a variable of id_tokens), or run in a GitHub Actions job with the permission id-token: write", s.WorkloadIdentity)
}

// actionsToken asks GitHub Actions for the job's OIDC token, for audience
// when not "": GET requestURL with the job's request token, answered
// {"value": <JWT>}.
func actionsToken(ctx context.Context, requestURL, requestToken, audience string, timeout time.Duration) (string, error) {
	if audience != "" {
		requestURL += "&audience=" + url.QueryEscape(audience)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, requestURL, nil)
	if err != nil {
		return "", exitcode.Usagef("ACTIONS_ID_TOKEN_REQUEST_URL is not a URL: %v", err)
	}
	req.Header.Set("Authorization", "Bearer "+requestToken)
	resp, err := (&http.Client{Timeout: timeout}).Do(req)
	if err != nil {
		return "", fmt.Errorf("ask GitHub Actions for an OIDC token: %w", err)
	}
	defer resp.Body.Close()
	var answer struct{ Value string }
	err = json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&answer)
	switch {
	case resp.StatusCode != http.StatusOK:
		return "", exitcode.WithHint(exitcode.WithCode(fmt.Errorf("GitHub Actions refused an OIDC token (HTTP %s)", resp.Status), exitcode.Auth, ""),
			"ACTIONS_ID_TOKEN_REQUEST_TOKEN must be the job's own, given with the permission id-token: write")
	case err != nil || answer.Value == "":
		return "", fmt.Errorf("GitHub Actions answered no OIDC token (HTTP %s)", resp.Status)
	}
	return answer.Value, nil
}
