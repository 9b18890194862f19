package docsapi

import (
	"regexp"
	"strings"
)

// Suggestion is a follow-up the assistant proposes: a label and the docs
// path it leads to.
type Suggestion struct {
	Label string
	Path  string
}

// suggestionLink matches "(label)[/path]", the form of the assistant's
// suggestions block, and the usual markdown "[label](/path)".
var suggestionLink = regexp.MustCompile(`^(?:\((.+)\)\[(.+)\]|\[(.+)\]\((.+)\))$`)

// ExtractSuggestions takes the fenced code blocks tagged "suggestions" out of
// an answer's markdown ([ext] in the spec: one "(label)[/path]" link per
// line) and returns the text without them and the suggestions, in order.
// Lines of a block that are no link are dropped; a block left open by a cut
// answer runs to the end. Other code blocks are kept as they are, even when
// they hold a suggestions fence.
func ExtractSuggestions(markdown string) (text string, suggestions []Suggestion) {
	lines := strings.Split(markdown, "\n")
	kept := make([]string, 0, len(lines))
	var fence string // the open fence's marker, "" outside any block
	inSuggestions := false
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if isClosingFence(trimmed, fence) {
				fence = ""
				if inSuggestions {
					inSuggestions = false
					continue
				}
			} else if inSuggestions {
				if sg, ok := parseSuggestion(trimmed); ok {
					suggestions = append(suggestions, sg)
				}
				continue
			}
			kept = append(kept, line)
			continue
		}
		if marker, info, ok := openingFence(line); ok {
			fence = marker
			if strings.EqualFold(firstWord(info), "suggestions") {
				inSuggestions = true
				continue
			}
		}
		kept = append(kept, line)
	}
	text = strings.Join(kept, "\n")
	for strings.Contains(text, "\n\n\n") {
		text = strings.ReplaceAll(text, "\n\n\n", "\n\n")
	}
	return strings.TrimSpace(text), suggestions
}

// openingFence reads a fence line: up to three spaces, then three or more
// backticks or tildes, then the info string.
func openingFence(line string) (marker, info string, ok bool) {
	indent := len(line) - len(strings.TrimLeft(line, " "))
	if indent > 3 {
		return "", "", false
	}
	rest := line[indent:]
	if rest == "" || (rest[0] != '`' && rest[0] != '~') {
		return "", "", false
	}
	n := len(rest) - len(strings.TrimLeft(rest, rest[:1]))
	if n < 3 {
		return "", "", false
	}
	info = strings.TrimSpace(rest[n:])
	if rest[0] == '`' && strings.Contains(info, "`") {
		return "", "", false
	}
	return rest[:n], info, true
}

// isClosingFence reports whether a trimmed line closes a block opened by
// marker: the same character, at least as many, nothing after.
func isClosingFence(trimmed, marker string) bool {
	if len(trimmed) < len(marker) || trimmed[0] != marker[0] {
		return false
	}
	return strings.Trim(trimmed, marker[:1]) == ""
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// parseSuggestion reads one link line, with or without a list bullet.
func parseSuggestion(line string) (Suggestion, bool) {
	for _, bullet := range []string{"- ", "* ", "+ "} {
		line = strings.TrimPrefix(line, bullet)
	}
	m := suggestionLink.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return Suggestion{}, false
	}
	label, path := m[1], m[2]
	if label == "" {
		label, path = m[3], m[4]
	}
	label, path = strings.TrimSpace(label), strings.TrimSpace(path)
	if label == "" || path == "" {
		return Suggestion{}, false
	}
	return Suggestion{Label: label, Path: path}, true
}
