package term

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

func sampleAudit() []store.AuditRecord {
	at := time.Date(2026, 11, 22, 9, 30, 15, 123e6, time.UTC)
	return []store.AuditRecord{
		{ID: "1795339815123-0", At: at, Team: "T1", Channel: "C0DOCS", User: "U0ALICE", Project: "docs",
			Action: store.AuditJobStart, Outcome: "ok", JobID: "job-1",
			Instruction: `=HYPERLINK("http://evil.test","fix")`, InstructionSHA256: "ab12", InstructionLen: 34},
		{ID: "1795339815123-1", At: at, Team: "T1", Channel: "C0DOCS", User: "U0BOB", Project: "docs",
			Action: store.AuditRefusal, Outcome: "refused", Detail: "-viewer, \"quoted\"\nsecond line", Work: "cmd:3f2a"},
		{ID: "1795339816000-0", At: at.Add(time.Second), Project: "api", Action: store.AuditResult, Outcome: "completed", JobID: "job-2",
			Detail: "+1 https://github.com/acme/docs/pull/7"},
	}
}

func exportAudit(t *testing.T, format string, recs []store.AuditRecord) []byte {
	t.Helper()
	var b bytes.Buffer
	e, err := NewAuditExport(&b, format)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := e.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestAuditExportCSV(t *testing.T) {
	t.Parallel()
	rows, err := csv.NewReader(bytes.NewReader(exportAudit(t, "csv", sampleAudit()))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		AuditColumns,
		{"2026-11-22T09:30:15.123Z", "1795339815123-0", "T1", "C0DOCS", "U0ALICE", "docs", "job.start", "ok", "job-1", "", "", "ab12", "34", `'=HYPERLINK("http://evil.test","fix")`},
		{"2026-11-22T09:30:15.123Z", "1795339815123-1", "T1", "C0DOCS", "U0BOB", "docs", "refusal", "refused", "", "'-viewer, \"quoted\"\nsecond line", "cmd:3f2a", "", "", ""},
		{"2026-11-22T09:30:16.123Z", "1795339816000-0", "", "", "", "api", "job.result", "completed", "job-2", "'+1 https://github.com/acme/docs/pull/7", "", "", "", ""},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i := range want {
		if !slices.Equal(rows[i], want[i]) {
			t.Errorf("row %d\n got %q\nwant %q", i, rows[i], want[i])
		}
	}
	if rows := exportAudit(t, "csv", nil); string(rows) != "time,id,team,channel,user,project,action,outcome,job,detail,work,instruction_sha256,instruction_length,instruction\n" {
		t.Errorf("empty CSV export = %q", rows)
	}
}

func TestAuditExportJSON(t *testing.T) {
	t.Parallel()
	recs := sampleAudit()
	out := exportAudit(t, "json", recs)
	var got []AuditRow
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(got) != len(recs) {
		t.Fatalf("%d records, want %d", len(got), len(recs))
	}
	for i, r := range recs {
		g := got[i]
		if !g.Time.Equal(r.At) || g.ID != r.ID || g.User != r.User || g.Project != r.Project || g.Action != r.Action ||
			g.Outcome != r.Outcome || g.Job != r.JobID || g.Detail != r.Detail || g.Work != r.Work || g.Instruction != r.Instruction ||
			g.InstructionSHA256 != r.InstructionSHA256 || g.InstructionLength != r.InstructionLen {
			t.Errorf("record %d\n got %+v\nwant %+v", i, g, r)
		}
	}
	if !bytes.Contains(out, []byte(`"instruction":"=HYPERLINK(\"http://evil.test\",\"fix\")"`)) {
		t.Errorf("JSON keeps the text as it was (no formula escaping, no HTML escaping):\n%s", out)
	}
	if lines := bytes.Count(out, []byte("\n")); lines != len(recs)+2 {
		t.Errorf("%d lines, want one a record and the brackets:\n%s", lines, out)
	}
	if empty := exportAudit(t, "json", nil); string(empty) != "[]\n" {
		t.Errorf("empty JSON export = %q", empty)
	}
	if _, err := NewAuditExport(&bytes.Buffer{}, "xml"); err == nil {
		t.Error("format xml accepted")
	}
}
