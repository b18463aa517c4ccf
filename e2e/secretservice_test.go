package e2e_test

import (
	"bufio"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// The Secret Service API (freedesktop.org) as go-keyring uses it.
const (
	secretsName    = "org.freedesktop.secrets"
	secretsPath    = dbus.ObjectPath("/org/freedesktop/secrets")
	collectionPath = dbus.ObjectPath("/org/freedesktop/secrets/collection/login")
	sessionPath    = dbus.ObjectPath("/org/freedesktop/secrets/session/1")
	noPrompt       = dbus.ObjectPath("/")
)

// secretService is a Secret Service of the test's own, on a private D-Bus
// session bus: the dbgov binary reaches it through go-keyring as it would
// the desktop's keyring, and the test sees every secret it holds.
type secretService struct {
	address string // for DBUS_SESSION_BUS_ADDRESS

	mu    sync.Mutex
	items map[dbus.ObjectPath]secretItem
	next  int
}

type secretItem struct {
	attrs  map[string]string
	secret []byte
}

// secretValue is the Secret struct of the API, (oayays).
type secretValue struct {
	Session     dbus.ObjectPath
	Parameters  []byte
	Value       []byte
	ContentType string
}

// startSecretService runs a private dbus-daemon holding a Secret Service,
// stopped when the test ends. Without Linux and dbus-daemon the test is
// skipped (its in-process twin in cmd/auth runs on go-keyring's mock).
func startSecretService(t *testing.T) *secretService {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	if runtime.GOOS != "linux" || err != nil {
		t.Skipf("no D-Bus session bus to run a Secret Service on (%s): %v", runtime.GOOS, err)
	}
	s := &secretService{address: "unix:path=" + filepath.Join(t.TempDir(), "bus"), items: map[dbus.ObjectPath]secretItem{}}
	cmd := exec.Command(daemon, "--session", "--nofork", "--print-address=1", "--address="+s.address)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start dbus-daemon: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	ready := make(chan struct{})
	go func() {
		bufio.NewReader(out).ReadString('\n') // the address, once it listens
		close(ready)
	}()
	select {
	case <-ready:
	case <-time.After(startTimeout):
		t.Fatalf("dbus-daemon did not start within %s", startTimeout)
	}
	conn, err := dbus.Connect(s.address)
	if err != nil {
		t.Fatalf("connect to the test's bus: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	if reply, err := conn.RequestName(secretsName, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v (%v)", secretsName, reply, err)
	}
	for _, e := range []struct {
		v       any
		path    dbus.ObjectPath
		iface   string
		subtree bool
	}{
		{secretsAPI{s}, secretsPath, "org.freedesktop.Secret.Service", false},
		{secretsAPI{s}, secretsPath, "org.freedesktop.DBus.Properties", false},
		{secretsAPI{s}, collectionPath, "org.freedesktop.Secret.Collection", false},
		{itemAPI{s}, collectionPath, "org.freedesktop.Secret.Item", true},
		{secretsAPI{s}, sessionPath, "org.freedesktop.Secret.Session", false},
	} {
		export := conn.Export
		if e.subtree {
			export = conn.ExportSubtree
		}
		if err := export(e.v, e.path, e.iface); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// secrets returns the secrets held, by "service/user" as go-keyring names them.
func (s *secretService) secrets() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]string{}
	for _, it := range s.items {
		out[it.attrs["service"]+"/"+it.attrs["username"]] = string(it.secret)
	}
	return out
}

// set replaces a secret held, as another program might.
func (s *secretService) set(t *testing.T, name, secret string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for path, it := range s.items {
		if it.attrs["service"]+"/"+it.attrs["username"] == name {
			s.items[path] = secretItem{attrs: it.attrs, secret: []byte(secret)}
			return
		}
	}
	t.Fatalf("the keyring holds no %s", name)
}

// secretsAPI answers the service, its properties, the collection and the session.
type secretsAPI struct{ s *secretService }

func (secretsAPI) OpenSession(string, dbus.Variant) (dbus.Variant, dbus.ObjectPath, *dbus.Error) {
	return dbus.MakeVariant(""), sessionPath, nil
}

func (secretsAPI) Unlock(objects []dbus.ObjectPath) ([]dbus.ObjectPath, dbus.ObjectPath, *dbus.Error) {
	return objects, noPrompt, nil
}

func (secretsAPI) Close() *dbus.Error { return nil }

// Get is org.freedesktop.DBus.Properties.Get: the one collection.
func (secretsAPI) Get(iface, property string) (dbus.Variant, *dbus.Error) {
	if iface == "org.freedesktop.Secret.Service" && property == "Collections" {
		return dbus.MakeVariant([]dbus.ObjectPath{collectionPath}), nil
	}
	return dbus.Variant{}, dbus.MakeFailedError(fmt.Errorf("no property %s.%s", iface, property))
}

func (a secretsAPI) CreateItem(props map[string]dbus.Variant, secret secretValue, replace bool) (dbus.ObjectPath, dbus.ObjectPath, *dbus.Error) {
	attrs, ok := props["org.freedesktop.Secret.Item.Attributes"].Value().(map[string]string)
	if !ok {
		return "", noPrompt, dbus.MakeFailedError(fmt.Errorf("attributes of type %T", props["org.freedesktop.Secret.Item.Attributes"].Value()))
	}
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	for path, it := range a.s.items {
		if replace && maps.Equal(it.attrs, attrs) {
			a.s.items[path] = secretItem{attrs: attrs, secret: secret.Value}
			return path, noPrompt, nil
		}
	}
	a.s.next++
	path := dbus.ObjectPath(fmt.Sprintf("%s/%d", collectionPath, a.s.next))
	a.s.items[path] = secretItem{attrs: attrs, secret: secret.Value}
	return path, noPrompt, nil
}

func (a secretsAPI) SearchItems(attrs map[string]string) ([]dbus.ObjectPath, *dbus.Error) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	var found []dbus.ObjectPath
	for path, it := range a.s.items {
		match := true
		for k, v := range attrs {
			match = match && it.attrs[k] == v
		}
		if match {
			found = append(found, path)
		}
	}
	return found, nil
}

// itemAPI answers the items, whatever their path.
type itemAPI struct{ s *secretService }

func (a itemAPI) item(msg dbus.Message) (dbus.ObjectPath, *secretItem, *dbus.Error) {
	path, _ := msg.Headers[dbus.FieldPath].Value().(dbus.ObjectPath)
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	it, ok := a.s.items[path]
	if !ok {
		return path, nil, dbus.MakeFailedError(fmt.Errorf("no item %s", path))
	}
	return path, &it, nil
}

func (a itemAPI) GetSecret(msg dbus.Message, session dbus.ObjectPath) (secretValue, *dbus.Error) {
	_, it, err := a.item(msg)
	if err != nil {
		return secretValue{}, err
	}
	return secretValue{Session: session, Parameters: []byte{}, Value: it.secret, ContentType: "text/plain"}, nil
}

func (a itemAPI) Delete(msg dbus.Message) (dbus.ObjectPath, *dbus.Error) {
	path, _, err := a.item(msg)
	if err == nil {
		a.s.mu.Lock()
		delete(a.s.items, path)
		a.s.mu.Unlock()
	}
	return noPrompt, err
}
