package slacktest

import (
	"encoding/json"
	"fmt"
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

// contentCheck is Slack's verdict on a message's content: a zero code when
// it is accepted, else the error name and, for invalid_blocks, the
// explanation Slack gives in response_metadata.messages.
type contentCheck struct {
	code     string
	messages []string
}

// result is the Web API answer refusing the content.
func (c contentCheck) result() apiResult { return apiResult{err: c.code, messages: c.messages} }

// invalidBlocks is the invalid_blocks verdict explained by msg.
func invalidBlocks(msg string) contentCheck {
	return contentCheck{code: "invalid_blocks", messages: []string{msg}}
}

// problem words a refusal as Slack does: "[ERROR] what [json-pointer:where]".
func problem(ptr, format string, args ...any) string {
	return "[ERROR] " + fmt.Sprintf(format, args...) + " [json-pointer:" + ptr + "]"
}

// validateContent checks a message's text, blocks and attachments the way
// chat.postMessage does, with the workspace's rules on block types.
// requireContent demands text, blocks or attachments (no_text otherwise).
func validateContent(text string, blocks, attachments json.RawMessage, requireContent bool, rules blockRules) contentCheck {
	if utf8.RuneCountInString(text) > MaxTextRunes {
		return contentCheck{code: "msg_too_long"}
	}
	nBlocks := 0
	if b := nonNull(blocks); b != nil {
		var list []map[string]json.RawMessage
		if err := json.Unmarshal(b, &list); err != nil {
			return contentCheck{code: "invalid_blocks_format"}
		}
		if msg := checkBlocks(list, "/blocks", rules); msg != "" {
			return invalidBlocks(msg)
		}
		nBlocks = len(list)
	}
	nAttachments := 0
	if a := nonNull(attachments); a != nil {
		var list []json.RawMessage
		if err := json.Unmarshal(a, &list); err != nil {
			return contentCheck{code: "invalid_attachments"}
		}
		nAttachments = len(list)
	}
	if requireContent && text == "" && nBlocks == 0 && nAttachments == 0 {
		return contentCheck{code: "no_text"}
	}
	return contentCheck{}
}

// checkBlocks applies Slack's limits to the blocks of one message (at
// JSON pointer ptr): each block's own, and those on the message as a whole
// (50 blocks, 2 charts, 10,000 characters of data tables). It returns the
// first problem, "" when Slack accepts them.
func checkBlocks(list []map[string]json.RawMessage, ptr string, rules blockRules) string {
	if len(list) > maxBlocks {
		return problem(ptr, "no more than %d items allowed", maxBlocks)
	}
	charts, tableChars := 0, 0
	for i, blk := range list {
		at := fmt.Sprintf("%s/%d", ptr, i)
		if msg := blockProblem(blk, at, rules); msg != "" {
			return msg
		}
		switch blockType(blk) {
		case "data_visualization":
			if charts++; charts > maxChartsPerMessage {
				return problem(at, "no more than %d data_visualization blocks allowed in a message", maxChartsPerMessage)
			}
		case "data_table":
			if tableChars += textRunes(blk["rows"]); tableChars > maxTableChars {
				return problem(at, "the data tables of a message must hold no more than %d characters", maxTableChars)
			}
		}
	}
	return ""
}

// firstInvalidBlock is the index of the first block Slack would refuse in
// a view, or -1.
func firstInvalidBlock(list []map[string]json.RawMessage) int {
	for i, blk := range list {
		if blockProblem(blk, fmt.Sprintf("/view/blocks/%d", i), blockRules{}) != "" {
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

// blockType is blk's type, "" when it has none.
func blockType(blk map[string]json.RawMessage) string {
	var t string
	_ = json.Unmarshal(blk["type"], &t)
	return t
}

// blockProblem applies the Block Kit limits the bot can run into to the
// block at ptr and says what Slack refuses in it, "" when nothing.
func blockProblem(blk map[string]json.RawMessage, ptr string, rules blockRules) string {
	var typ string
	if err := json.Unmarshal(blk["type"], &typ); err != nil || typ == "" {
		return problem(ptr, "missing required field: type")
	}
	if !knownBlockType(typ) || rules.refuses(typ) {
		return problem(ptr+"/type", "Unsupported block type: %s", typ)
	}
	if raw, ok := blk["block_id"]; ok {
		var blockID string
		if err := json.Unmarshal(raw, &blockID); err != nil || utf8.RuneCountInString(blockID) > maxBlockIDRunes {
			return problem(ptr+"/block_id", "must be a string of no more than %d characters", maxBlockIDRunes)
		}
	}
	switch typ {
	case "section":
		return sectionProblem(blk, ptr)
	case "header":
		var text textObject
		if err := json.Unmarshal(blk["text"], &text); err != nil || text.Text == "" {
			return problem(ptr+"/text", "missing required field: text")
		}
		if utf8.RuneCountInString(text.Text) > maxHeaderTextRunes {
			return problem(ptr+"/text/text", "must be less than %d characters", maxHeaderTextRunes+1)
		}
	case "plan":
		return planProblem(blk, ptr, rules)
	case "task_card":
		return taskCardProblem(blk, ptr)
	case "data_visualization":
		return chartProblem(blk, ptr)
	case "data_table":
		return tableProblem(blk, ptr)
	case "context_actions":
		return contextActionsProblem(blk, ptr)
	}
	return ""
}

// sectionProblem checks a section: text or fields, within their limits.
func sectionProblem(blk map[string]json.RawMessage, ptr string) string {
	var text *textObject
	var fields []textObject
	if raw, ok := blk["text"]; ok {
		if err := json.Unmarshal(raw, &text); err != nil {
			return problem(ptr+"/text", "must be a text object")
		}
	}
	if raw, ok := blk["fields"]; ok {
		if err := json.Unmarshal(raw, &fields); err != nil {
			return problem(ptr+"/fields", "must be an array of text objects")
		}
	}
	switch {
	case text == nil && len(fields) == 0:
		return problem(ptr, "must provide either text or fields")
	case text != nil && text.Text == "":
		return problem(ptr+"/text/text", "must be more than 0 characters")
	case text != nil && utf8.RuneCountInString(text.Text) > maxSectionTextRunes:
		return problem(ptr+"/text/text", "must be less than %d characters", maxSectionTextRunes+1)
	case len(fields) > maxSectionFields:
		return problem(ptr+"/fields", "no more than %d items allowed", maxSectionFields)
	}
	for i, f := range fields {
		if utf8.RuneCountInString(f.Text) > maxFieldTextRunes {
			return problem(fmt.Sprintf("%s/fields/%d/text", ptr, i), "must be less than %d characters", maxFieldTextRunes+1)
		}
	}
	return ""
}
