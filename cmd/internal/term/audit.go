package term

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/docsbot/docsbot/bot/csvexport"
	"github.com/docsbot/docsbot/store"
)

// AuditColumns are the CSV header of an audit export, in the order of
// AuditRow's fields.
var AuditColumns = []string{
	"time", "id", "team", "channel", "user", "project", "action", "outcome",
	"job", "detail", "work", "instruction_sha256", "instruction_length", "instruction",
}

// auditTimeFormat is the time of a record in CSV: RFC 3339 in UTC, to the
// millisecond of its stream id.
const auditTimeFormat = "2006-01-02T15:04:05.000Z07:00"

// AuditRow is an audit record as the JSON export writes it.
type AuditRow struct {
	Time              time.Time `json:"time"`
	ID                string    `json:"id"`
	Team              string    `json:"team,omitempty"`
	Channel           string    `json:"channel,omitempty"`
	User              string    `json:"user,omitempty"`
	Project           string    `json:"project,omitempty"`
	Action            string    `json:"action"`
	Outcome           string    `json:"outcome,omitempty"`
	Job               string    `json:"job,omitempty"`
	Detail            string    `json:"detail,omitempty"`
	Work              string    `json:"work,omitempty"`
	InstructionSHA256 string    `json:"instruction_sha256,omitempty"`
	InstructionLength int       `json:"instruction_length,omitempty"`
	Instruction       string    `json:"instruction,omitempty"`
}

// AuditExport writes audit records as they are read, in JSON (one array,
// one record a line) or CSV (text cells kept from being read as formulas),
// so that an export of any length never sits in memory. Call Write for each
// record (store.AuditLog.Each takes it as is), then Close.
type AuditExport struct {
	w      io.Writer
	csv    *csv.Writer // nil for JSON
	n      int
	buf    bytes.Buffer
	encode *json.Encoder
}

// NewAuditExport starts an export in format, "json" or "csv".
func NewAuditExport(w io.Writer, format string) (*AuditExport, error) {
	e := &AuditExport{w: w}
	switch format {
	case "csv":
		e.csv = csv.NewWriter(w)
		if err := e.csv.Write(AuditColumns); err != nil {
			return nil, err
		}
	case "json":
		e.encode = json.NewEncoder(&e.buf)
		e.encode.SetEscapeHTML(false)
		if _, err := io.WriteString(w, "["); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("audit export: format %q, want json or csv", format)
	}
	return e, nil
}

// Write adds one record.
func (e *AuditExport) Write(r store.AuditRecord) error {
	e.n++
	if e.csv != nil {
		length := ""
		if r.InstructionSHA256 != "" {
			length = strconv.Itoa(r.InstructionLen)
		}
		return e.csv.Write([]string{
			r.At.UTC().Format(auditTimeFormat), r.ID,
			csvexport.Cell(r.Team), csvexport.Cell(r.Channel), csvexport.Cell(r.User), csvexport.Cell(r.Project),
			csvexport.Cell(r.Action), csvexport.Cell(r.Outcome), csvexport.Cell(r.JobID), csvexport.Cell(r.Detail), csvexport.Cell(r.Work),
			r.InstructionSHA256, length, csvexport.Cell(r.Instruction),
		})
	}
	e.buf.Reset()
	sep := ",\n"
	if e.n == 1 {
		sep = "\n"
	}
	e.buf.WriteString(sep)
	if err := e.encode.Encode(AuditRow{
		Time: r.At.UTC(), ID: r.ID, Team: r.Team, Channel: r.Channel, User: r.User, Project: r.Project,
		Action: r.Action, Outcome: r.Outcome, Job: r.JobID, Detail: r.Detail, Work: r.Work,
		InstructionSHA256: r.InstructionSHA256, InstructionLength: r.InstructionLen, Instruction: r.Instruction,
	}); err != nil {
		return err
	}
	// Encode ends the record with a newline; the separator brings its own.
	_, err := e.w.Write(bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")))
	return err
}

// Close ends the export.
func (e *AuditExport) Close() error {
	if e.csv != nil {
		e.csv.Flush()
		return e.csv.Error()
	}
	end := "\n]\n"
	if e.n == 0 {
		end = "]\n"
	}
	_, err := io.WriteString(e.w, end)
	return err
}
