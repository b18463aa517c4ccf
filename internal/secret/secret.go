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

// fields are the secret field names, in the folded form of lookup.
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

// lookup finds the kind of the field name, folded first to the form fields
// holds: lower case, with underscores and dashes dropped, so that
// clientSecret, client_secret, ClientSecret and CLIENT_SECRET are one name.
// It does not allocate: it runs on every key of every answer printed.
func lookup(name string) kind {
	var folded [32]byte
	n := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '-':
			continue
		case n == len(folded):
			return 0 // longer than any secret field name
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		folded[n] = c
		n++
	}
	return fields[string(folded[:n])]
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
