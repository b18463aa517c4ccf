package client

import (
	"bytes"
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
)

// response is a received answer, its body read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

// exchange sends r until it gets a 2xx answer, retrying what may be retried,
// and returns the answer, or the error of the last attempt: an *APIError for
// a non-2xx answer, a *TransportError for no answer.
func (c *Client) exchange(ctx context.Context, r *Request, auth string) (*response, error) {
	target := c.URL(r)
	for retry := 0; ; retry++ {
		res, sentNothing, err := c.attempt(ctx, r, target, auth)
		if err == nil && res.status >= 200 && res.status < 300 {
			return res, nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("%s %s: %w", r.Method, r.Path, ctxErr)
		}
		var header http.Header
		what := ""
		retryable := false
		idempotent := r.Method == http.MethodGet || r.Method == http.MethodHead
		if err == nil {
			header = res.header
			what = "HTTP " + statusText(res.status)
			apiErr := parseErrorBody(res.status, res.header.Get("Content-Type"), res.body)
			c.cleanAPIError(apiErr)
			err = apiErr
			retryable = idempotent && retryableStatus(res.status)
		} else {
			var te *TransportError
			if !errors.As(err, &te) {
				return nil, err
			}
			what = te.Message
			retryable = transportRetryable(te) && (idempotent || sentNothing)
		}
		if !retryable {
			if !idempotent && isRetryableStatusOrConn(err) {
				c.log.notef("%s: not retried, %s may have reached the service", what, r.Method)
			}
			return nil, err
		}
		if retry >= c.maxRetries {
			c.log.notef("%s: giving up after %d retries", what, retry)
			return nil, err
		}
		wait := c.backoff(retry, header)
		c.log.notef("%s: retry %d of %d in %s", what, retry+1, c.maxRetries, wait.Round(time.Millisecond))
		if err := sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("%s %s: %w", r.Method, r.Path, err)
		}
	}
}

// isRetryableStatusOrConn reports whether err would have been retried for a GET.
func isRetryableStatusOrConn(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return retryableStatus(apiErr.HTTPStatus)
	}
	var te *TransportError
	return errors.As(err, &te) && transportRetryable(te)
}

// retryableStatus reports whether an answer with status may be retried
// (for a GET): too many requests, or a gateway or service not ready.
func retryableStatus(status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// attempt sends r once, within the per-attempt time limit. sentNothing
// reports a failure to connect, which left the service untouched.
func (c *Client) attempt(ctx context.Context, r *Request, target, auth string) (res *response, sentNothing bool, err error) {
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()

	header := c.requestHeader(r, auth)
	if c.plainRemote && (header.Get("Authorization") != "" || len(c.headers) > 0 || r.Path == loginPath) {
		if u, err := url.Parse(target); err == nil {
			c.warnPlainHTTP(u.Host)
		}
	}
	c.log.request(r.Method, target, header, r.Body)
	start := time.Now()

	req := c.rc.R().SetContext(actx).SetDoNotParseResponse(true)
	req.Header = header
	var sent *sentBody
	if r.Body != nil {
		req.SetBody(bytes.NewReader(r.Body))
		if r.ReuseBody {
			sent = &sentBody{}
			req.SetContext(context.WithValue(actx, sentBodyKey{}, sent))
		}
	}
	resp, err := req.Execute(r.Method, target)
	var raw *http.Response
	if resp != nil {
		raw = resp.RawResponse
	}
	if err == nil && raw == nil {
		err = errors.New("no response")
	}
	if err != nil {
		if raw != nil && raw.Body != nil {
			raw.Body.Close()
		}
		te := c.transportError(ctx, actx, target, err)
		c.log.failure(te, time.Since(start))
		sentNothing := isDialError(err)
		var tErr *TransportError
		if errors.As(te, &tErr) {
			tErr.SentNothing = sentNothing
		}
		return nil, sentNothing, te
	}
	defer raw.Body.Close()
	var into []byte // memory the answer may be read into
	if sent != nil && raw.StatusCode >= 200 && raw.StatusCode < 300 && sent.done(raw.Request) {
		into = r.Body
	}
	body, err := readBody(raw, into)
	if err != nil {
		te := c.transportError(ctx, actx, target, err)
		c.log.failure(te, time.Since(start))
		return nil, false, te
	}
	c.log.response(raw.Status, raw.Header, body, time.Since(start))
	return &response{status: raw.StatusCode, header: raw.Header, body: body}, false, nil
}

// requestHeader returns the headers of one attempt.
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

// maxPreallocated bounds the buffer allocated ahead on a Content-Length.
const maxPreallocated = 256 << 20

// readBody reads a response body whole, in one allocation when its length
// is known, or none when into (memory free for it) is large enough.
func readBody(resp *http.Response, into []byte) ([]byte, error) {
	if n := resp.ContentLength; n >= 0 && n <= maxPreallocated {
		var body []byte
		if int64(cap(into)) >= n {
			body = into[:n]
		} else {
			body = make([]byte, n)
		}
		if _, err := io.ReadFull(resp.Body, body); err != nil {
			return nil, fmt.Errorf("read response body: %w", err)
		}
		return body, nil
	}
	if into == nil {
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, fmt.Errorf("read response body: %w", err)
		}
		return body, nil
	}
	body := into[:0]
	for {
		if len(body) == cap(body) {
			body = append(body, 0)[:len(body)] // full: grow elsewhere
		}
		n, err := resp.Body.Read(body[len(body):cap(body)])
		body = body[:len(body)+n]
		switch {
		case err == io.EOF:
			return body, nil
		case err != nil:
			return nil, fmt.Errorf("read response body: %w", err)
		}
	}
}

// sentBody stands for the body of a request whose memory may hold the
// answer (Request.ReuseBody): it passes the body to the transport and
// tells when the transport has closed it, after which the transport reads
// no more of it.
type sentBody struct {
	body   io.ReadCloser
	closed atomic.Bool
}

func (b *sentBody) Read(p []byte) (int, error) { return b.body.Read(p) }

func (b *sentBody) Close() error {
	err := b.body.Close()
	b.closed.Store(true)
	return err
}

// done reports whether the answer to final, the last request sent, may be
// read into the body's memory: final is the request this body went with
// (no redirect sent the body again) and the transport is done with it.
func (b *sentBody) done(final *http.Request) bool {
	return final != nil && final.Body == io.ReadCloser(b) && b.closed.Load()
}

// sentBodyKey is the context key of a request's sentBody.
type sentBodyKey struct{}

// watchBody runs just before each request is sent: it puts the sentBody of
// a request that asked for one between the transport and the body, which
// resty has already measured and made rereadable.
func watchBody(_ *resty.Client, req *http.Request) error {
	if b, ok := req.Context().Value(sentBodyKey{}).(*sentBody); ok && req.Body != nil && req.Body != http.NoBody {
		b.body = req.Body
		req.Body = b
	}
	return nil
}

// transportError describes a request that got no answer.
func (c *Client) transportError(ctx, actx context.Context, target string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	host := target
	if u, perr := url.Parse(target); perr == nil {
		host = u.Host
	}
	te := &TransportError{Err: err}
	var (
		dnsErr      *net.DNSError
		unknownAuth x509.UnknownAuthorityError
		invalidCert x509.CertificateInvalidError
		hostErr     x509.HostnameError
		verifyErr   *tls.CertificateVerificationError
		recordErr   tls.RecordHeaderError
	)
	switch {
	case errors.Is(actx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		te.Timeout = true
		te.Message = fmt.Sprintf("no answer from %s within %s", host, c.timeout)
		te.Hint = "raise the time limit with --timeout, or check that the service is up"
	case errors.As(err, &unknownAuth), errors.As(err, &invalidCert), errors.As(err, &hostErr), errors.As(err, &verifyErr):
		te.Message = fmt.Sprintf("TLS certificate of %s not trusted: %s", host, innermost(err))
		te.Hint = "give the service's CA bundle with --ca-cert FILE, or (unsafe) skip the check with --insecure-skip-tls-verify"
	case errors.As(err, &recordErr), errors.Is(err, http.ErrSchemeMismatch):
		te.Message = fmt.Sprintf("TLS handshake with %s failed: the server does not speak TLS", host)
		te.Hint = "use an http:// URL if the service does not serve HTTPS"
	case errors.As(err, &dnsErr):
		te.Message = fmt.Sprintf("cannot resolve host %s", dnsErr.Name)
	case errors.Is(err, syscall.ECONNREFUSED):
		te.Message = fmt.Sprintf("connection to %s refused", host)
		te.Hint = "check the service URL and that the service is up"
	default:
		te.Message = fmt.Sprintf("request to %s failed: %s", host, innermost(err))
	}
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

// transportRetryable reports whether a failure without answer is worth a
// retry: not a timeout, a TLS failure or a host that does not exist.
func transportRetryable(te *TransportError) bool {
	if te.Timeout {
		return false
	}
	var (
		dnsErr      *net.DNSError
		unknownAuth x509.UnknownAuthorityError
		invalidCert x509.CertificateInvalidError
		hostErr     x509.HostnameError
		verifyErr   *tls.CertificateVerificationError
		recordErr   tls.RecordHeaderError
	)
	switch {
	case errors.As(te.Err, &dnsErr):
		return !dnsErr.IsNotFound
	case errors.As(te.Err, &unknownAuth), errors.As(te.Err, &invalidCert), errors.As(te.Err, &hostErr),
		errors.As(te.Err, &verifyErr), errors.As(te.Err, &recordErr), errors.Is(te.Err, http.ErrSchemeMismatch),
		errors.Is(te.Err, errTooManyRedirects):
		return false
	}
	return true
}

// backoff returns the wait before retry number retry+1: the Retry-After of
// the answer when it has one, else RetryWait doubled at each retry, with
// jitter; never more than MaxRetryWait.
func (c *Client) backoff(retry int, header http.Header) time.Duration {
	if d, ok := parseRetryAfter(header.Get("Retry-After"), time.Now()); ok {
		return min(d, c.maxRetryWait)
	}
	d := c.retryWait
	for i := 0; i < retry && d < c.maxRetryWait; i++ {
		d *= 2
	}
	d = min(d, c.maxRetryWait)
	// Jitter: somewhere in [d/2, 3d/2).
	if d > 1 {
		d = d/2 + rand.N(d)
	}
	return min(d, c.maxRetryWait)
}

// parseRetryAfter reads a Retry-After header: seconds, or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(24*time.Hour/time.Second) {
			secs = int64(24 * time.Hour / time.Second)
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// errTooManyRedirects ends a redirect loop; it is not retried.
var errTooManyRedirects = fmt.Errorf("stopped after %d redirects", maxRedirects)

// checkRedirect follows at most 10 redirects and keeps the credentials and
// the extra headers off any origin other than the first request's.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > maxRedirects {
		return errTooManyRedirects
	}
	foreign := !sameOrigin(via[0].URL, req.URL)
	for _, prev := range via[1:] {
		foreign = foreign || !sameOrigin(via[0].URL, prev.URL)
	}
	if foreign {
		for _, name := range []string{"Authorization", "Cookie", "Proxy-Authorization"} {
			req.Header.Del(name)
		}
		for name := range c.headers {
			req.Header.Del(name)
		}
	}
	c.log.redirect(req.URL, foreign)
	return nil
}

// sameOrigin reports whether two URLs share scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) &&
		effectivePort(a) == effectivePort(b)
}

// effectivePort returns the port of u, the scheme's default when none is given.
func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}
