package helpchannels

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// questionWords open a question, in the languages docsbot knows: English,
// Spanish, Portuguese, French, German and Italian. A message that opens
// with one, or ends with a question mark, is a question.
const questionWords = `
	how what why where when which who whom whose can could does do did is are should will would
	cómo como qué que dónde donde cuándo cuando cuál cual cuáles quién quien puedo puede hay
	porque onde quando qual quais quem posso pode
	comment pourquoi où quand quel quelle quels quelles qui est-ce peut-on puis-je
	wie was warum wo wann welche welcher welches wer kann können gibt
	perché dove chi quale quali`

// questionMarks end a question: the ASCII one, the full-width one (Chinese,
// Japanese), the Arabic one and the Greek question mark.
const questionMarks = "?？؟\u037e"

// minWords is the fewest words a question has: "how do I" is chatter.
const minWords = 4

// IsQuestion decides, without asking the docs assistant, whether a person's
// top-level message in a help channel is a question for the docs: more
// than 3 words, and ending with a question mark or opening with a question
// word (questionWords) or an opening ¿. text is as typed, Slack's markup
// undone. It is asked of every top-level message in every channel the bot
// is in, so it allocates nothing: chatter costs a look at its first words
// and its last character.
func IsQuestion(text string) bool {
	var first string
	words := 0
	for w := range strings.FieldsSeq(text) {
		if words == 0 {
			first = w
		}
		if words++; words == minWords {
			break
		}
	}
	if words < minWords {
		return false
	}
	t := strings.TrimRightFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == ')' || r == '*' || r == '_' })
	if last, size := utf8.DecodeLastRuneInString(t); strings.HasPrefix(t, "¿") || size > 0 && strings.ContainsRune(questionMarks, last) {
		return true
	}
	first = strings.TrimFunc(first, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	for w := range strings.FieldsSeq(questionWords) {
		// A question word's capitals are as long as its letters.
		if len(w) == len(first) && strings.EqualFold(w, first) {
			return true
		}
	}
	return false
}
