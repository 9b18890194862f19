package docsapi

import "strings"

// KeyPrefix begins every docs API key; a value holding it is a key.
const KeyPrefix = "mint_"

// Mask shows a secret as its kind and its last four characters (mint_…abcd),
// enough to tell secrets apart without revealing one; a short secret shows
// only its kind. kinds are the prefixes that name a kind of secret, such as
// KeyPrefix; a secret of no kind shows "…" and its last four characters.
// Explain masks the API key this way; callers that handle other secrets
// (bot/redact) pass their kinds.
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

// maskKey is the API key as a message shows it: masked, or "(none)".
func maskKey(key string) string {
	if key == "" {
		return "(none)"
	}
	return Mask(key, KeyPrefix)
}

// scrubKey replaces every copy of the API key in s by its masked form.
func scrubKey(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, Mask(key, KeyPrefix))
}
