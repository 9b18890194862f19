package slacktest

import (
	"encoding/json"
	"unicode/utf8"
)

// MaxTextRunes is Slack's limit on a message's text, in characters: a longer
// one is refused with msg_too_long.
const MaxTextRunes = 40000

// Slack's limits on Block Kit.
const (
	maxBlocks           = 50
	maxSectionTextRunes = 3000
	maxSectionFields    = 10
	maxFieldTextRunes   = 2000
	maxHeaderTextRunes  = 150
	maxBlockIDRunes     = 255
)

// validateContent checks a message's text, blocks and attachments the way
// chat.postMessage does and returns Slack's error name, or "".
// requireContent demands text, blocks or attachments (no_text otherwise).
func validateContent(text string, blocks, attachments json.RawMessage, requireContent bool) string {
	if utf8.RuneCountInString(text) > MaxTextRunes {
		return "msg_too_long"
	}
	nBlocks := 0
	if b := nonNull(blocks); b != nil {
		var list []map[string]json.RawMessage
		if err := json.Unmarshal(b, &list); err != nil {
			return "invalid_blocks_format"
		}
		if len(list) > maxBlocks || firstInvalidBlock(list) >= 0 {
			return "invalid_blocks"
		}
		nBlocks = len(list)
	}
	nAttachments := 0
	if a := nonNull(attachments); a != nil {
		var list []json.RawMessage
		if err := json.Unmarshal(a, &list); err != nil {
			return "invalid_attachments"
		}
		nAttachments = len(list)
	}
	if requireContent && text == "" && nBlocks == 0 && nAttachments == 0 {
		return "no_text"
	}
	return ""
}

// firstInvalidBlock is the index of the first block Slack would refuse, or -1.
func firstInvalidBlock(list []map[string]json.RawMessage) int {
	for i, blk := range list {
		if !validBlock(blk) {
			return i
		}
	}
	return -1
}

// knownBlockType reports whether Slack accepts blocks of type t; any other
// type is refused (invalid_blocks, or invalid_arguments in a view).
func knownBlockType(t string) bool {
	switch t {
	case "actions", "context", "context_actions", "divider", "file", "header",
		"image", "input", "markdown", "rich_text", "section", "video", "table",
		"plan", "task_card", "call", "card", "carousel", "alert", "data_table",
		"data_visualization":
		return true
	}
	return false
}

type textObject struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// validBlock applies the Block Kit limits the bot can run into.
func validBlock(blk map[string]json.RawMessage) bool {
	var typ, blockID string
	if err := json.Unmarshal(blk["type"], &typ); err != nil || !knownBlockType(typ) {
		return false
	}
	if raw, ok := blk["block_id"]; ok {
		if err := json.Unmarshal(raw, &blockID); err != nil || utf8.RuneCountInString(blockID) > maxBlockIDRunes {
			return false
		}
	}
	switch typ {
	case "section":
		var text *textObject
		var fields []textObject
		if raw, ok := blk["text"]; ok {
			if err := json.Unmarshal(raw, &text); err != nil {
				return false
			}
		}
		if raw, ok := blk["fields"]; ok {
			if err := json.Unmarshal(raw, &fields); err != nil {
				return false
			}
		}
		if text == nil && len(fields) == 0 {
			return false // a section needs text or fields
		}
		if text != nil && (text.Text == "" || utf8.RuneCountInString(text.Text) > maxSectionTextRunes) {
			return false
		}
		if len(fields) > maxSectionFields {
			return false
		}
		for _, f := range fields {
			if utf8.RuneCountInString(f.Text) > maxFieldTextRunes {
				return false
			}
		}
	case "header":
		var text textObject
		if err := json.Unmarshal(blk["text"], &text); err != nil || text.Text == "" || utf8.RuneCountInString(text.Text) > maxHeaderTextRunes {
			return false
		}
	}
	return true
}
