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
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
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

// exchangeState is what the hooks of one exchange share: the request, the
// answer of the latest hop and the wait before the next attempt.
type exchangeState struct {
	r      *Request
	answer []byte
	wait   time.Duration
}

type stateKey struct{}

func stateOf(ctx context.Context) *exchangeState {
	st, _ := ctx.Value(stateKey{}).(*exchangeState)
	return st
}

// The failures that end an exchange without a retry.
var (
	errTooManyRedirects = fmt.Errorf("stopped after %d redirects", maxRedirects)
	errTooLarge         = errors.New("answer too large")
	errLoginRedirected  = errors.New("the service redirected the login")
)

// newResty builds the resty client: its retries, redirect policy and time
// limit, over a transport that reads each answer whole and logs it.
func (c *Client) newResty(tlsConfig *tls.Config) *resty.Client {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = tlsConfig
	c.transport = &answerReader{next: transport, limit: c.maxSize, log: c.log}
	return resty.NewWithClient(&http.Client{Transport: c.transport}).
		SetLogger(discardLogger{}).
		SetTimeout(c.timeout).
		SetRedirectPolicy(resty.RedirectPolicyFunc(c.checkRedirect)).
		SetRetryCount(c.maxRetries).
		SetRetryWaitTime(0).
		SetRetryMaxWaitTime(c.maxRetryWait).
		AddRetryCondition(c.retry).
		SetRetryAfter(func(_ *resty.Client, resp *resty.Response) (time.Duration, error) {
			return max(stateOf(resp.Request.Context()).wait, 1), nil
		}).
		OnBeforeRequest(func(_ *resty.Client, req *resty.Request) error {
			if st := stateOf(req.Context()); st != nil && st.r.Body != nil {
				req.Body = bytes.NewReader(st.r.Body) // each attempt reads it afresh
			}
			return nil
		})
}

// exchange sends r, retried as retry allows, and returns a 2xx answer, or
// the error of the last attempt: an *APIError for another status, a
// *TransportError for no answer, an *InvalidResponseError for an answer
// that cannot be taken.
func (c *Client) exchange(ctx context.Context, r *Request, auth string) (*response, error) {
	st := &exchangeState{r: r}
	req := c.rc.R().SetContext(context.WithValue(ctx, stateKey{}, st)).SetDoNotParseResponse(true)
	req.Header = c.requestHeader(r, auth)
	if c.plainRemote && (req.Header.Get("Authorization") != "" || len(c.headers) > 0 || r.Path == loginPath) {
		c.warnPlainHTTP()
	}
	resp, err := req.Execute(r.Method, c.URL(r))
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, fmt.Errorf("%s %s: %w", r.Method, r.Path, ctxErr)
	}
	var raw *http.Response
	if resp != nil && resp.RawResponse != nil {
		raw = resp.RawResponse
		raw.Body.Close() // read already: this stops the attempt's timer
	}
	invalid := func(err error) error {
		e := &InvalidResponseError{Method: r.Method, Path: r.Path, Err: err}
		if raw != nil {
			e.HTTPStatus, e.ContentType = raw.StatusCode, raw.Header.Get("Content-Type")
		}
		return e
	}
	switch {
	case errors.Is(err, errTooLarge):
		return nil, &InvalidResponseError{Err: fmt.Errorf("answer larger than %s", formatSize(c.maxSize))}
	case errors.Is(err, errLoginRedirected), errors.Is(err, errTooManyRedirects):
		return nil, invalid(errors.New(innermost(err)))
	case err != nil || raw == nil:
		return nil, c.transportError(cmp.Or(err, errors.New("no response")))
	}
	res := &response{status: raw.StatusCode, header: raw.Header, body: st.answer}
	if res.status >= 200 && res.status < 300 {
		return res, nil
	}
	apiErr := parseErrorBody(res.status, res.header.Get("Content-Type"), res.body)
	c.cleanAPIError(apiErr)
	return nil, apiErr
}

// requestHeader returns the headers of r.
func (c *Client) requestHeader(r *Request, auth string) http.Header {
	h := make(http.Header, len(c.headers)+4)
	h.Set("Accept", "application/json")
	h.Set("User-Agent", c.userAgent)
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

// retry decides after each attempt whether to send the request again: a GET
// on 429, 502, 503, 504 or a lost connection, any request whose connection
// could not be made; never past the last retry. It sets the wait.
func (c *Client) retry(resp *resty.Response, err error) bool {
	if resp == nil || resp.Request == nil || resp.Request.Context().Err() != nil {
		return false
	}
	st := stateOf(resp.Request.Context())
	idempotent := st.r.Method == http.MethodGet || st.r.Method == http.MethodHead
	var what string
	var header http.Header
	if err != nil {
		te := c.transportError(err)
		if !retryable(err) {
			return false
		}
		if !idempotent && !te.SentNothing {
			c.log.notef("%s: not retried, %s may have reached the service", te.Message, st.r.Method)
			return false
		}
		what = te.Message
	} else {
		if !retryableStatus(resp.StatusCode()) {
			return false
		}
		what = "HTTP " + statusText(resp.StatusCode())
		if !idempotent {
			c.log.notef("%s: not retried, %s may have reached the service", what, st.r.Method)
			return false
		}
		header = resp.Header()
	}
	attempt := resp.Request.Attempt
	if attempt > c.maxRetries {
		c.log.notef("%s: giving up after %d retries", what, attempt-1)
		return false
	}
	if resp.RawResponse != nil {
		resp.RawResponse.Body.Close()
	}
	st.wait = c.backoff(attempt-1, header)
	c.log.notef("%s: retry %d of %d in %s", what, attempt, c.maxRetries, st.wait.Round(time.Millisecond))
	if st.wait >= noticeWait && c.notice != nil {
		c.notice(fmt.Sprintf("%s: waiting %s before retry %d of %d", what, st.wait.Round(time.Second), attempt, c.maxRetries))
	}
	return true
}

// noticeWait is the wait from which a person at a terminal is told of it.
const noticeWait = 3 * time.Second

// retryableStatus reports whether an answer with status may be retried
// (for a GET): too many requests, or a gateway or service not ready.
func retryableStatus(status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// retryable reports whether a failure without answer is worth a retry: not
// a timeout, a TLS failure, a host that does not exist or an answer refused.
func retryable(err error) bool {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return !dnsErr.IsNotFound
	}
	return !isTimeout(err) && !isTLSError(err) &&
		!errors.Is(err, errTooManyRedirects) && !errors.Is(err, errTooLarge) && !errors.Is(err, errLoginRedirected)
}

// backoff returns the wait before retry number retry+1: the answer's
// Retry-After when it has one, else RetryWait doubled at each retry, with
// jitter; never more than MaxRetryWait.
func (c *Client) backoff(retry int, header http.Header) time.Duration {
	if d, ok := parseRetryAfter(header.Get("Retry-After"), time.Now()); ok {
		return min(d, c.maxRetryWait)
	}
	d := min(c.retryWait<<min(retry, 30), c.maxRetryWait)
	if d > 1 {
		d = d/2 + rand.N(d) // somewhere in [d/2, 3d/2)
	}
	return min(d, c.maxRetryWait)
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

// checkRedirect never follows the redirect of a login, follows at most 10
// others, and keeps credentials, cookies and the extra headers off every
// origin but the first request's.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if st := stateOf(req.Context()); st != nil && isCredentialExchange(st.r.Path) {
		return fmt.Errorf("%w to %s; it was not followed, and nothing was sent there", errLoginRedirected, secret.URL(req.URL.String()))
	}
	if len(via) > maxRedirects {
		return errTooManyRedirects
	}
	foreign := false
	for _, hop := range append(via[1:], req) {
		foreign = foreign || !sameOrigin(via[0].URL, hop.URL)
	}
	if foreign {
		for _, name := range []string{"Authorization", "Cookie", "Proxy-Authorization"} {
			req.Header.Del(name)
		}
		for name := range c.headers {
			req.Header.Del(name)
		}
	}
	note := "following redirect to " + secret.URL(req.URL.String())
	if foreign {
		note += " (another origin: credentials and extra headers dropped)"
	}
	c.log.notef("%s", note)
	return nil
}

// isCredentialExchange reports whether a path trades a credential for a
// token: its redirects are never followed.
func isCredentialExchange(path string) bool {
	return path == loginPath || strings.HasSuffix(path, ":exchangeToken")
}

// sameOrigin reports whether two URLs share scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) &&
		effectivePort(a) == effectivePort(b)
}

// effectivePort returns the port of u, the scheme's default when none is given.
func effectivePort(u *url.URL) string {
	return cmp.Or(u.Port(), map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)])
}

// answerReader is the transport of the client: it reads each answer whole,
// within the size limit, into the call's state, and logs each exchange.
type answerReader struct {
	next  http.RoundTripper
	limit int64
	log   *debugLog
}

func (t *answerReader) RoundTrip(req *http.Request) (*http.Response, error) {
	st := stateOf(req.Context())
	var sent *sentBody
	if st != nil && st.r.ReuseBody && req.Response == nil && req.Body != nil {
		// The first hop's body: its memory may take the answer once sent.
		sent = &sentBody{ReadCloser: req.Body}
		req = req.Clone(req.Context())
		req.Body = sent
	}
	if st != nil && req.GetBody != nil {
		t.log.request(req, st.r.Body)
	} else {
		t.log.request(req, nil)
	}
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		t.log.failure(err, time.Since(start))
		return nil, err
	}
	defer resp.Body.Close()
	var into []byte
	if sent != nil && resp.StatusCode >= 200 && resp.StatusCode < 300 && sent.closed.Load() {
		into = st.r.Body
	}
	body, err := readBody(resp, into, t.limit)
	if err != nil {
		t.log.failure(err, time.Since(start))
		return nil, err
	}
	t.log.response(resp, body, time.Since(start))
	if st != nil {
		st.answer = body
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// sentBody tells when the transport has closed a request's body, after
// which it reads no more of it.
type sentBody struct {
	io.ReadCloser
	closed atomic.Bool
}

func (b *sentBody) Close() error {
	err := b.ReadCloser.Close()
	b.closed.Store(true)
	return err
}

// readBody reads an answer's body whole, at most limit bytes of it once
// decompressed: in one allocation when its length is known, in none when
// into (memory free for it) is large enough.
func readBody(resp *http.Response, into []byte, limit int64) ([]byte, error) {
	if resp.ContentLength > limit {
		return nil, errTooLarge
	}
	body := into[:0]
	if n := resp.ContentLength; n >= 0 && int64(cap(body)) <= n {
		body = make([]byte, 0, n+1) // room for the read that meets the end
	}
	for {
		if len(body) == cap(body) {
			body = append(body, 0)[:len(body)]
		}
		n, err := resp.Body.Read(body[len(body):cap(body)])
		body = body[:len(body)+n]
		switch {
		case int64(len(body)) > limit:
			return nil, errTooLarge
		case err == io.EOF:
			return body, nil
		case err != nil:
			return nil, fmt.Errorf("read response body: %w", err)
		}
	}
}

// formatSize writes a byte count as the settings take it: 256MiB, 1000.
func formatSize(n int64) string {
	if n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + "MiB"
	}
	return strconv.FormatInt(n, 10)
}

// transportError describes a request that got no answer.
func (c *Client) transportError(err error) *TransportError {
	host := ""
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		if u, perr := url.Parse(urlErr.URL); perr == nil {
			host = u.Host
		}
	}
	te := &TransportError{Err: err, SentNothing: isDialError(err)}
	var (
		dnsErr    *net.DNSError
		recordErr tls.RecordHeaderError
	)
	switch {
	case isTimeout(err):
		te.Timeout = true
		te.Message = fmt.Sprintf("no answer from %s within %s", host, c.timeout)
		te.Hint = "raise the time limit with --timeout, or check that the service is up"
	case errors.As(err, &recordErr), errors.Is(err, http.ErrSchemeMismatch):
		te.Message = fmt.Sprintf("TLS handshake with %s failed: the server does not speak TLS", host)
		te.Hint = "use an http:// URL if the service does not serve HTTPS"
	case isTLSError(err):
		te.Message = fmt.Sprintf("TLS certificate of %s not trusted: %s", host, innermost(err))
		te.Hint = "give the service's CA bundle with --ca-cert FILE, or (unsafe) skip the check with --insecure-skip-tls-verify"
	case errors.As(err, &dnsErr):
		te.Message = fmt.Sprintf("cannot resolve host %s", dnsErr.Name)
	case errors.Is(err, syscall.ECONNREFUSED):
		te.Message = fmt.Sprintf("connection to %s refused", host)
		te.Hint = "check the service URL and that the service is up"
	default:
		te.Message = fmt.Sprintf("request to %s failed: %s", host, innermost(err))
	}
	te.Message = c.secrets.String(te.Message)
	return te
}

// isTimeout reports an attempt that ran out of time.
func isTimeout(err error) bool {
	return errors.Is(err, context.DeadlineExceeded)
}

// isTLSError reports a certificate that is not trusted, or a server that
// does not speak TLS.
func isTLSError(err error) bool {
	var (
		unknownAuth x509.UnknownAuthorityError
		invalidCert x509.CertificateInvalidError
		hostErr     x509.HostnameError
		verifyErr   *tls.CertificateVerificationError
		recordErr   tls.RecordHeaderError
	)
	return errors.As(err, &unknownAuth) || errors.As(err, &invalidCert) || errors.As(err, &hostErr) ||
		errors.As(err, &verifyErr) || errors.As(err, &recordErr) || errors.Is(err, http.ErrSchemeMismatch)
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
