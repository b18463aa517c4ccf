package client

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestRedactJSON_hidesSecretFieldsAtAnyDepth(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "top level", in: `{"email":"a@x.com","password":"hunter2"}`, want: `{"email":"a@x.com","password":"********"}`},
		{name: "odd spacing", in: "{ \"token\" :\n \"abc\" , \"x\": 1}", want: "{ \"token\" :\n \"********\" , \"x\": 1}"},
		{name: "nested", in: `{"config":{"oauth2Config":{"clientId":"id","clientSecret":"s3"}}}`,
			want: `{"config":{"oauth2Config":{"clientId":"id","clientSecret":"********"}}}`},
		{name: "array value", in: `{"tempRecoveryCodes":["a","b"],"mfaEnabled":true}`, want: `{"tempRecoveryCodes":"********","mfaEnabled":true}`},
		{name: "object value", in: `{"serviceKey":{"k":"v"},"n":1}`, want: `{"serviceKey":"********","n":1}`},
		{name: "number value", in: `{"bindPassword":12345}`, want: `{"bindPassword":"********"}`},
		{name: "escaped quote inside the secret", in: `{"password":"a\"b","c":"d"}`, want: `{"password":"********","c":"d"}`},
		{name: "key in another case", in: `{"Password":"x","TOKEN":"y"}`, want: `{"Password":"********","TOKEN":"********"}`},
		{name: "escaped key", in: `{"pass\u0077ord":"x"}`, want: `{"pass\u0077ord":"********"}`},
		{name: "a value that looks like a key is kept", in: `{"name":"password"}`, want: `{"name":"password"}`},
		{name: "truncated inside the secret", in: `{"a":1,"tempOtpSecret":"JBSWY3DP`, want: `{"a":1,"tempOtpSecret":"********"`},
		{name: "truncated before the value", in: `{"token": `, want: `{"token": "********"`},
		{name: "truncated array", in: `{"tempRecoveryCodes":["aaa","bb`, want: `{"tempRecoveryCodes":"********"`},
		{name: "truncated after JSON quoted in a message", in: `{"message":"echo {\"tempRecoveryCodes\":[\"a\"],\"n\":1}","x":[1,`,
			want: `{"message":"echo {\"tempRecoveryCodes\":\"********\",\"n\":1}","x":[1,`},
		{name: "truncated inside JSON quoted in a message", in: `{"message":"echo {\"token\":{\"a\":\"}\"},\"n\":1,\"serviceKey\":[\"abc`,
			want: `{"message":"echo {\"token\":\"********\",\"n\":1,\"serviceKey\":\"********\"`},
		{name: "JSON quoted in a message", in: `{"message":"bad request {\"password\": \"hunter2\"}"}`,
			want: `{"message":"bad request {\"password\": \"********\"}"}`},
		{name: "not JSON, unbalanced quote first", in: `oops " "token": "abc", "x": 1`, want: `oops " "token": "********", "x": 1`},
		{name: "many secrets", in: `[{"token":"a"},{"token":"b"}]`, want: `[{"token":"********"},{"token":"********"}]`},
		{name: "no secrets", in: `{"users":[{"name":"users/a"}]}`, want: `{"users":[{"name":"users/a"}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(redactJSON([]byte(tc.in))); got != tc.want {
				t.Errorf("redactJSON(%s)\n got %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestRedactJSON_keepsValidJSONValid(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "array", in: `{"tempRecoveryCodes":["a","b"],"n":1}`, want: `{"tempRecoveryCodes":"********","n":1}`},
		{name: "empty array", in: `{"tempRecoveryCodes":[]}`, want: `{"tempRecoveryCodes":"********"}`},
		{name: "object", in: `{"serviceKey":{"k":["v",{"w":1}]}}`, want: `{"serviceKey":"********"}`},
		{name: "number", in: `{"bindPassword":-12.5e3}`, want: `{"bindPassword":"********"}`},
		{name: "true", in: `{"token":true}`, want: `{"token":"********"}`},
		{name: "null", in: `{"token":null}`, want: `{"token":"********"}`},
		{name: "spaced", in: "[{\"password\" : [ 1 , 2 ] }]", want: "[{\"password\" : \"********\" }]"},
		{name: "array in JSON quoted in a string", in: `{"message":"echo {\"tempRecoveryCodes\":[\"a\"],\"n\":1}"}`,
			want: `{"message":"echo {\"tempRecoveryCodes\":\"********\",\"n\":1}"}`},
		{name: "number in JSON quoted in a string", in: `{"message":"echo {\"bindPassword\": 7}"}`,
			want: `{"message":"echo {\"bindPassword\": \"********\"}"}`},
		{name: "object in JSON quoted twice", in: `{"m":"{\"m\":\"{\\\"token\\\":{\\\"a\\\":1}}\"}"}`,
			want: `{"m":"{\"m\":\"{\\\"token\\\":\\\"********\\\"}\"}"}`},
		{name: "quoted array cut short by the end of its string", in: `{"message":"echo {\"password\":[1,2","n":1}`,
			want: `{"message":"echo {\"password\":\"********\"","n":1}`},
		{name: "quoted array holding brackets and backslashes in strings", in: `{"m":"{\"token\":[\"]}\\\\\",\"\\\"]\"],\"n\":1}"}`,
			want: `{"m":"{\"token\":\"********\",\"n\":1}"}`},
		{name: "a key ending in a backslash is another key", in: `{"password\\":[1]}`, want: `{"password\\":[1]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !json.Valid([]byte(tc.in)) {
				t.Fatalf("the input %s is not JSON", tc.in)
			}
			got := redactJSON([]byte(tc.in))
			if string(got) != tc.want {
				t.Errorf("redactJSON(%s)\n got %s\nwant %s", tc.in, got, tc.want)
			}
			if !json.Valid(got) {
				t.Errorf("redactJSON(%s) = %s, not JSON", tc.in, got)
			}
		})
	}
}

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
	if _, _, err := c.BatchGetUsers(context.Background(), []string{"a@x.com"}); err != nil {
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
	if _, _, err := c.BatchGetUsers(context.Background(), []string{"a@x.com"}); err == nil {
		t.Fatal("want the 400")
	}
	if _, _, err := c.BatchGetUsers(context.Background(), []string{"a@x.com"}); err != nil {
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
