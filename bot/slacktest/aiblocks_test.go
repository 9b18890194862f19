package slacktest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/slack-go/slack"
)

// blockRefusal returns the error and first explanation Slack answered err with.
func blockRefusal(err error) (code, message string) {
	var se slack.SlackErrorResponse
	if !errors.As(err, &se) {
		return slackErr(err), ""
	}
	if len(se.ResponseMetadata.Messages) > 0 {
		message = se.ResponseMetadata.Messages[0]
	}
	return se.Err, message
}

func plainText(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
}

func richText(s string) *slack.RichTextBlock {
	return slack.NewRichTextBlock("", slack.NewRichTextSection(slack.NewRichTextSectionTextElement(s, nil)))
}

// barChart is a bar chart of series series over categories categories.
func barChart(title string, series, categories int) *slack.DataVisualizationBlock {
	var cats []string
	for i := range categories {
		cats = append(cats, fmt.Sprintf("day %d", i+1))
	}
	var ss []slack.DataVisualizationDataSeries
	for i := range series {
		var pts []slack.DataVisualizationDataPoint
		for j, c := range cats {
			pts = append(pts, slack.NewDataVisualizationDataPoint(c, float64(i+j)))
		}
		ss = append(ss, slack.NewDataVisualizationDataSeries(fmt.Sprintf("series %d", i+1), pts...))
	}
	return slack.NewDataVisualizationBlock(title, slack.NewDataVisualizationBarChart(slack.NewDataVisualizationAxisConfig(cats...).WithYLabel("visitors"), ss...))
}

// table is a data_table of a header and rows rows of cols columns, each
// body cell cellText.
func table(rows, cols int, cellText string) *slack.DataTableBlock {
	t := slack.NewDataTableBlock("Top pages")
	var header []slack.DataTableCell
	for j := range cols {
		header = append(header, slack.NewDataTableRawTextCell(fmt.Sprintf("col %d", j)))
	}
	t.AddRow(header...)
	for range rows {
		var row []slack.DataTableCell
		for j := range cols {
			if j == 0 {
				row = append(row, slack.NewDataTableRawTextCell(cellText))
			} else {
				row = append(row, slack.NewDataTableRawNumberCell(float64(j)))
			}
		}
		t.AddRow(row...)
	}
	return t
}

func feedback(pos, neg string) *slack.ContextActionsBlock {
	return slack.NewContextActionsBlock("feedback", slack.NewFeedbackButtonsBlockElement("fb",
		slack.NewFeedbackButton(plainText("Good"), pos), slack.NewFeedbackButton(plainText("Bad"), neg)))
}

// TestAIBlocks posts the AI surface's blocks with the real slack-go client:
// those within Slack's limits are taken, the others refused with
// invalid_blocks and Slack's explanation pointing at the fault.
func TestAIBlocks(t *testing.T) {
	t.Parallel()
	_, api := connectedServer(t)
	ctx := testContext(t)
	task := func(id, title string, st slack.TaskCardStatus) *slack.TaskCardBlock {
		return slack.NewTaskCardBlock(id, title).WithStatus(st)
	}
	pie := func(n int) *slack.DataVisualizationBlock {
		var segs []slack.DataVisualizationSegment
		for i := range n {
			segs = append(segs, slack.NewDataVisualizationSegment(fmt.Sprintf("source %d", i), float64(i+1)))
		}
		return slack.NewDataVisualizationBlock("Visitors by source", slack.NewDataVisualizationPieChart(segs...))
	}
	tests := []struct {
		name   string
		blocks []slack.Block
		want   string // "" when taken, else the json-pointer the refusal names
	}{
		{"a plan of task cards", []slack.Block{slack.NewPlanBlock("Deploying the docs").WithTasks(
			task("build", "Build", slack.TaskCardStatusComplete).WithDetails(richText("2 min")).WithSources(slack.NewTaskCardSource("https://docs.example.com", "docs")),
			task("check", "Check links", slack.TaskCardStatusInProgress),
			task("publish", "Publish", slack.TaskCardStatusPending))}, ""},
		{"a plan without a title", []slack.Block{slack.NewPlanBlock("").WithTasks(task("a", "A", slack.TaskCardStatusPending))}, "/blocks/0/title"},
		{"a task without an id", []slack.Block{slack.NewPlanBlock("Plan").WithTasks(task("", "A", slack.TaskCardStatusPending))}, "/blocks/0/tasks/0/task_id"},
		{"a task without a title", []slack.Block{task("a", "", slack.TaskCardStatusPending)}, "/blocks/0/title"},
		{"a task of an unknown status", []slack.Block{slack.NewPlanBlock("Plan").WithTasks(task("a", "A", "done"))}, "/blocks/0/tasks/0/status"},
		{"a plan holding a section", []slack.Block{&slack.PlanBlock{Type: slack.MBTPlan, Title: "Plan", Tasks: []slack.TaskCardBlock{{Type: slack.MBTSection, TaskID: "a", Title: "A"}}}}, "/blocks/0/tasks/0/type"},
		{"a bar chart of 6 series and 20 categories", []slack.Block{barChart("Visitors this month", 6, 20)}, ""},
		{"a chart of 7 series", []slack.Block{barChart("Visitors", 7, 3)}, "/blocks/0/chart/series"},
		{"a chart of 13 series", []slack.Block{barChart("Visitors", 13, 3)}, "/blocks/0/chart/series"},
		{"a chart of 21 categories", []slack.Block{barChart("Visitors", 2, 21)}, "/blocks/0/chart/axis_config/categories"},
		{"a chart title of 50 characters", []slack.Block{barChart(strings.Repeat("t", 50), 1, 2)}, ""},
		{"a chart title of 51 characters", []slack.Block{barChart(strings.Repeat("t", 51), 1, 2)}, "/blocks/0/title"},
		{"two charts", []slack.Block{barChart("A", 1, 2), pie(3)}, ""},
		{"three charts", []slack.Block{barChart("A", 1, 2), pie(3), barChart("C", 1, 2)}, "/blocks/2"},
		{"a pie of 7 segments", []slack.Block{pie(7)}, "/blocks/0/chart/segments"},
		{"a pie segment of no value", []slack.Block{slack.NewDataVisualizationBlock("Pie", slack.NewDataVisualizationPieChart(slack.NewDataVisualizationSegment("none", 0)))}, "/blocks/0/chart/segments/0/value"},
		{"a line point off the categories", []slack.Block{slack.NewDataVisualizationBlock("Line", slack.NewDataVisualizationLineChart(
			slack.NewDataVisualizationAxisConfig("mon", "tue"), slack.NewDataVisualizationDataSeries("v",
				slack.NewDataVisualizationDataPoint("mon", 1), slack.NewDataVisualizationDataPoint("wed", 2))))}, "/blocks/0/chart/series/0/data/1/label"},
		{"a data table of 100 rows and 20 columns", []slack.Block{table(100, 20, "page")}, ""},
		{"a data table of 101 rows", []slack.Block{table(101, 2, "page")}, "/blocks/0/rows"},
		{"a data table of 21 columns", []slack.Block{table(2, 21, "page")}, "/blocks/0/rows/0"},
		{"a data table of no body", []slack.Block{table(0, 2, "page")}, "/blocks/0/rows"},
		{"a data table over 10,000 characters", []slack.Block{table(3, 1, strings.Repeat("p", 3400))}, "/blocks/0/rows"},
		{"two data tables over 10,000 characters", []slack.Block{table(2, 1, strings.Repeat("p", 2600)), table(2, 1, strings.Repeat("p", 2600))}, "/blocks/1"},
		{"a data table without a caption", []slack.Block{&slack.DataTableBlock{Type: slack.MBTDataTable, Rows: table(1, 1, "x").Rows}}, "/blocks/0/caption"},
		{"a number in the header", []slack.Block{slack.NewDataTableBlock("T").AddRow(slack.NewDataTableRawNumberCell(1)).AddRow(slack.NewDataTableRawNumberCell(2))}, "/blocks/0/rows/0/0/type"},
		{"rows of different widths", []slack.Block{slack.NewDataTableBlock("T").AddRow(slack.NewDataTableRawTextCell("a"), slack.NewDataTableRawTextCell("b")).AddRow(slack.NewDataTableRawTextCell("c"))}, "/blocks/0/rows/1"},
		{"a page size of 101", []slack.Block{table(2, 1, "x").WithPageSize(101)}, "/blocks/0/page_size"},
		{"feedback buttons", []slack.Block{feedback("good", "bad")}, ""},
		{"a feedback button without a value", []slack.Block{feedback("good", "")}, "/blocks/0/elements/0/negative_button"},
		{"six context actions", []slack.Block{slack.NewContextActionsBlock("many",
			slack.NewIconButtonBlockElement("trash", plainText("Delete"), "a1"), slack.NewIconButtonBlockElement("trash", plainText("Delete"), "a2"),
			slack.NewIconButtonBlockElement("trash", plainText("Delete"), "a3"), slack.NewIconButtonBlockElement("trash", plainText("Delete"), "a4"),
			slack.NewIconButtonBlockElement("trash", plainText("Delete"), "a5"), slack.NewIconButtonBlockElement("trash", plainText("Delete"), "a6"))}, "/blocks/0/elements"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("fallback", false), slack.MsgOptionBlocks(tt.blocks...))
			code, msg := blockRefusal(err)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v %q", err, msg)
			case tt.want != "" && code != "invalid_blocks":
				t.Fatalf("answer %v, want invalid_blocks", err)
			case tt.want != "" && !strings.Contains(msg, "[json-pointer:"+tt.want+"]"):
				t.Fatalf("explanation %q does not point at %s", msg, tt.want)
			}
		})
	}
}

// TestRefuseBlockType makes the workspace refuse charts, as one without the
// feature does: posts, updates and nested task cards are refused, other
// blocks still taken, and AcceptBlockType takes them again.
func TestRefuseBlockType(t *testing.T) {
	t.Parallel()
	s, api := connectedServer(t)
	ctx := testContext(t)
	_, ts, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("Visitors", false), slack.MsgOptionBlocks(barChart("Visitors", 1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	s.RefuseBlockType("data_visualization", "task_card")
	chart := slack.MsgOptionBlocks(barChart("Visitors", 1, 2))
	if _, _, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("Visitors", false), chart); !refusedType(err, "data_visualization") {
		t.Errorf("a chart in a workspace without charts: %v", err)
	}
	if _, _, _, err := api.UpdateMessageContext(ctx, "C0GENERAL", ts, slack.MsgOptionText("Visitors", false), chart); !refusedType(err, "data_visualization") {
		t.Errorf("an update to a chart: %v", err)
	}
	plan := slack.MsgOptionBlocks(slack.NewPlanBlock("Deploy").WithTasks(slack.NewTaskCardBlock("a", "Build")))
	if _, _, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("Deploy", false), plan); !refusedType(err, "task_card") {
		t.Errorf("a plan of refused task cards: %v", err)
	}
	if _, _, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("Visitors", false), slack.MsgOptionBlocks(table(2, 2, "page"))); err != nil {
		t.Errorf("a table, which the workspace still takes: %v", err)
	}
	s.AcceptBlockType("data_visualization")
	if _, _, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("Visitors", false), chart); err != nil {
		t.Errorf("a chart accepted again: %v", err)
	}
}

// refusedType reports whether err is invalid_blocks naming typ.
func refusedType(err error, typ string) bool {
	code, msg := blockRefusal(err)
	return code == "invalid_blocks" && strings.Contains(msg, "Unsupported block type: "+typ)
}
