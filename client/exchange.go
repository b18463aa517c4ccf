package client

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-resty/resty/v2"

	"github.com/dbgov/dbgov/internal/secret"
)

// response is a received answer, its body read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

// The failures that end an exchange without a retry.
var (
	errTooManyRedirects   = fmt.Errorf("stopped after %d redirects", maxRedirects)
	errTooLarge           = errors.New("answer too large")
	errLoginRedirected    = errors.New("the service redirected the login")
	errIdentityRedirected = errors.New("the service redirected users/me to another origin")
)

// usersMePath is where a credential is checked: only the service's own
// origin may answer it.
const usersMePath = "/v1/users/me"

// newResty builds the resty client: its retry policy and redirect policy,
// over a transport that reads each answer whole and logs it.
func (c *Client) newResty(tlsConfig *tls.Config) *resty.Client {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = tlsConfig
	transport.MaxIdleConnsPerHost = c.opts.Concurrency
	reader := &answerReader{
		next:    transport,
		limit:   c.opts.MaxResponseSize,
		timeout: c.opts.Timeout,
		log:     c.log,
		backoff: c.backoff,
	}
	return resty.NewWithClient(&http.Client{Transport: reader}).
		SetLogger(discardLogger{}).
		SetRedirectPolicy(resty.RedirectPolicyFunc(c.checkRedirect)).
		SetRetryCount(c.opts.MaxRetries).
		SetRetryWaitTime(c.opts.RetryWait).
		SetRetryMaxWaitTime(c.opts.Timeout).
		AddRetryCondition(c.retry).
		SetRetryAfter(c.retryAfter).
		OnBeforeRequest(c.beforeAttempt)
}

// exchange sends r, retried as retry allows, and returns a 2xx answer, or
// the error of the last attempt: an *APIError for another status, a
// *TransportError for no answer, an *InvalidResponseError for an answer
// that cannot be taken.
func (c *Client) exchange(ctx context.Context, r *Request, auth string) (*response, error) {
	req := c.rc.R().SetContext(ctx).SetDoNotParseResponse(true)
	req.Header = c.requestHeader(r, auth)
	if r.Body != nil {
		req.SetBody(bytes.NewReader(r.Body)) // sent as it is, not copied
	}
	if c.plainHost != "" && (req.Header.Get("Authorization") != "" || len(c.headers) > 0 || isLoginPath(r.Path)) {
		c.warnPlainHTTP()
	}
	resp, err := req.Execute(r.Method, c.URL(r))
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, fmt.Errorf("%s %s: %w", r.Method, r.Path, ctxErr)
	}
	invalid := &InvalidResponseError{Method: r.Method, Path: r.Path}
	var raw *http.Response
	if resp != nil && resp.RawResponse != nil {
		raw = resp.RawResponse
		invalid.HTTPStatus = raw.StatusCode
		invalid.ContentType = raw.Header.Get("Content-Type")
	}
	switch {
	case errors.As(err, new(*APIError)): // the shared backoff's refusal
		return nil, err
	case errors.Is(err, errTooLarge):
		return nil, &InvalidResponseError{Err: fmt.Errorf("answer larger than %s", formatSize(c.opts.MaxResponseSize))}
	case errors.Is(err, errLoginRedirected), errors.Is(err, errIdentityRedirected), errors.Is(err, errTooManyRedirects):
		invalid.Err = errors.New(innermost(err))
		return nil, invalid
	case err != nil || raw == nil:
		return nil, c.transportError(cmp.Or(err, errors.New("no response")))
	case raw.StatusCode < 200 || raw.StatusCode > 299:
		apiErr := parseErrorBody(raw.StatusCode, raw.Header.Get("Content-Type"), answerOf(raw))
		c.cleanAPIError(apiErr)
		if c.backoff != nil && busyStatus(raw.StatusCode) && resp.Request.Attempt > c.opts.MaxRetries {
			c.backoff.refuse(apiErr)
		}
		return nil, apiErr
	}
	return &response{status: raw.StatusCode, header: raw.Header, body: answerOf(raw)}, nil
}

// requestHeader returns the headers of r.
func (c *Client) requestHeader(r *Request, auth string) http.Header {
	h := http.Header{"Accept": {"application/json"}, "User-Agent": {c.opts.UserAgent}}
	for name, values := range c.headers {
		h[name] = append([]string(nil), values...)
	}
	if r.Body != nil {
		h.Set("Content-Type", "application/json")
	}
	switch {
	case r.NoAuth:
		h.Del("Authorization")
	case auth != "":
		h.Set("Authorization", auth)
	}
	return h
}

// beforeAttempt readies each attempt of a request: its body is sent from
// the start, and under a shared backoff it waits out the pause the service
// asked for, or fails at once when the service has refused the run.
func (c *Client) beforeAttempt(_ *resty.Client, req *resty.Request) error {
	if body, ok := req.Body.(io.Seeker); ok {
		if _, err := body.Seek(0, io.SeekStart); err != nil {
			return err
		}
	}
	if c.backoff == nil {
		return nil
	}
	return c.backoff.wait(req.Context())
}

// retry decides after each attempt whether to send the request again: a GET
// on 429, 502, 503, 504 or a lost connection, any request whose connection
// could not be made, and a login whose first attempt was answered 429 (the
// service did not take it); never past the last retry.
func (c *Client) retry(resp *resty.Response, err error) bool {
	if resp == nil || resp.Request.Context().Err() != nil {
		return false
	}
	req := resp.Request
	// resendable says that sending the request again cannot do its work twice.
	resendable := req.Method == http.MethodGet || req.Method == http.MethodHead
	var what string
	switch te := c.transportError(err); {
	case err != nil && te.retry:
		what = te.Message
		resendable = resendable || te.SentNothing
	case err == nil && slices.Contains(retryableStatuses, resp.StatusCode()):
		what = "HTTP " + statusText(resp.StatusCode())
		login := resp.StatusCode() == http.StatusTooManyRequests && isLoginPath(req.RawRequest.URL.Path)
		resendable = resendable || login && req.Attempt == 1
	default:
		return false
	}
	switch {
	case !resendable:
		c.log.notef("%s: not retried, %s may have reached the service", what, req.Method)
		return false
	case req.Attempt > c.opts.MaxRetries:
		c.log.notef("%s: giving up after %d retries", what, req.Attempt-1)
		return false
	}
	return true
}

// noticeWait is the wait from which a person at a terminal is told of it.
const noticeWait = 3 * time.Second

// retryAfter returns the wait before the retry to come: the answer's
// Retry-After, up to the timeout, when it has one; else 0, for resty's
// backoff from RetryWait, doubled at each retry, with jitter.
func (c *Client) retryAfter(_ *resty.Client, resp *resty.Response) (time.Duration, error) {
	n := resp.Request.Attempt
	what := "no answer"
	// wait is what resty is told, shown what the debug log says of it.
	wait := time.Duration(0)
	shown := "up to " + min(c.opts.RetryWait<<min(n-1, 20), c.opts.Timeout).String()
	if raw := resp.RawResponse; raw != nil {
		what = "HTTP " + statusText(raw.StatusCode)
		if d, ok := parseRetryAfter(raw.Header.Get("Retry-After"), c.opts.Clock.Now()); ok {
			wait = min(max(d, c.opts.RetryWait), c.opts.Timeout) // as resty bounds it
			shown = wait.Round(time.Millisecond).String()
		}
	}
	c.log.notef("%s: retry %d of %d in %s", what, n, c.opts.MaxRetries, shown)
	if wait >= noticeWait && c.opts.Notice != nil {
		c.opts.Notice(fmt.Sprintf("%s: waiting %s before retry %d of %d", what, wait.Round(time.Second), n, c.opts.MaxRetries))
	}
	return wait, nil
}

// retryableStatuses are the statuses of answers that may be retried (for a
// GET): too many requests, or a gateway or service not ready.
var retryableStatuses = []int{http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout}

// busyStatus reports whether an answer with status asks every client to
// slow down: too many requests, or a service not ready.
func busyStatus(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}

// parseRetryAfter reads a Retry-After header: seconds, or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil && secs >= 0 {
		return time.Duration(min(secs, int64(24*time.Hour/time.Second))) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// checkRedirect never follows the redirect of a login, nor one of users/me
// to another origin; it follows at most 10 others, and keeps credentials,
// cookies and the extra headers off every origin but the first request's.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0].URL
	if isLoginPath(first.Path) {
		return fmt.Errorf("%w to %s; it was not followed, and nothing was sent there", errLoginRedirected, secret.URL(req.URL.String()))
	}
	if len(via) > maxRedirects {
		return errTooManyRedirects
	}
	note := ""
	if slices.ContainsFunc(append(via[1:], req), func(hop *http.Request) bool { return !sameOrigin(first, hop.URL) }) {
		if strings.HasSuffix(first.Path, usersMePath) {
			return fmt.Errorf("%w, %s; it was not followed: only the service can vouch for a credential", errIdentityRedirected, secret.URL(req.URL.String()))
		}
		note = " (another origin: credentials and extra headers dropped)"
		for _, name := range append([]string{"Authorization", "Cookie", "Proxy-Authorization"}, slices.Collect(maps.Keys(c.headers))...) {
			req.Header.Del(name)
		}
	}
	c.log.notef("following redirect to %s%s", secret.URL(req.URL.String()), note)
	return nil
}

// defaultPorts are the ports of the schemes when a URL names none.
var defaultPorts = map[string]string{"http": "80", "https": "443"}

// sameOrigin reports whether two URLs share scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	port := func(u *url.URL) string {
		return cmp.Or(u.Port(), defaultPorts[strings.ToLower(u.Scheme)])
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

// answerReader is the transport of the client: it reads each answer whole,
// within the size limit and the timeout, logs each hop, and tells the
// shared backoff, if any, of a busy answer.
type answerReader struct {
	next    http.RoundTripper
	limit   int64
	timeout time.Duration
	log     *debugLog
	backoff *sharedBackoff
}

// RoundTrip sends req and reads its answer whole, failing with errTooLarge
// past the limit.
func (t *answerReader) RoundTrip(req *http.Request) (*http.Response, error) {
	t.log.request(req)
	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	defer cancel()
	start := time.Now()
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	var body []byte
	if err == nil {
		body, err = readBody(resp, t.limit)
		resp.Body.Close()
	}
	if err != nil {
		t.log.failure(err, time.Since(start))
		return nil, err
	}
	t.log.response(resp, body, time.Since(start))
	if t.backoff != nil && busyStatus(resp.StatusCode) {
		t.backoff.hold(resp.Header)
	}
	resp.Body = &wholeBody{Reader: bytes.NewReader(body), body: body}
	return resp, nil
}

// wholeBody is the body of a response the transport read whole.
type wholeBody struct {
	*bytes.Reader
	body []byte
}

func (*wholeBody) Close() error { return nil }

// answerOf returns the body of a response of the client's transport.
func answerOf(resp *http.Response) []byte {
	if a, ok := resp.Body.(*wholeBody); ok {
		return a.body
	}
	body, _ := io.ReadAll(resp.Body)
	return body
}

// readBody reads an answer's body whole, at most limit bytes of it once
// decompressed, in one allocation when its length is known.
func readBody(resp *http.Response, limit int64) ([]byte, error) {
	if resp.ContentLength > limit {
		return nil, errTooLarge
	}
	var buf bytes.Buffer
	if resp.ContentLength > 0 {
		buf.Grow(int(resp.ContentLength) + bytes.MinRead) // room for the read that meets the end
	}
	n, err := buf.ReadFrom(io.LimitReader(resp.Body, limit+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("read response body: %w", err)
	case n > limit:
		return nil, errTooLarge
	}
	return buf.Bytes(), nil
}

// formatSize writes a byte count as the settings take it: 256MiB, 1000.
func formatSize(n int64) string {
	if n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + "MiB"
	}
	return strconv.FormatInt(n, 10)
}

// transportError describes a request that got no answer, and whether
// another attempt may get one: not after a timeout, a TLS failure, a host
// that does not exist or an answer refused; nil for no error.
func (c *Client) transportError(err error) *TransportError {
	if err == nil {
		return nil
	}
	host := ""
	if urlErr := (*url.Error)(nil); errors.As(err, &urlErr) {
		if u, perr := url.Parse(urlErr.URL); perr == nil {
			host = u.Host
		}
	}
	te := &TransportError{Err: err, SentNothing: isDialError(err)}
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		te.Timeout = true
		te.Message = fmt.Sprintf("no answer from %s within %s", host, c.opts.Timeout)
		te.Hint = "raise the time limit with --timeout, or check that the service is up"
	case errors.As(err, new(tls.RecordHeaderError)), errors.Is(err, http.ErrSchemeMismatch):
		te.Message = fmt.Sprintf("TLS handshake with %s failed: the server does not speak TLS", host)
		te.Hint = "use an http:// URL if the service does not serve HTTPS"
	case errors.As(err, new(x509.UnknownAuthorityError)), errors.As(err, new(x509.CertificateInvalidError)),
		errors.As(err, new(x509.HostnameError)), errors.As(err, new(*tls.CertificateVerificationError)):
		te.Message = fmt.Sprintf("TLS certificate of %s not trusted: %s", host, innermost(err))
		te.Hint = "give the service's CA bundle with --ca-cert FILE, or (unsafe) skip the check with --insecure-skip-tls-verify"
	case errors.As(err, &dnsErr):
		te.Message = fmt.Sprintf("cannot resolve host %s", dnsErr.Name)
		te.retry = !dnsErr.IsNotFound
	case errors.Is(err, syscall.ECONNREFUSED):
		te.Message = fmt.Sprintf("connection to %s refused", host)
		te.retry = true
		te.Hint = "check the service URL and that the service is up"
	default:
		te.Message = fmt.Sprintf("request to %s failed: %s", host, innermost(err))
		te.retry = !errors.Is(err, errTooLarge) && !errors.Is(err, errTooManyRedirects) &&
			!errors.Is(err, errLoginRedirected) && !errors.Is(err, errIdentityRedirected)
	}
	te.Message = c.secrets.String(te.Message)
	return te
}

// innermost returns the message of err without the layers of URL and
// operation names wrapped around the cause.
func innermost(err error) string {
	for {
		switch e := err.(type) {
		case *url.Error:
			err = e.Err
		case *net.OpError:
			err = e.Err
		default:
			return err.Error()
		}
		if err == nil {
			return "unknown error"
		}
	}
}

// isDialError reports a failure to connect, before anything was sent.
func isDialError(err error) bool {
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}
