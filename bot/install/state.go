package install

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
	"time"
)

// The state of an install. GET /slack/install makes one and sets it in a
// cookie of the browser; Slack sends it back to /slack/oauth_redirect,
// which accepts it only when it is docsbot's (signed), within stateLife,
// the browser's (the cookie's) and not used before (a mark in Redis):
// anything else is refused before Slack is asked anything.
//
// A state is the unpadded base64url of a 16-byte random nonce and its
// expiry (unix seconds, 8 bytes), a dot, and the base64url of the
// HMAC-SHA256 of that first part under a key derived from the secrets key.

// stateLife is how long a state may be used (Bolt's ten minutes).
const stateLife = 10 * time.Minute

// stateCookie is the cookie that binds a state to the browser it was made
// for.
const stateCookie = "docsbot_install_state"

// errState marks a state that is missing, forged, expired, another
// browser's or used.
var errState = errors.New("install: the install link is not valid")

// stateSigner signs and checks states.
type stateSigner struct{ key []byte }

// newStateSigner derives the states' key from the secrets key.
func newStateSigner(secretsKey []byte) stateSigner {
	m := hmac.New(sha256.New, secretsKey)
	m.Write([]byte("docsbot install state v1"))
	return stateSigner{key: m.Sum(nil)}
}

// make returns a new state, valid until now+stateLife, and its nonce.
func (s stateSigner) make(now time.Time) (state, nonce string) {
	raw := make([]byte, 24)
	_, _ = rand.Read(raw[:16])
	binary.BigEndian.PutUint64(raw[16:], uint64(now.Add(stateLife).Unix()))
	body := base64.RawURLEncoding.EncodeToString(raw)
	return body + "." + s.sign(body), base64.RawURLEncoding.EncodeToString(raw[:16])
}

func (s stateSigner) sign(body string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(body))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// check returns the nonce of state when it is signed and not expired at
// now; errState otherwise.
func (s stateSigner) check(state string, now time.Time) (nonce string, err error) {
	body, sig, ok := strings.Cut(state, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(s.sign(body))) {
		return "", errState
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || len(raw) != 24 {
		return "", errState
	}
	if now.Unix() >= int64(binary.BigEndian.Uint64(raw[16:])) {
		return "", errState
	}
	return base64.RawURLEncoding.EncodeToString(raw[:16]), nil
}
