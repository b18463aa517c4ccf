package schema_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

func TestDump_theFormTheReleaseReadsBack(t *testing.T) {
	const text = "CREATE TABLE \"public\".\"orders\" (\n  \"id\" bigint NOT NULL\n);\n"
	sdl := `{"schema": "` + base64.StdEncoding.EncodeToString([]byte(text)) + `", "contentType": "text/plain"}`
	tests := []struct {
		release, engine, path, answer string
	}{
		{"3.14.1", "", "/schema", `{"schema": "` + "CREATE TABLE \\\"public\\\".\\\"orders\\\" (\\n  \\\"id\\\" bigint NOT NULL\\n);\\n" + `"}`},
		{"3.17.0", "POSTGRES", "/sdlSchema", sdl},
		{"3.17.0", "MYSQL", "/schema", `{"schema": "CREATE TABLE \"public\".\"orders\" (\n  \"id\" bigint NOT NULL\n);\n"}`},
		{"3.21.1", "MYSQL", "/sdlSchema", sdl},
	}
	for _, tt := range tests {
		t.Run(tt.release+" "+tt.engine, func(t *testing.T) {
			reg := httpmock.New(t)
			if tt.engine != "" {
				reg.Register(http.MethodGet, "/v1/instances/prod-pg", 200, `{"engine": "`+tt.engine+`"}`)
			}
			reg.Register(http.MethodGet, "/v1/instances/prod-pg/databases/orders"+tt.path, 200, tt.answer)
			opts := cmdtest.Options{URL: reg.URL(), Env: map[string]string{"DBGOV_SERVER_VERSION": tt.release}}
			args := []string{"schema", "dump", "--instance", "prod-pg", "--database", "orders"}
			if res := cmdtest.Run(t, opts, args...).Expect(t, 0); res.Stdout != text {
				t.Errorf("stdout %q, want %q", res.Stdout, text)
			}
			if res := cmdtest.Run(t, opts, append(args, "-o", "json")...).Expect(t, 0); !jsonEqual(res.Stdout, tt.answer) {
				t.Errorf("-o json %s, want the answer %s", res.Stdout, tt.answer)
			}
		})
	}
}

func TestDump_anAnswerThatIsNotBase64IsInvalid(t *testing.T) {
	reg := httpmock.New(t)
	reg.Register(http.MethodGet, "/v1/instances/prod-pg", 200, `{"engine": "POSTGRES"}`)
	reg.Register(http.MethodGet, "/v1/instances/prod-pg/databases/orders/sdlSchema", 200, `{"schema": "not base64!"}`)
	cmdtest.Run(t, cmdtest.Options{URL: reg.URL(), Env: map[string]string{"DBGOV_SERVER_VERSION": "3.21.1"}},
		"schema", "dump", "--instance", "prod-pg", "--database", "orders").Expect(t, 1).StderrHas(t, "schema is not base64")
}

// jsonEqual reports whether a and b are the same JSON value.
func jsonEqual(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}
