package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestAuditCommand exports what the bot appended, on the built binary, in
// both formats, by project and by --since.
func TestAuditCommand(t *testing.T) {
	t.Parallel()
	st, prefix := sharedStore(t)
	log := st.AuditLog(store.AuditOptions{})
	for _, rec := range []store.AuditRecord{
		{Team: "T1", Channel: "C0DOCS", User: "U0ALICE", Project: "docs", Action: store.AuditJobStart, Outcome: "ok", JobID: "job-1", Work: "cmd:1", Instruction: "Document the flags"},
		{Team: "T1", Channel: "C0DOCS", User: "U0VIEWER", Project: "api", Action: store.AuditRefusal, Outcome: "refused", Detail: "/docs-agent", Work: "cmd:2"},
		{Team: "T1", Channel: "C0DOCS", User: "U0ALICE", Project: "docs", Action: store.AuditResult, Outcome: "completed", JobID: "job-1", Work: "result:job-1:1"},
	} {
		if _, err := log.Append(t.Context(), rec); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{envRedisURL + "=" + sharedRedis.URL, envRedisPrefix + "=" + prefix}

	cases := []struct {
		name      string
		args      []string
		wantUsers []string
		wantWork  []string
	}{
		{"all, json", []string{"audit"}, []string{"U0ALICE", "U0VIEWER", "U0ALICE"}, []string{"cmd:1", "cmd:2", "result:job-1:1"}},
		{"one project, csv", []string{"audit", "--project", "docs", "--format", "csv"}, []string{"U0ALICE", "U0ALICE"}, []string{"cmd:1", "result:job-1:1"}},
		{"one project, by another case", []string{"audit", "--project", "API"}, []string{"U0VIEWER"}, []string{"cmd:2"}},
		{"the implicit project's name reads all without a projects file", []string{"audit", "--project", "default"}, []string{"U0ALICE", "U0VIEWER", "U0ALICE"}, []string{"cmd:1", "cmd:2", "result:job-1:1"}},
		{"since a day ago", []string{"audit", "--since", "24h", "--format", "json"}, []string{"U0ALICE", "U0VIEWER", "U0ALICE"}, []string{"cmd:1", "cmd:2", "result:job-1:1"}},
		{"since tomorrow", []string{"audit", "--since", time.Now().UTC().Add(48 * time.Hour).Format(time.DateOnly), "--format", "csv"}, nil, nil},
	}
	for _, tc := range cases {
		res := docsbot(t, nil, env, tc.args...)
		if res.code != 0 {
			t.Fatalf("%s: exit %d\n%s", tc.name, res.code, res.stderr)
		}
		var users, work []string
		if strings.Contains(strings.Join(tc.args, " "), "csv") {
			rows, err := csv.NewReader(strings.NewReader(res.stdout)).ReadAll()
			if err != nil {
				t.Fatalf("%s: not CSV: %v\n%s", tc.name, err, res.stdout)
			}
			if strings.Join(rows[0], ",") != strings.Join(term.AuditColumns, ",") {
				t.Errorf("%s: header %q", tc.name, rows[0])
			}
			for _, row := range rows[1:] {
				users, work = append(users, row[4]), append(work, row[10])
				if row[6] == store.AuditJobStart && (row[12] != "18" || len(row[11]) != 64 || row[13] != "") {
					t.Errorf("%s: start %q: want the instruction's hash and length, not its text", tc.name, row)
				}
			}
		} else {
			var got []term.AuditRow
			if err := json.Unmarshal([]byte(res.stdout), &got); err != nil {
				t.Fatalf("%s: not JSON: %v\n%s", tc.name, err, res.stdout)
			}
			for _, r := range got {
				users, work = append(users, r.User), append(work, r.Work)
			}
		}
		if strings.Join(users, ",") != strings.Join(tc.wantUsers, ",") || strings.Join(work, ",") != strings.Join(tc.wantWork, ",") {
			t.Errorf("%s: users %q work %q, want %q %q", tc.name, users, work, tc.wantUsers, tc.wantWork)
		}
	}

	for _, args := range [][]string{{"audit", "--since", "soon"}, {"audit", "--format", "xml"}, {"audit", "extra"}} {
		if res := docsbot(t, nil, env, args...); res.code != cli.ExitUsage {
			t.Errorf("%q: exit %d, want %d (usage)\n%s", args, res.code, cli.ExitUsage, res.stderr)
		}
	}
	if res := docsbot(t, nil, []string{envRedisURL + "=unix://" + sharedRedis.Socket + ".missing"}, "audit"); res.code != cli.ExitFailure || !strings.Contains(res.stderr, "cannot reach Redis") {
		t.Errorf("without Redis: exit %d\n%s", res.code, res.stderr)
	}
}

// TestAuditExportFromStore exports what the store's audit trail holds, read
// page by page, as the audit command will.
func TestAuditExportFromStore(t *testing.T) {
	t.Parallel()
	st, err := store.Open(t.Context(), sharedRedis.URL, store.WithPrefix(redistest.Prefix(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := st.AuditLog(store.AuditOptions{KeepText: true})
	for _, p := range []string{"docs", "api", "docs"} {
		if _, err := log.Append(t.Context(), store.AuditRecord{Project: p, User: "U1", Action: store.AuditJobStart, Instruction: "@SUM(A1) " + p}); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	e, err := term.NewAuditExport(&b, "csv")
	if err != nil {
		t.Fatal(err)
	}
	if err := log.Each(t.Context(), store.AuditQuery{Project: "docs", PageSize: 1}, e.Write); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want the header and the 2 records of docs:\n%q", len(rows), rows)
	}
	for _, row := range rows[1:] {
		if row[5] != "docs" || row[13] != "'@SUM(A1) docs" || row[12] != "13" || len(row[11]) != 64 {
			t.Errorf("row %q", row)
		}
	}
}
