package docsapi

import "strings"

// KeyPrefix begins every docs API key; a value holding it is a key.
const KeyPrefix = "mint_"

// Mask shows a secret as its kind and its last four characters (mint_…abcd),
// enough to tell secrets apart without revealing one; a short secret shows
// only its kind. kinds are the prefixes that name a kind of secret, such as
// KeyPrefix; a secret of no kind shows "…" and its last four characters.
// Callers that handle other secrets (bot/redact) pass their kinds.
func Mask(s string, kinds ...string) string {
	prefix := ""
	for _, k := range kinds {
		if strings.HasPrefix(s, k) {
			prefix = s[:strings.IndexAny(s+"-", "-_")+1]
			break
		}
	}
	rest := s[len(prefix):]
	if len(rest) < 16 {
		return prefix + "…"
	}
	return prefix + "…" + rest[len(rest)-4:]
}
