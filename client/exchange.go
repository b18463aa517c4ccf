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
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-resty/resty/v2"

	"github.com/dbgov/dbgov/internal/heap"
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

func stateOf(ctx context.Context) *exchangeState { return ctx.Value(stateKey{}).(*exchangeState) }

// The failures that end an exchange without a retry.
var (
	errTooManyRedirects = fmt.Errorf("stopped after %d redirects", maxRedirects)
	errTooLarge         = errors.New("answer too large")
	errLoginRedirected  = errors.New("the service redirected the login")
)

// newResty builds the resty client: its retries, redirect policy and time
// limit, over a transport that reads each answer whole and logs it.
func (c *Client) newResty(tlsConfig *tls.Config, wrap func(http.RoundTripper) http.RoundTripper) *resty.Client {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = tlsConfig
	var next http.RoundTripper = transport
	if wrap != nil {
		next = wrap(transport)
	}
	c.transport = &answerReader{next: next, limit: c.maxSize, log: c.log}
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
			if body := stateOf(req.Context()).r.Body; body != nil {
				req.Body = bytes.NewReader(body) // each attempt reads it afresh
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
	if c.plainHost != "" && (req.Header.Get("Authorization") != "" || len(c.headers) > 0 || r.Path == loginPath) {
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
		raw.Body.Close() // read already: this stops the attempt's timer
		invalid.HTTPStatus, invalid.ContentType = raw.StatusCode, raw.Header.Get("Content-Type")
	}
	switch {
	case errors.Is(err, errTooLarge):
		return nil, &InvalidResponseError{Err: fmt.Errorf("answer larger than %s", formatSize(c.maxSize))}
	case errors.Is(err, errLoginRedirected), errors.Is(err, errTooManyRedirects):
		invalid.Err = errors.New(innermost(err))
		return nil, invalid
	case err != nil || raw == nil:
		return nil, c.transportError(cmp.Or(err, errors.New("no response")))
	case raw.StatusCode < 200 || raw.StatusCode > 299:
		apiErr := parseErrorBody(raw.StatusCode, raw.Header.Get("Content-Type"), st.answer)
		c.cleanAPIError(apiErr)
		return nil, apiErr
	}
	return &response{status: raw.StatusCode, header: raw.Header, body: st.answer}, nil
}

// requestHeader returns the headers of r.
func (c *Client) requestHeader(r *Request, auth string) http.Header {
	h := http.Header{"Accept": {"application/json"}, "User-Agent": {c.userAgent}}
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
	if resp == nil || resp.Request.Context().Err() != nil {
		return false
	}
	st := stateOf(resp.Request.Context())
	idempotent := st.r.Method == http.MethodGet || st.r.Method == http.MethodHead
	var what string
	var header http.Header
	switch te := c.transportError(err); {
	case err != nil && te.retry:
		what, idempotent = te.Message, idempotent || te.SentNothing
	case err == nil && retryableStatus(resp.StatusCode()):
		what, header = "HTTP "+statusText(resp.StatusCode()), resp.Header()
	default:
		return false
	}
	attempt := resp.Request.Attempt
	switch {
	case !idempotent:
		c.log.notef("%s: not retried, %s may have reached the service", what, st.r.Method)
		return false
	case attempt > c.maxRetries:
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
	return slices.Contains([]int{http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout}, status)
}

// backoff returns the wait before retry number retry+1: the answer's
// Retry-After when it has one, else RetryWait doubled at each retry, with
// jitter; never more than MaxRetryWait.
func (c *Client) backoff(retry int, header http.Header) time.Duration {
	if d, ok := parseRetryAfter(header.Get("Retry-After"), time.Now()); ok {
		return min(d, c.maxRetryWait)
	}
	d := c.maxRetryWait
	if retry < 30 && c.retryWait <= c.maxRetryWait>>retry { // doubled without overflowing
		d = c.retryWait << retry
	}
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
	if path := stateOf(req.Context()).r.Path; path == loginPath || strings.HasSuffix(path, ":exchangeToken") {
		return fmt.Errorf("%w to %s; it was not followed, and nothing was sent there", errLoginRedirected, secret.URL(req.URL.String()))
	}
	if len(via) > maxRedirects {
		return errTooManyRedirects
	}
	note := ""
	if slices.ContainsFunc(append(via[1:], req), func(hop *http.Request) bool { return !sameOrigin(via[0].URL, hop.URL) }) {
		note = " (another origin: credentials and extra headers dropped)"
		for _, name := range append([]string{"Authorization", "Cookie", "Proxy-Authorization"}, slices.Collect(maps.Keys(c.headers))...) {
			req.Header.Del(name)
		}
	}
	c.log.notef("following redirect to %s%s", secret.URL(req.URL.String()), note)
	return nil
}

// sameOrigin reports whether two URLs share scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	port := func(u *url.URL) string {
		return cmp.Or(u.Port(), map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)])
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

// answerReader is the transport of the client: it reads each answer whole,
// within the size limit, into the exchange's state, and logs each hop.
type answerReader struct {
	next  http.RoundTripper
	limit int64
	log   *debugLog
}

func (t *answerReader) RoundTrip(req *http.Request) (*http.Response, error) {
	st := stateOf(req.Context())
	var sent *sentBody
	if st.r.ReuseBody && req.Response == nil && req.Body != nil {
		// The first hop's body: its memory may take the answer once sent.
		sent = &sentBody{ReadCloser: req.Body}
		req = req.Clone(req.Context())
		req.Body = sent
	}
	var logged []byte
	if req.GetBody != nil {
		logged = st.r.Body
	}
	t.log.request(req, logged)
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	if err == nil {
		defer resp.Body.Close()
		var into []byte
		if sent != nil && resp.StatusCode >= 200 && resp.StatusCode < 300 && sent.closed.Load() {
			into = st.r.Body
		}
		st.answer, err = readBody(resp, into, t.limit)
	}
	if err != nil {
		t.log.failure(err, time.Since(start))
		return nil, err
	}
	t.log.response(resp, st.answer, time.Since(start))
	resp.Body = io.NopCloser(bytes.NewReader(st.answer))
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
		body = heap.Bytes(int(n) + 1) // room for the read that meets the end
	}
	for {
		if len(body) == cap(body) {
			body = append(heap.Bytes(2*cap(body)+512), body...)
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
		te.Message = fmt.Sprintf("no answer from %s within %s", host, c.timeout)
		te.Hint = "raise the time limit with --timeout, or check that the service is up"
	case errors.As(err, new(tls.RecordHeaderError)), errors.Is(err, http.ErrSchemeMismatch):
		te.Message = fmt.Sprintf("TLS handshake with %s failed: the server does not speak TLS", host)
		te.Hint = "use an http:// URL if the service does not serve HTTPS"
	case errors.As(err, new(x509.UnknownAuthorityError)), errors.As(err, new(x509.CertificateInvalidError)),
		errors.As(err, new(x509.HostnameError)), errors.As(err, new(*tls.CertificateVerificationError)):
		te.Message = fmt.Sprintf("TLS certificate of %s not trusted: %s", host, innermost(err))
		te.Hint = "give the service's CA bundle with --ca-cert FILE, or (unsafe) skip the check with --insecure-skip-tls-verify"
	case errors.As(err, &dnsErr):
		te.Message, te.retry = fmt.Sprintf("cannot resolve host %s", dnsErr.Name), !dnsErr.IsNotFound
	case errors.Is(err, syscall.ECONNREFUSED):
		te.Message, te.retry = fmt.Sprintf("connection to %s refused", host), true
		te.Hint = "check the service URL and that the service is up"
	default:
		te.Message = fmt.Sprintf("request to %s failed: %s", host, innermost(err))
		te.retry = !errors.Is(err, errTooLarge) && !errors.Is(err, errTooManyRedirects) && !errors.Is(err, errLoginRedirected)
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
