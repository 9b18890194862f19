package store

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// Secrets docsbot keeps in Redis (a workspace's bot token and refresh
// token) are sealed: AES-256-GCM under the operator's secrets key
// (DOCSBOT_SECRETS_KEY), bound to the record they belong to (its key is the
// additional data, so a sealed token moved to another workspace's record
// does not open). No token text is ever written to Redis.
//
// A sealed value is "s1." and the unpadded base64url of: the first 4 bytes
// of SHA-256 of the key that sealed it, a 12-byte random nonce, the
// ciphertext with its tag. The key id picks the key that opens it, so a
// list of keys rotates: the first seals, every one opens.

// ErrSealed marks a sealed value that does not open: no key of the list
// sealed it, it was changed, or it belongs to another record.
var ErrSealed = errors.New("store: a sealed secret does not open with the secrets keys")

// SealKeySize is the length of a secrets key: 32 bytes (AES-256).
const SealKeySize = 32

const sealPrefix = "s1."

// Sealer seals and opens secrets with a list of keys: the first seals,
// every one opens. Safe for concurrent use.
type Sealer struct {
	keys []sealKey
}

type sealKey struct {
	id   [4]byte
	aead cipher.AEAD
}

// NewSealer is a Sealer over keys, each SealKeySize bytes; the first seals.
func NewSealer(keys ...[]byte) (*Sealer, error) {
	if len(keys) == 0 {
		return nil, fmt.Errorf("store: sealer without a key: %w", ErrInvalid)
	}
	s := &Sealer{}
	for i, k := range keys {
		if len(k) != SealKeySize {
			return nil, fmt.Errorf("store: secrets key %d is %d bytes, want %d: %w", i+1, len(k), SealKeySize, ErrInvalid)
		}
		block, err := aes.NewCipher(k)
		if err != nil {
			return nil, fmt.Errorf("store: secrets key %d: %w", i+1, err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("store: secrets key %d: %w", i+1, err)
		}
		sum := sha256.Sum256(k)
		var id [4]byte
		copy(id[:], sum[:4])
		s.keys = append(s.keys, sealKey{id: id, aead: aead})
	}
	return s, nil
}

// ParseSealKeys reads DOCSBOT_SECRETS_KEY: base64 (standard or URL, padded
// or not) of SealKeySize bytes, or a comma-separated list of them, the
// first sealing. The error never quotes the value.
func ParseSealKeys(s string) ([][]byte, error) {
	var keys [][]byte
	for i, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, err := decodeKey(part)
		if err != nil || len(k) != SealKeySize {
			return nil, fmt.Errorf("store: secrets key %d is not base64 of %d bytes (make one with: openssl rand -base64 32): %w", i+1, SealKeySize, ErrInvalid)
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("store: no secrets key given: %w", ErrInvalid)
	}
	return keys, nil
}

func decodeKey(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if k, err := enc.DecodeString(s); err == nil {
			return k, nil
		}
	}
	return nil, ErrInvalid
}

// Seal seals plain for the record named by aad.
func (s *Sealer) Seal(plain, aad []byte) (string, error) {
	k := s.keys[0]
	nonce := make([]byte, k.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("store: seal: %w", err)
	}
	out := make([]byte, 0, len(k.id)+len(nonce)+len(plain)+k.aead.Overhead())
	out = append(out, k.id[:]...)
	out = append(out, nonce...)
	out = k.aead.Seal(out, nonce, plain, aad)
	return sealPrefix + base64.RawURLEncoding.EncodeToString(out), nil
}

// Open opens what Seal sealed for the record named by aad: ErrSealed when
// no key opens it.
func (s *Sealer) Open(sealed string, aad []byte) ([]byte, error) {
	body, ok := strings.CutPrefix(sealed, sealPrefix)
	if !ok {
		return nil, fmt.Errorf("store: open: not a sealed value: %w", ErrSealed)
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || len(raw) < 4 {
		return nil, fmt.Errorf("store: open: malformed: %w", ErrSealed)
	}
	for _, k := range s.keys {
		if [4]byte(raw[:4]) != k.id {
			continue
		}
		rest := raw[4:]
		if len(rest) < k.aead.NonceSize() {
			break
		}
		plain, err := k.aead.Open(nil, rest[:k.aead.NonceSize()], rest[k.aead.NonceSize():], aad)
		if err != nil {
			return nil, fmt.Errorf("store: open: %w", ErrSealed)
		}
		return plain, nil
	}
	return nil, fmt.Errorf("store: open: sealed with a key not in the list: %w", ErrSealed)
}
