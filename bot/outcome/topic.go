package outcome

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// What a question's record keeps of it, for the report's questions docsbot
// could not answer well: the question as asked, cut to QuestionMax
// characters (Question), and what it asks in one form (TopicOf), by
// which the report groups questions.
//
// The grouping is deliberately simple and deterministic: no model, no
// similarity score, so that the same questions always group the same way
// and a test can say which group a question falls in. Two questions are
// one topic when, once each is put in one form, their words are the same:
//
//   - lower case, letters and digits only (anything else splits words);
//   - the words that only shape a question left out (how, do, I, the, is,
//     can, to, ... askingWords), and one-letter words;
//   - an English plural's s dropped (logs → log, keys → key; not in ss,
//     us, is: access, status, analysis);
//   - each word once, at most topicWords of them (the first), sorted.
//
// So "How do I install the CLI?", "how to install the cli" and "CLI:
// install?" are one topic, "cli install"; "Installing the CLI" is another
// ("cli installing"): the report may show near twins apart, never two
// different questions as one.

// QuestionMax is the most characters of a question its record keeps.
const QuestionMax = 300

// topicWords is the most words a topic keeps.
const topicWords = 8

// Question is text as a question's record keeps it: spaces collapsed,
// cut to QuestionMax characters.
func Question(text string) string {
	return mrkdwn.Cut(strings.Join(strings.Fields(text), " "), QuestionMax)
}

// TopicOf is what the question text asks, in one form (above); "" for a
// question with no word left.
func TopicOf(text string) string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var kept []string
	for _, w := range words {
		if len([]rune(w)) < 2 && !unicode.IsDigit([]rune(w)[0]) || askingWords[w] {
			continue
		}
		w = singular(w)
		if !slices.Contains(kept, w) {
			kept = append(kept, w)
		}
		if len(kept) == topicWords {
			break
		}
	}
	slices.Sort(kept)
	return strings.Join(kept, " ")
}

// singular drops an English plural's s: logs → log; not of ss, us, is,
// nor of a word of three letters or fewer (its, bus).
func singular(w string) string {
	if len(w) <= 3 || !strings.HasSuffix(w, "s") {
		return w
	}
	for _, end := range []string{"ss", "us", "is"} {
		if strings.HasSuffix(w, end) {
			return w
		}
	}
	return w[:len(w)-1]
}

// askingWords are the words that shape a question rather than say what it
// is about.
var askingWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if so to of in on at by for from with about into as
		is are was were be been am do does did have has had get got i me my we our us you your it its this that these
		those there here what which who whom whose when where why how can could should would will shall may might must
		please hi hello hey thanks thank any some anyone someone somebody anybody way ways`) {
		m[w] = true
	}
	return m
}()

// TimeOfTS is when the message of Slack ts ("1700000000.000100") was
// posted; false when ts is not one.
func TimeOfTS(ts string) (time.Time, bool) {
	secs, frac := split(ts)
	if secs == "" || len(secs) > 12 || len(frac) > 6 || !allDigits(secs) || !allDigits(frac) {
		return time.Time{}, false
	}
	var s, us int64
	for _, c := range secs {
		s = s*10 + int64(c-'0')
	}
	for i := range 6 {
		us *= 10
		if i < len(frac) {
			us += int64(frac[i] - '0')
		}
	}
	return time.Unix(s, us*1000).UTC(), true
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// FirstText is the time from the question at Slack ts question to its
// answer's first text shown at shown, as a record keeps it
// (store.OutcomeRecord.FirstText): at least a millisecond; 0, not
// measured, when question is not a ts or shown is zero.
func FirstText(question string, shown time.Time) time.Duration {
	at, ok := TimeOfTS(question)
	if !ok || shown.IsZero() {
		return 0
	}
	return max(shown.Sub(at), time.Millisecond)
}
