package credstore

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/dbgov/dbgov/internal/safefile"
)

// serverTTL is how long a service's description is trusted: a service is
// rarely upgraded, and an hour-old guess is soon corrected.
const serverTTL = time.Hour

// ServerCache keeps the description a service gives of itself (its answer to
// GET /v1/actuator/info) for an hour, in a 0600 file of the cache directory
// named by the service URL (see safefile). A failure to read or write it
// only costs a request.
type ServerCache struct {
	path string // "" for none
}

// NewServerCache returns the cache of the service at url, in dir ("" for none).
func NewServerCache(dir, url string) *ServerCache {
	if dir == "" {
		return &ServerCache{}
	}
	id := sha256.Sum256([]byte(SameService(url)))
	return &ServerCache{path: filepath.Join(dir, "server-"+hex.EncodeToString(id[:])+".json")}
}

// cachedServer is the file's content.
type cachedServer struct {
	Info  json.RawMessage `json:"info"`
	Until time.Time       `json:"until"`
}

// Get returns the kept description while it is fresh, else nil.
func (c *ServerCache) Get() []byte {
	if c.path == "" {
		return nil
	}
	raw, _, err := safefile.ReadFile(c.path, maxEntry)
	var s cachedServer
	if err != nil || json.Unmarshal(raw, &s) != nil || !time.Now().Before(s.Until) {
		return nil
	}
	return s.Info
}

// Put keeps info, which the service just gave.
func (c *ServerCache) Put(info []byte) {
	if raw, err := json.Marshal(cachedServer{Info: info, Until: time.Now().Add(serverTTL)}); c.path != "" && err == nil {
		_ = safefile.WriteFile(c.path, raw)
	}
}
