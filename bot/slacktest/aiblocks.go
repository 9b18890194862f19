package slacktest

import (
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"
)

// Slack's limits on the blocks of its AI surface, as docs.slack.dev's
// Block Kit reference states them.
const (
	// data_visualization: a title of at most 50 characters; a pie of 1 to
	// 6 segments; a bar, area or line chart of 1 to 6 series of 1 to 20
	// points, one per category (so at most 20 categories); labels, series
	// names and categories of at most 20 characters, axis labels of 50.
	maxChartTitleRunes = 50
	maxChartLabelRunes = 20
	maxAxisLabelRunes  = 50
	maxPieSegments     = 6
	maxChartSeries     = 6
	maxChartPoints     = 20
	// maxChartsPerMessage is how many data_visualization blocks one
	// message holds. This limit comes from the project's notes on Slack
	// (shared/spec/slack-facts.md); the block reference we could read does
	// not state it.
	maxChartsPerMessage = 2
	// data_table: 2 to 101 rows (a header and up to 100), 1 to 20 columns,
	// every row as wide; at most 10,000 characters in the cells of a
	// table, and of all the tables of a message; page_size 1 to 100.
	minTableRows     = 2
	maxTableRows     = 101
	maxTableColumns  = 20
	maxTableChars    = 10000
	maxTablePageSize = 100
	// maxContextActions is how many elements a context_actions block holds.
	maxContextActions = 5
	// maxTaskTextRunes is the most characters of a task_update chunk's
	// details or output.
	maxTaskTextRunes = 256
)

// taskStatuses are the states of a task_card and of a task_update chunk.
var taskStatuses = []string{"pending", "in_progress", "complete", "error"}

// blockRules are the workspace's choices about Block Kit beyond Slack's
// limits: the block types it refuses (RefuseBlockType). Read under Server.mu.
type blockRules struct {
	refused map[string]bool
}

func (r blockRules) refuses(typ string) bool { return r.refused[typ] }

// rulesLocked are the workspace's block rules. s.mu is held.
func (s *Server) rulesLocked() blockRules { return blockRules{refused: s.refusedBlocks} }

// RefuseBlockType makes the workspace refuse blocks of these types, as a
// workspace without the feature (or a client that cannot show it) does: a
// message, an update, a response URL post, a stream's chunks or blocks and
// an unfurl carrying one, at the top or nested (a task_card in a plan), is
// answered invalid_blocks with response_metadata.messages naming the type.
// Views are not affected. It lasts until AcceptBlockType.
func (s *Server) RefuseBlockType(types ...string) {
	s.mu.Lock()
	if s.refusedBlocks == nil {
		s.refusedBlocks = map[string]bool{}
	}
	for _, t := range types {
		s.refusedBlocks[t] = true
	}
	s.mu.Unlock()
	s.changed()
}

// AcceptBlockType undoes RefuseBlockType for these types.
func (s *Server) AcceptBlockType(types ...string) {
	s.mu.Lock()
	for _, t := range types {
		delete(s.refusedBlocks, t)
	}
	s.mu.Unlock()
	s.changed()
}

// decodeBlock reads blk into v, a struct of the block's fields.
func decodeBlock(blk map[string]json.RawMessage, v any) error {
	b, err := json.Marshal(blk)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// runes counts s's characters.
func runes(s string) int { return utf8.RuneCountInString(s) }

// planProblem checks a plan: a title and task_card tasks.
func planProblem(blk map[string]json.RawMessage, ptr string, rules blockRules) string {
	var p struct {
		Title string                       `json:"title"`
		Tasks []map[string]json.RawMessage `json:"tasks"`
	}
	if err := decodeBlock(blk, &p); err != nil {
		return problem(ptr, "invalid plan block")
	}
	if p.Title == "" {
		return problem(ptr+"/title", "missing required field: title")
	}
	for i, t := range p.Tasks {
		at := fmt.Sprintf("%s/tasks/%d", ptr, i)
		if typ := blockType(t); typ != "task_card" || rules.refuses(typ) {
			return problem(at+"/type", "Unsupported block type: %s (a plan holds task_card blocks)", typ)
		}
		if msg := taskCardProblem(t, at); msg != "" {
			return msg
		}
	}
	return ""
}

// taskCardProblem checks a task_card: task_id and title, a known status,
// details and output as rich_text, url sources.
func taskCardProblem(blk map[string]json.RawMessage, ptr string) string {
	var c struct {
		TaskID  string          `json:"task_id"`
		Title   string          `json:"title"`
		Status  *string         `json:"status"`
		Details json.RawMessage `json:"details"`
		Output  json.RawMessage `json:"output"`
		Sources []struct {
			Type string `json:"type"`
			URL  string `json:"url"`
		} `json:"sources"`
	}
	if err := decodeBlock(blk, &c); err != nil {
		return problem(ptr, "invalid task_card block")
	}
	switch {
	case c.TaskID == "":
		return problem(ptr+"/task_id", "missing required field: task_id")
	case c.Title == "":
		return problem(ptr+"/title", "missing required field: title")
	case c.Status != nil && !slices.Contains(taskStatuses, *c.Status):
		return problem(ptr+"/status", "must be one of %v", taskStatuses)
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"details", c.Details}, {"output", c.Output}} {
		if nonNull(f.raw) == nil {
			continue
		}
		var rt struct {
			Type     string            `json:"type"`
			Elements []json.RawMessage `json:"elements"`
		}
		if json.Unmarshal(f.raw, &rt) != nil || rt.Type != "rich_text" {
			return problem(ptr+"/"+f.name, "must be a rich_text object")
		}
	}
	for i, src := range c.Sources {
		if src.Type != "url" || src.URL == "" {
			return problem(fmt.Sprintf("%s/sources/%d", ptr, i), "must be a url source with a url")
		}
	}
	return ""
}

// chartProblem checks a data_visualization block against Slack's limits.
func chartProblem(blk map[string]json.RawMessage, ptr string) string {
	var v struct {
		Title string          `json:"title"`
		Chart json.RawMessage `json:"chart"`
	}
	if err := decodeBlock(blk, &v); err != nil {
		return problem(ptr, "invalid data_visualization block")
	}
	switch {
	case v.Title == "":
		return problem(ptr+"/title", "missing required field: title")
	case runes(v.Title) > maxChartTitleRunes:
		return problem(ptr+"/title", "must be less than %d characters", maxChartTitleRunes+1)
	case nonNull(v.Chart) == nil:
		return problem(ptr+"/chart", "missing required field: chart")
	}
	var chart struct {
		Type     string `json:"type"`
		Segments []struct {
			Label string   `json:"label"`
			Value *float64 `json:"value"`
		} `json:"segments"`
		Series []struct {
			Name string `json:"name"`
			Data []struct {
				Label string   `json:"label"`
				Value *float64 `json:"value"`
			} `json:"data"`
		} `json:"series"`
		AxisConfig *struct {
			Categories []string `json:"categories"`
			XLabel     string   `json:"x_label"`
			YLabel     string   `json:"y_label"`
		} `json:"axis_config"`
	}
	ptr += "/chart"
	if err := json.Unmarshal(v.Chart, &chart); err != nil {
		return problem(ptr, "invalid chart")
	}
	if chart.Type == "pie" {
		if n := len(chart.Segments); n < 1 || n > maxPieSegments {
			return problem(ptr+"/segments", "must hold 1 to %d segments", maxPieSegments)
		}
		for i, seg := range chart.Segments {
			at := fmt.Sprintf("%s/segments/%d", ptr, i)
			if msg := labelProblem(seg.Label, at+"/label"); msg != "" {
				return msg
			}
			if seg.Value == nil || *seg.Value <= 0 {
				return problem(at+"/value", "must be a number greater than 0")
			}
		}
		return ""
	}
	if !slices.Contains([]string{"bar", "area", "line"}, chart.Type) {
		return problem(ptr+"/type", "must be one of [pie bar area line]")
	}
	if n := len(chart.Series); n < 1 || n > maxChartSeries {
		return problem(ptr+"/series", "must hold 1 to %d series", maxChartSeries)
	}
	axis := chart.AxisConfig
	if axis == nil || len(axis.Categories) == 0 {
		return problem(ptr+"/axis_config/categories", "must hold at least 1 category")
	}
	if len(axis.Categories) > maxChartPoints {
		return problem(ptr+"/axis_config/categories", "no more than %d items allowed", maxChartPoints)
	}
	if runes(axis.XLabel) > maxAxisLabelRunes || runes(axis.YLabel) > maxAxisLabelRunes {
		return problem(ptr+"/axis_config", "x_label and y_label must be less than %d characters", maxAxisLabelRunes+1)
	}
	for i, c := range axis.Categories {
		if msg := labelProblem(c, fmt.Sprintf("%s/axis_config/categories/%d", ptr, i)); msg != "" {
			return msg
		}
		if slices.Index(axis.Categories, c) != i {
			return problem(fmt.Sprintf("%s/axis_config/categories/%d", ptr, i), "duplicate category %q", c)
		}
	}
	var names []string
	for i, s := range chart.Series {
		at := fmt.Sprintf("%s/series/%d", ptr, i)
		if msg := labelProblem(s.Name, at+"/name"); msg != "" {
			return msg
		}
		if slices.Contains(names, s.Name) {
			return problem(at+"/name", "series names must be unique")
		}
		names = append(names, s.Name)
		if len(s.Data) != len(axis.Categories) {
			return problem(at+"/data", "must hold exactly one point for every category")
		}
		var seen []string
		for j, pt := range s.Data {
			pat := fmt.Sprintf("%s/data/%d", at, j)
			if !slices.Contains(axis.Categories, pt.Label) || slices.Contains(seen, pt.Label) {
				return problem(pat+"/label", "must be one of axis_config.categories, each once")
			}
			seen = append(seen, pt.Label)
			if pt.Value == nil {
				return problem(pat+"/value", "must be a number")
			}
		}
	}
	return ""
}

// labelProblem checks a chart label, series name or category: 1 to 20 characters.
func labelProblem(label, ptr string) string {
	if label == "" || runes(label) > maxChartLabelRunes {
		return problem(ptr, "must be 1 to %d characters", maxChartLabelRunes)
	}
	return ""
}

// tableProblem checks a data_table block against Slack's limits.
func tableProblem(blk map[string]json.RawMessage, ptr string) string {
	var t struct {
		Caption     string              `json:"caption"`
		Rows        [][]json.RawMessage `json:"rows"`
		PageSize    *int                `json:"page_size"`
		RowHeaderAt *int                `json:"row_header_column_index"`
	}
	if err := decodeBlock(blk, &t); err != nil {
		return problem(ptr, "invalid data_table block")
	}
	switch {
	case t.Caption == "":
		return problem(ptr+"/caption", "missing required field: caption")
	case len(t.Rows) < minTableRows || len(t.Rows) > maxTableRows:
		return problem(ptr+"/rows", "must hold %d to %d rows, the header included", minTableRows, maxTableRows)
	case t.PageSize != nil && (*t.PageSize < 1 || *t.PageSize > maxTablePageSize):
		return problem(ptr+"/page_size", "must be 1 to %d", maxTablePageSize)
	}
	cols := len(t.Rows[0])
	if cols < 1 || cols > maxTableColumns {
		return problem(ptr+"/rows/0", "must hold 1 to %d cells", maxTableColumns)
	}
	if t.RowHeaderAt != nil && (*t.RowHeaderAt < 0 || *t.RowHeaderAt >= cols) {
		return problem(ptr+"/row_header_column_index", "must name one of the table's columns")
	}
	for i, row := range t.Rows {
		if len(row) != cols {
			return problem(fmt.Sprintf("%s/rows/%d", ptr, i), "all rows must hold the same number of cells")
		}
		for j, cell := range row {
			if msg := cellProblem(cell, i == 0, fmt.Sprintf("%s/rows/%d/%d", ptr, i, j)); msg != "" {
				return msg
			}
		}
	}
	if n := textRunes(blk["rows"]); n > maxTableChars {
		return problem(ptr+"/rows", "the cells must hold no more than %d characters", maxTableChars)
	}
	return ""
}

// cellProblem checks one data_table cell; the header row holds raw_text only.
func cellProblem(raw json.RawMessage, header bool, ptr string) string {
	var c struct {
		Type     string            `json:"type"`
		Text     *string           `json:"text"`
		Value    *float64          `json:"value"`
		Elements []json.RawMessage `json:"elements"`
		Element  *struct {
			Type string `json:"type"`
		} `json:"element"`
		Fallback json.RawMessage `json:"fallback"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return problem(ptr, "invalid cell")
	}
	if header && c.Type != "raw_text" {
		return problem(ptr+"/type", "the header row holds raw_text cells only")
	}
	switch c.Type {
	case "raw_text":
		if c.Text == nil || *c.Text == "" {
			return problem(ptr+"/text", "must be more than 0 characters")
		}
	case "raw_number":
		if c.Value == nil {
			return problem(ptr+"/value", "must be a number")
		}
		if c.Text != nil && *c.Text == "" {
			return problem(ptr+"/text", "must be more than 0 characters")
		}
	case "rich_text":
		if len(c.Elements) == 0 {
			return problem(ptr+"/elements", "must hold at least 1 element")
		}
	case "action_cell":
		if c.Element == nil || c.Element.Type != "button" {
			return problem(ptr+"/element", "must be a button")
		}
		if nonNull(c.Fallback) != nil {
			var fb struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(c.Fallback, &fb) != nil || (fb.Type != "raw_text" && fb.Type != "raw_number") {
				return problem(ptr+"/fallback", "must be a raw_text or raw_number cell")
			}
		}
	default:
		return problem(ptr+"/type", "must be one of [raw_text raw_number rich_text action_cell]")
	}
	return ""
}

// textRunes counts the characters of every "text" string in raw, at any
// depth: what Slack counts of a table's cells. A raw_number cell without
// text counts its value's digits.
func textRunes(raw json.RawMessage) int {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return 0
	}
	var count func(any) int
	count = func(v any) int {
		n := 0
		switch x := v.(type) {
		case map[string]any:
			if s, ok := x["text"].(string); ok {
				n += runes(s)
			} else if x["type"] == "raw_number" {
				n += len(fmt.Sprint(x["value"]))
			}
			for k, y := range x {
				if k != "text" {
					n += count(y)
				}
			}
		case []any:
			for _, y := range x {
				n += count(y)
			}
		}
		return n
	}
	return count(v)
}

// contextActionsProblem checks a context_actions block: 1 to 5
// feedback_buttons or icon_button elements, each complete.
func contextActionsProblem(blk map[string]json.RawMessage, ptr string) string {
	type button struct {
		Text  *textObject `json:"text"`
		Value string      `json:"value"`
	}
	var b struct {
		Elements []struct {
			Type     string      `json:"type"`
			Positive *button     `json:"positive_button"`
			Negative *button     `json:"negative_button"`
			Icon     string      `json:"icon"`
			Text     *textObject `json:"text"`
		} `json:"elements"`
	}
	if err := decodeBlock(blk, &b); err != nil {
		return problem(ptr, "invalid context_actions block")
	}
	if n := len(b.Elements); n < 1 || n > maxContextActions {
		return problem(ptr+"/elements", "must hold 1 to %d elements", maxContextActions)
	}
	for i, e := range b.Elements {
		at := fmt.Sprintf("%s/elements/%d", ptr, i)
		switch e.Type {
		case "feedback_buttons":
			for _, side := range []struct {
				name string
				b    *button
			}{{"positive_button", e.Positive}, {"negative_button", e.Negative}} {
				if side.b == nil || side.b.Text == nil || side.b.Text.Text == "" || side.b.Value == "" {
					return problem(at+"/"+side.name, "must have text and a value")
				}
			}
		case "icon_button":
			if e.Icon == "" || e.Text == nil || e.Text.Text == "" {
				return problem(at, "an icon_button must have an icon and text")
			}
		default:
			return problem(at+"/type", "must be one of [feedback_buttons icon_button]")
		}
	}
	return ""
}
