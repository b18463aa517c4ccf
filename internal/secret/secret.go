// Package secret is the one place that knows which values are secret: the
// names of secret fields, the mask they print as, and how a URL's user
// information is hidden.
package secret

import (
	"net/url"
	"strings"
)

// Mask is what a non-empty secret value is shown as.
const Mask = "********"

// kind tells where a field's value is hidden.
type kind int

const (
	// data: a secret the service keeps (an identity provider's client
	// secret, say), masked in every output unless --show-secrets is given,
	// and in the debug log.
	data kind = iota + 1
	// credential: a credential in transit (a login's password, a token),
	// kept out of the debug log and error messages.
	credential
)

// fields are the secret field names, in the form of fold.
var fields = map[string]kind{
	"clientsecret":      data,
	"bindpassword":      data,
	"tempotpsecret":     data,
	"temprecoverycodes": data,
	"servicekey":        data,
	"password":          credential,
	"token":             credential,
	"accesstoken":       credential,
	"refreshtoken":      credential,
}

// fold appends name to dst in the form fields holds: lower case, with
// underscores and dashes dropped, so that clientSecret, client_secret,
// ClientSecret and CLIENT_SECRET are one name.
func fold(dst []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '_' || c == '-':
		case 'A' <= c && c <= 'Z':
			dst = append(dst, c+'a'-'A')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// lookup returns the kind of the field name. It does not allocate: it runs
// on every key of every answer printed.
func lookup(name string) kind {
	var buf [32]byte
	return fields[string(fold(buf[:0], name))]
}

// IsData reports whether the field name holds a secret the service keeps,
// masked in output unless secrets are asked for.
func IsData(name string) bool { return lookup(name) == data }

// IsField reports whether the field name holds any secret: kept out of the
// debug log and error messages whatever the output flags.
func IsField(name string) bool { return lookup(name) != 0 }

// URL returns raw with the user information hidden: a password becomes
// Mask, and a user name with no password (which may be a token, as in
// http://TOKEN@host) is masked whole. Text that is not a URL is returned as
// it is.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	user := Mask
	if _, ok := u.User.Password(); ok {
		user = url.User(u.User.Username()).String() + ":" + Mask
	}
	u.User = nil
	return u.Scheme + "://" + user + "@" + strings.TrimPrefix(u.String(), u.Scheme+"://")
}
