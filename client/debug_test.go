package client

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
)

func TestDebugLog_neverShowsCredentials(t *testing.T) {
	const (
		clientSecret = "oauth-client-secret-SECRET"
		bindPassword = "ldap-bind-SECRET"
		otp          = "JBSWY3DPEHPK3PXP-SECRET"
		recovery     = "recovery-code-SECRET"
		cookie       = "sid-cookie-SECRET"
	)
	svc := newFakeService(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch {
		case r.URL.Path == loginPath:
			w.Header().Set("Set-Cookie", "session="+cookie+"; HttpOnly")
			answer(w, http.StatusOK, `{"token":"`+testLoginToken+`","user":{"name":"users/`+testAccount+`"}}`)
		case n == 1:
			// The service echoes a credential in an error, as some do.
			answer(w, http.StatusServiceUnavailable, `{"code":14,"message":"upstream rejected Bearer `+testLoginToken+` and key `+testKey+`"}`)
		case r.URL.Path == "/v1/idps":
			answer(w, http.StatusOK, `{"identityProviders":[{"name":"idps/g","config":{"oauth2Config":{"clientSecret":"`+clientSecret+`"},
				"ldapConfig":{"bindPassword":"`+bindPassword+`"}}}]}`)
		default:
			answer(w, http.StatusOK, `{"users":[{"name":"users/a@x.com","tempOtpSecret":"`+otp+`","tempRecoveryCodes":["`+recovery+`"]}]}`)
		}
	})
	var log bytes.Buffer
	c := newTestClient(t, svc.URL, func(o *Options) {
		o.Token, o.ServiceAccount, o.ServiceKey = "", testAccount, testKey
		o.Headers = http.Header{"X-Proxy-Auth": {testProxyValue}, "Cookie": {"c=" + cookie}}
		o.Debug = &log
	})
	if _, _, err := batchGetUsers(context.Background(), c, []string{"a@x.com"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.ListIdentityProviders(context.Background()); err != nil {
		t.Fatal(err)
	}
	out := log.String()
	for _, secret := range []string{testKey, testLoginToken, testProxyValue, clientSecret, bindPassword, otp, recovery, cookie, "SECRET"} {
		if strings.Contains(out, secret) {
			t.Errorf("the debug log shows %q:\n%s", secret, out)
		}
	}
	for _, want := range []string{
		"> POST " + svc.URL + "/v1/auth/login\n",
		`"password":"********"`,
		"< 200 OK (",
		"< Set-Cookie: ********\n",
		"> Authorization: ********\n",
		"> X-Proxy-Auth: ********\n",
		"> Cookie: ********\n",
		"> GET " + svc.URL + "/v1/users:batchGet?names=users%2Fa%40x.com\n",
		"< 503 Service Unavailable (",
		"* HTTP 503 Service Unavailable: retry 1 of 3 in ",
		`"tempRecoveryCodes":"********"`,
		"* logging in as service account " + testAccount + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the debug log lacks %q:\n%s", want, out)
		}
	}
}

func TestDebugLog_tokenGivenDirectlyIsHidden(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusUnauthorized, `{"code":16,"message":"token `+testToken+` expired"}`))
	var log bytes.Buffer
	c := newTestClient(t, svc.URL, func(o *Options) { o.Debug = &log })
	if _, _, err := c.UndeleteUser(context.Background(), "a@x.com"); err == nil {
		t.Fatal("want an error")
	}
	out := log.String()
	if strings.Contains(out, testToken) || !strings.Contains(out, "token ******** expired") {
		t.Errorf("debug log:\n%s", out)
	}
	if !strings.Contains(out, "> POST "+svc.URL+"/v1/users/a@x.com:undelete\n") || !strings.Contains(out, `{"name":"users/a@x.com"}`) {
		t.Errorf("the request is not logged:\n%s", out)
	}
}

func TestDebugLog_truncatesLargeBodiesAndEscapesControls(t *testing.T) {
	big := `{"users":[` + strings.Repeat(`{"name":"users/u@x.com"},`, 10000) + `{"title":"x"}]}`
	svc := newFakeService(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n == 0 {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte("no \x1b]0;title\x07 \x1b[2J\xff\u202e"))
			return
		}
		answer(w, http.StatusOK, big)
	})
	var log bytes.Buffer
	c := newTestClient(t, svc.URL, func(o *Options) { o.Debug = &log })
	if _, _, err := batchGetUsers(context.Background(), c, []string{"a@x.com"}); err == nil {
		t.Fatal("want the 400")
	}
	if _, _, err := batchGetUsers(context.Background(), c, []string{"a@x.com"}); err != nil {
		t.Fatal(err)
	}
	out := log.String()
	if !strings.Contains(out, "[body truncated: ") {
		t.Errorf("no truncation note")
	}
	if len(out) > maxLoggedBody+4096 {
		t.Errorf("the log is %d bytes", len(out))
	}
	if strings.ContainsRune(out, 0x1b) || strings.ContainsRune(out, 0x07) {
		t.Errorf("the log holds raw control characters")
	}
	if !strings.Contains(out, `no \x1b]0;title\x07 \x1b[2J\xff\u202e`) {
		t.Errorf("the body is not shown escaped:\n%s", out[:min(len(out), 2000)])
	}
}

func TestDebugLog_userInfoOfTheURLIsHidden(t *testing.T) {
	svc := newFakeService(t, answerWith(http.StatusOK, `{}`))
	var log bytes.Buffer
	base := strings.Replace(svc.URL, "http://", "http://admin:"+testProxyValue+"@", 1)
	c := newTestClient(t, base, func(o *Options) { o.Debug = &log })
	if _, _, err := c.ListIdentityProviders(context.Background()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), testProxyValue) {
		t.Errorf("debug log:\n%s", log.String())
	}
}
