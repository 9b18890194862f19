package store

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"
)

// What a conversation keeps, whatever its caller writes (Keep): the turns
// the assistant is sent again with the next question, and the last answer
// as shown. A conversation is kept a day after its last turn, and answers
// may be 64 KiB long, so that whole answers would add up to hundreds of
// megabytes at the workspace's questions of a day; this is at most about
// HistoryMax+LastMax characters each.
const (
	// TurnsMax bounds the turns a conversation keeps (and sends again).
	TurnsMax = 20
	// HistoryMax is the most characters of a conversation's turns kept,
	// all of which the assistant is sent with its next question (History).
	HistoryMax = 8000
	// LastMax is the most characters of Conversation.Last kept.
	LastMax = 4000
)

// Keep is c cut to what a conversation keeps: its last TurnsMax turns
// within HistoryMax characters (History), and Last within LastMax.
func (c Conversation) Keep() Conversation {
	if len(c.Turns) > TurnsMax {
		c.Turns = c.Turns[len(c.Turns)-TurnsMax:]
	}
	c.Turns, _ = History(c.Turns, HistoryMax)
	c.Last = cutText(c.Last, LastMax)
	return c
}

// History is what of a conversation's turns goes with its next question,
// at most budget characters in all, and how many turns are left out. The
// oldest exchanges (a question and its answer) are left out first; when
// the latest alone is too long, its question and answer are cut (the
// answer more) so that it fits. turns are not changed.
func History(turns []Turn, budget int) ([]Turn, int) {
	i := len(turns)
	var kept []Turn
	for i > 0 {
		j := i - 1 // the latest exchange not kept yet: turns[j:i]
		if turns[j].Role == "assistant" && j > 0 && turns[j-1].Role == "user" {
			j--
		}
		ex := slices.Clone(turns[j:i])
		n := 0
		for _, t := range ex {
			n += utf8.RuneCountInString(t.Text)
		}
		if n > budget {
			if len(kept) == 0 {
				if len(ex) == 2 {
					ex[0].Text = cutText(ex[0].Text, budget/2)
					budget -= utf8.RuneCountInString(ex[0].Text)
				}
				ex[len(ex)-1].Text = cutText(ex[len(ex)-1].Text, budget)
				kept, i = ex, j
			}
			break
		}
		budget -= n
		kept, i = append(ex, kept...), j
	}
	return kept, i
}

// cutText shortens s to at most n characters, ending with an ellipsis
// when it cut, as the bot cuts text (mrkdwn.Cut).
func cutText(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for j := range s {
		if count == n-1 {
			i = j
			break
		}
		count++
	}
	return strings.TrimRight(s[:i], " \n") + "…"
}

// encodeConversation is c's record: JSON whose last field is the version
// (luaUpdateConversation reads it there), with <, > and & as they are
// rather than six bytes each, since a conversation's text is full of them.
func encodeConversation(c Conversation) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
