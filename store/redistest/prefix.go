package redistest

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"
)

// maxNameLen bounds the part of a prefix taken from the test name.
const maxNameLen = 40

// Prefix returns a key prefix unique to the test, such as
// "t:TestClaim_exclusive:3f9a1c2b:", so that parallel tests can share one server.
func Prefix(tb testing.TB) string {
	tb.Helper()
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		tb.Fatalf("redistest: random prefix: %v", err)
	}
	return "t:" + sanitize(tb.Name()) + ":" + hex.EncodeToString(b[:]) + ":"
}

// sanitize keeps letters, digits, '_' and '-' of a test name, turning anything
// else (the '/' of subtests, spaces, braces, colons) into '_'.
func sanitize(name string) string {
	var sb strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			sb.WriteRune(r)
		default:
			sb.WriteByte('_')
		}
		if sb.Len() >= maxNameLen {
			break
		}
	}
	return sb.String()
}
