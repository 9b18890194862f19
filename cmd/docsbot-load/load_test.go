package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

// TestScenariosAtTinyScale runs every scenario against the real bot binary at
// a size CI can afford, so the tool keeps working. It checks counts and
// correctness only; timings depend on the machine and are not asserted.
func TestScenariosAtTinyScale(t *testing.T) {
	// Beside the chaos runs, not before them: all of them mostly wait.
	t.Parallel()
	// testLead is the time the scenarios give the bot to start before the
	// first poll is due: generous, for a busy machine and -race.
	const testLead = 10 * time.Second
	bin := botForTest(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	t.Cleanup(cancel)
	e := env{bin: bin, log: slog.New(slog.DiscardHandler)}

	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"answers", func(t *testing.T) {
			const questions = 3
			res, err := runAnswers(ctx, e, answersOptions{questions: questions, concurrency: 3, deltaDelay: 250 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if res.Answered != questions || res.AssistantAsks != questions || res.FirstText.N != questions {
				t.Errorf("answered %d, asked %d, first texts %d; want %d each", res.Answered, res.AssistantAsks, res.FirstText.N, questions)
			}
			if res.CallsMax < 3 {
				t.Errorf("at most %d Slack calls an answer: no answer appended while streaming", res.CallsMax)
			}
			// Each answer is one stream, stopped once, and its question
			// recorded in Redis first.
			if c := res.Cost; c.Units != questions || c.SlackByMethod["chat.stopStream"] != 1 || c.Redis < 1 || c.Sent <= 0 {
				t.Errorf("cost per answer: %+v; want %d answers, one chat.stopStream each, Redis commands counted", c, questions)
			}
		}},
		{"answers --concurrent", func(t *testing.T) {
			const questions = 5
			res, err := runConcurrentAnswers(ctx, e, answersOptions{concurrent: questions, assistantLatency: 300 * time.Millisecond, deltaDelay: 250 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if res.Answered != questions || res.AssistantAsks != questions || res.FirstText.N != questions || res.AskToFirst.N != questions {
				t.Errorf("answered %d, asked %d, first texts %d (%d from the asking); want %d each", res.Answered, res.AssistantAsks, res.FirstText.N, res.AskToFirst.N, questions)
			}
			// All asked at once, each answer streaming for seconds: they
			// overlap, and the memory is read while they do.
			if res.PeakStreams < 2 || res.RSSPeak <= 0 || res.RSSBefore <= 0 {
				t.Errorf("at most %d streaming at once, RSS %d before and %d at the peak", res.PeakStreams, res.RSSBefore, res.RSSPeak)
			}
			if p := res.problems(); len(p) > 0 {
				t.Errorf("problems: %v", p)
			}
		}},
		{"follow-ups", func(t *testing.T) {
			const jobs = 3
			res, err := runFollowUps(ctx, e, followUpsOptions{jobs: jobs, rate: 20, cost: costOptions{idle: 200 * time.Millisecond}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Accepted != jobs || res.Sent != jobs || len(res.problems()) > 0 {
				t.Errorf("%d replies marked sent, %d messages at the API, problems %v; want %d, %d, none", res.Accepted, res.Sent, res.problems(), jobs, jobs)
			}
			// Each reply is marked (reactions.add) once, and recorded in
			// Redis by the inbox's script before anything else.
			if c := res.Cost; c.Units != jobs || c.SlackByMethod["reactions.add"] != 1 || c.RedisByName["evalsha"] < 1 || c.InScripts <= 0 {
				t.Errorf("cost per follow-up: %+v; want one reactions.add each, scripts counted", c)
			}
			if c := res.Cost; c.Idle == nil || c.Net == nil || c.Net.Redis > c.Redis || c.Net.SentByName["evalsha"] < 1 {
				t.Errorf("cost per follow-up net of the idle loops: %+v", c.Net)
			}
		}},
		{"deploys", func(t *testing.T) {
			const deploys = 3
			res, err := runDeploys(ctx, e, deploysOptions{deploys: deploys, rate: 5})
			if err != nil {
				t.Fatal(err)
			}
			if res.Started != deploys || res.Ended != deploys || len(res.problems()) > 0 {
				t.Errorf("%d started at the API, %d shown done, problems %v; want %d each, none", res.Started, res.Ended, res.problems(), deploys)
			}
			// The default lifecycle: queued, in progress, done, a status
			// read each, and the live message posted once.
			if res.StatusReads < 3*deploys {
				t.Errorf("%d status reads for %d deployments, want 3 each at least", res.StatusReads, deploys)
			}
			if c := res.Cost; c.Units != deploys || c.SlackByMethod["chat.postMessage"] != 1 || c.Redis < 1 || c.InScripts <= 0 {
				t.Errorf("cost per deployment: %+v; want one chat.postMessage each, Redis commands counted", c)
			}
		}},
		{"answers --auto", func(t *testing.T) {
			const questions = 10 // the tenth is one the docs do not cover
			res, err := runAutoAnswers(ctx, e, answersOptions{questions: questions, deltaDelay: 50 * time.Millisecond, over: 2 * time.Second, channels: 3})
			if err != nil {
				t.Fatal(err)
			}
			if res.Answered != questions-1 || res.Told != 1 || res.Asks != questions || len(res.problems()) > 0 {
				t.Errorf("answered %d, told %d, asked %d, problems %v; want 9, 1, 10, none", res.Answered, res.Told, res.Asks, res.problems())
			}
		}},
		{"chatter", func(t *testing.T) {
			const messages, questions = 40, 8 // 2 s at 1,200 a minute, a fifth questions
			res, err := runChatter(ctx, e, chatterOptions{perMinute: 1200, channels: 4, questionEvery: 5, duration: 2 * time.Second, replicas: 2,
				deltaDelay: 20 * time.Millisecond, idle: 200 * time.Millisecond, settle: 100 * time.Millisecond, peer: peerBare})
			if err != nil {
				t.Fatal(err)
			}
			d, b := res.Docsbot, res.Bare
			if d.Mixed == nil || b == nil {
				t.Fatalf("mixed phase %v, bare bots %v: want both", d.Mixed, b)
			}
			for _, c := range []struct {
				name      string
				got, want int
			}{
				{"chatter acked", d.Chatter.Acked, messages},
				{"mixed acked", d.Mixed.Acked, messages},
				{"questions", d.Questions, questions},
				{"answered once", d.Answered, questions},
				{"answered twice", d.Doubled, 0},
				{"assistant questions", d.AssistantAsks, questions},
				{"chatter replied to", d.ChatterAnswers, 0},
				{"bare bots: acked", b.Chatter.Acked, messages},
			} {
				if c.got != c.want {
					t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
				}
			}
			if d.Chatter.CPUms <= 0 || b.Chatter.CPUms <= 0 || res.CPURatio <= 0 || d.Mixed.Cost.Redis <= 0 {
				t.Errorf("not measured: CPU %v and %v ms, ratio %v, Redis per mixed message %v", d.Chatter.CPUms, b.Chatter.CPUms, res.CPURatio, d.Mixed.Cost.Redis)
			}
			if p := res.problems(); len(p) > 0 {
				t.Errorf("problems: %v", p)
			}
		}},
		{"workspaces", func(t *testing.T) {
			const installs = 4
			res, err := runWorkspaces(ctx, e, workspacesOptions{installations: installs, window: 300 * time.Millisecond, settle: 50 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if res.EventsAnswered != installs || res.CallsOnAnothersTeam != 0 || res.RSSOne <= 0 || res.RSSAll <= 0 {
				t.Errorf("messages answered %d (want %d), calls on another's token %d, RSS %d and %d", res.EventsAnswered, installs, res.CallsOnAnothersTeam, res.RSSOne, res.RSSAll)
			}
			if res.EventCommands > targetEventCommands {
				t.Errorf("%.2f Redis commands a message with the tokens held", res.EventCommands)
			}
		}},
		{"acks", func(t *testing.T) {
			const commands, warmup = 5, 1
			res, err := runAcks(ctx, e, acksOptions{rate: 50, commands: commands, warmup: warmup, createLatency: 200 * time.Millisecond, idle: 100 * time.Millisecond, peer: peerBare})
			if err != nil {
				t.Fatal(err)
			}
			checks := []struct {
				name      string
				got, want int
			}{
				{"acked", res.Acked, commands},
				{"latencies", res.Ack.N, commands},
				{"linked", res.Linked, commands},
				{"not started", res.Failed, 0},
				{"creates at the API", res.Creates, commands + warmup},
			}
			if res.Bare == nil || res.Ratios == nil {
				t.Fatal("no figures of the bare slack-go bot")
			}
			checks = append(checks, []struct {
				name      string
				got, want int
			}{
				{"bare bot: acked", res.Bare.Acked, commands},
				{"bare bot: latencies", res.Bare.Ack.N, commands},
				{"bare bot: jobs posted", res.Bare.Linked, commands},
				{"bare bot: not started", res.Bare.Failed, 0},
				{"bare bot: creates at the API", res.Bare.Creates, commands + warmup},
			}...)
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
				}
			}
			if res.Bot.RSS <= 0 || res.Bot.HWM < res.Bot.RSS {
				t.Errorf("bot memory not read: RSS %d, peak %d", res.Bot.RSS, res.Bot.HWM)
			}
			// Every command is recorded in the inbox before its ack: at
			// least one Redis command each.
			if res.RedisPerCmd < 1 || res.RedisByCmd["evalsha"]+res.RedisByCmd["eval"] <= 0 {
				t.Errorf("Redis commands per command not counted: %.2f (%v)", res.RedisPerCmd, res.RedisByCmd)
			}
			if res.Bare.Bot.RSS <= 0 || res.Ratios.RSS <= 0 || res.Ratios.CPUPerCmd <= 0 {
				t.Errorf("bare bot figures not read: RSS %d, ratios %+v", res.Bare.Bot.RSS, *res.Ratios)
			}
			if p := res.problems(); len(p) > 0 {
				t.Errorf("problems: %v", p)
			}
		}},
		{"acks beside the same-work bot", func(t *testing.T) {
			const commands, warmup = 5, 1
			res, err := runAcks(ctx, e, acksOptions{rate: 50, commands: commands, warmup: warmup, createLatency: 200 * time.Millisecond, idle: 100 * time.Millisecond, peer: peerSameWork})
			if err != nil {
				t.Fatal(err)
			}
			sw, q := res.SameWork, res.SameWorkRatios
			if sw == nil || q == nil || res.Bare != nil {
				t.Fatalf("same-work figures %v, ratios %v, bare bot %v: want the same-work bot's only", sw, q, res.Bare)
			}
			for _, c := range []struct {
				name      string
				got, want int
			}{
				{"docsbot: linked", res.Linked, commands},
				{"same-work bot: acked", sw.Acked, commands},
				{"same-work bot: jobs linked", sw.Linked, commands},
				{"same-work bot: not started", sw.Failed, 0},
				{"same-work bot: creates at the API", sw.Creates, commands + warmup},
				// The same outward work: a post a command, as docsbot's,
				// and one edit, of the channel's first root (the warm-up's):
				// posted before its job exists, it is edited to show it.
				{"same-work bot: chat.postMessage", sw.SlackCalls["chat.postMessage"], commands + warmup},
				{"same-work bot: chat.update", sw.SlackCalls["chat.update"], warmup},
				{"same-work bot: assistant.threads.setStatus", sw.SlackCalls["assistant.threads.setStatus"], 0},
				{"docsbot: chat.postMessage", res.SlackCalls["chat.postMessage"], commands + warmup},
				{"docsbot: chat.update", res.SlackCalls["chat.update"], warmup},
				{"docsbot: assistant.threads.setStatus", res.SlackCalls["assistant.threads.setStatus"], 0},
			} {
				if c.got != c.want {
					t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
				}
			}
			// Its Redis work per command: SET NX, SET, XADD, SET XX (idle
			// commands of the window aside), all sent, none in scripts. The
			// window ends when every root names its job; a root posted once
			// its job exists does so before its link, audit and done, so the
			// last command's may fall after it.
			sets, xadds := math.Round(sw.RedisByCmd["set"]*commands), math.Round(sw.RedisByCmd["xadd"]*commands)
			if sets < 3*commands-2 || xadds < commands-1 || sw.RedisInScriptsPerCmd != 0 {
				t.Errorf("same-work bot's Redis commands: %v, in scripts %.2f", sw.RedisByCmd, sw.RedisInScriptsPerCmd)
			}
			if res.RedisSentPerCmd <= 0 || res.RedisInScriptsPerCmd <= 0 {
				t.Errorf("docsbot's Redis commands not split: sent %.2f, in scripts %.2f", res.RedisSentPerCmd, res.RedisInScriptsPerCmd)
			}
			if q.CPUPerCmd <= 0 || q.RSS <= 0 || q.AckP99 <= 0 || q.RedisPerCmd <= 0 {
				t.Errorf("ratios not computed: %+v", *q)
			}
			if p := res.problems(); len(p) > 0 {
				t.Errorf("problems: %v", p)
			}
		}},
		{"polls", func(t *testing.T) {
			const jobs = 50
			res, err := runPolls(ctx, e, pollsOptions{
				jobs: jobs, duration: 3 * time.Second, interval: 100 * time.Millisecond, maxInterval: 300 * time.Millisecond, spread: 100 * time.Millisecond,
				active: 500 * time.Millisecond, lead: testLead, sample: 20 * time.Millisecond,
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Results.Finished != jobs || res.Results.Posted != jobs {
				t.Errorf("results: %+v, want all %d jobs finished and each reported", res.Results, jobs)
			}
			if res.Gets < jobs {
				t.Errorf("%d get-job calls for %d jobs", res.Gets, jobs)
			}
			if res.StillTrack != 0 {
				t.Errorf("%d jobs still scheduled after all finished", res.StillTrack)
			}
			if res.RedisBytesPerJob <= 0 || res.RedisMemUsagePerJ <= 0 {
				t.Errorf("Redis memory per job not measured: %v, %v", res.RedisBytesPerJob, res.RedisMemUsagePerJ)
			}
			if p := res.problems(); len(p) > 0 {
				t.Errorf("problems: %v", p)
			}
		}},
		{"scale", func(t *testing.T) {
			const jobs, burst = 200, 40
			res, err := runScale(ctx, e, scaleOptions{
				jobs: jobs, burst: burst, replicas: []int{2}, redis: []string{"cluster"},
				interval: time.Second, window: 2 * time.Second, lead: testLead, sample: 50 * time.Millisecond, gap: 500 * time.Millisecond,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rows) != 1 {
				t.Fatalf("%d configurations, want 1", len(res.Rows))
			}
			row := res.Rows[0]
			if row.BurstPosted != burst || row.Results.Finished != burst || row.Results.Posted != burst {
				t.Errorf("burst %d posted, results %+v; want all %d finished jobs reported once", row.BurstPosted, row.Results, burst)
			}
			if row.Polls < jobs-burst || row.RedisCalls <= 0 || row.RedisBytesPerJ <= 0 || row.Lag.N == 0 {
				t.Errorf("not measured: %d polls, %d Redis calls, %v B per job, %d lag samples", row.Polls, row.RedisCalls, row.RedisBytesPerJ, row.Lag.N)
			}
			if len(row.CPUPercent) != 2 || row.RSS[0] <= 0 || row.RSS[1] <= 0 {
				t.Errorf("replicas not measured: CPU %v, RSS %v", row.CPUPercent, row.RSS)
			}
			if p := res.problems(); len(p) > 0 {
				t.Errorf("problems: %v", p)
			}
		}},
		{"schedule through the command line", func(t *testing.T) {
			var stdout bytes.Buffer
			err := run(ctx, []string{"schedule", "--bin", bin, "--json", "--quiet", "--times", "1m,5m", "--per", "2", "--lead", testLead.String()}, &stdout, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			var res scheduleResult
			if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
				t.Fatalf("report is not JSON: %v\n%s", err, stdout.String())
			}
			if len(res.Rows) != 2 || res.Results.Finished != 4 || res.Results.Posted != 4 {
				t.Errorf("rows %+v, results %+v; want 2 rows and 4 jobs each reported once", res.Rows, res.Results)
			}
			for _, row := range res.Rows {
				if row.MeasuredMin < 1 {
					t.Errorf("running %s: a job was never polled", row.Running)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.run(t)
		})
	}
}

// TestGetsFor checks the bot's poll schedule (docsapi.PollDelay, which getsFor
// follows) against schedules worked out by hand: polls at 10, 25, 47.5,
// 81.25, 131.875 s, then every 60 s.
func TestGetsFor(t *testing.T) {
	t.Parallel()
	const i, m = 10 * time.Second, time.Minute
	tests := []struct {
		running    time.Duration
		gets       int
		seenLateBy time.Duration
	}{
		{0, 1, 10 * time.Second},
		{10 * time.Second, 1, 0},
		{11 * time.Second, 2, 14 * time.Second},
		{time.Minute, 4, 21250 * time.Millisecond},
		{5 * time.Minute, 8, 11875 * time.Millisecond},
		{time.Hour, 63, 11875 * time.Millisecond},
	}
	for _, tt := range tests {
		gets, late := getsFor(tt.running, i, m)
		if gets != tt.gets || late != tt.seenLateBy {
			t.Errorf("getsFor(%s) = %d GETs, seen %s late; want %d, %s", tt.running, gets, late, tt.gets, tt.seenLateBy)
		}
	}
	if gets, _ := getsFor(time.Hour, 0, m); gets != 0 {
		t.Errorf("a zero interval gives %d GETs, want 0", gets)
	}
}

// TestUnknownScenario checks the command line refuses what it does not know.
func TestUnknownScenario(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"soak"}, io.Discard, &stderr)
	if err == nil || !strings.Contains(err.Error(), `unknown scenario "soak"`) || !strings.Contains(stderr.String(), "Usage:") {
		t.Errorf("err %v, stderr %q", err, stderr.String())
	}
}

// TestChaosShort runs a short chaos run against the real bot binary: three
// replicas SIGKILLed and restarted every few seconds, Redis SIGKILLed and
// started again once, Slack sockets dropped, Slack's posting limit in force.
// Nothing may be lost or doubled, and the faults must really have happened.
func TestChaosShort(t *testing.T) { testChaos(t, false, len(questionPlans)) }

// TestChaosFailoverShort is TestChaosShort with Redis behind Sentinel: the
// Redis fault SIGKILLs the primary and the sentinels promote the replica.
func TestChaosFailoverShort(t *testing.T) { testChaos(t, true, 0) }

// testChaos runs a short chaos run, with questions asked of the docs
// assistant beside the commands (each plan once with six; none with 0).
func testChaos(t *testing.T, sentinel bool, questions int) {
	if testing.Short() {
		t.Skip("the chaos run takes about a minute")
	}
	t.Parallel()
	ctx, e, logs := chaosTestEnv(t)
	res, err := runChaos(ctx, e, chaosOptions{
		replicas: 3, commands: 30, channels: 3, rate: 3, replyEvery: 3,
		killEvery: 2 * time.Second, redisDown: 2 * time.Second, dropEvery: 5 * time.Second,
		latency: 100 * time.Millisecond, postRate: 2, postBurst: 3, agentTime: 2 * time.Second,
		deadline: 3 * time.Minute, seed: 7, sentinel: sentinel, logs: logs, questions: questions,
	})
	if err != nil {
		t.Fatal(err)
	}
	out := checkChaos(t, res, 30)
	// Every question answered once, with one outcome record, counted once
	// in the quality report (checkChaos fails on any problem the run saw).
	if q := res.Questions; questions > 0 && (q == nil || q.Answers.Done+q.Answers.Told+q.Answers.Timeout+q.Answers.GaveUp != questions || q.Records == 0 || q.Checked == 0 ||
		q.Report.Questions != int64(q.Records)) {
		t.Errorf("questions: %+v; want all %d accounted for, their records counted once\n%s", q, questions, out)
	}
	if res.ReplicaKills == 0 || res.RedisKills != 1 {
		t.Errorf("faults: %d replica kills, %d Redis kills; want some and 1", res.ReplicaKills, res.RedisKills)
	}
	if sentinel && res.Failover == 0 {
		t.Errorf("no failover was seen\n%s", out)
	}
}

// TestChaosRollingShort runs a short chaos run in rolling mode against the
// real bot binary: three replicas replaced one by one, again and again, as a
// Kubernetes rolling update does (the new replica connected first, then
// SIGTERM for the old one and 30 s to exit), while commands and follow-ups
// come in and Slack takes 250 ms for each post and carries it out even when
// the replica that sent it stopped meanwhile. Nothing may be lost or doubled,
// and the rolling updates must really have happened.
func TestChaosRollingShort(t *testing.T) {
	if testing.Short() {
		t.Skip("the rolling run takes about a minute")
	}
	t.Parallel()
	ctx, e, logs := chaosTestEnv(t)
	const commands, minRollouts = 75, 2
	res, err := runChaos(ctx, e, chaosOptions{
		rolling: true, grace: 30 * time.Second, rolloutPause: time.Second, minRollouts: minRollouts,
		replicas: 3, commands: commands, channels: 3, rate: 2.5, replyEvery: 3,
		latency: 250 * time.Millisecond, readLatency: 50 * time.Millisecond, agentTime: 2 * time.Second,
		deadline: 3 * time.Minute, seed: 7, logs: logs,
	})
	if err != nil {
		t.Fatal(err)
	}
	out := checkChaos(t, res, commands)
	if res.Rollouts < minRollouts || res.SIGTERMs < 3*minRollouts {
		t.Errorf("%d rolling updates and %d SIGTERMs; want at least %d and %d\n%s", res.Rollouts, res.SIGTERMs, minRollouts, 3*minRollouts, out)
	}
	if res.ReplicaKills != 0 || res.RedisKills != 0 || res.SocketDrops != 0 || res.Restarts != 0 {
		t.Errorf("faults besides rolling updates: %d replica kills, %d Redis kills, %d socket drops, %d restarts\n%s",
			res.ReplicaKills, res.RedisKills, res.SocketDrops, res.Restarts, out)
	}
}

// chaosTestEnv gets the bot for a chaos test (botForTest) and returns the run's
// context, its env, and the file named by DOCSBOT_CHAOS_LOGS, if any, which
// receives the run's and every replica's log, to look into a failure.
func chaosTestEnv(t *testing.T) (context.Context, env, string) {
	t.Helper()
	// Building on a busy machine may take minutes: it must not eat into the
	// run's own deadline.
	bin := botForTest(t)
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	t.Cleanup(cancel)
	e := env{bin: bin, log: slog.New(slog.DiscardHandler)}
	logs := os.Getenv("DOCSBOT_CHAOS_LOGS")
	if logs != "" {
		f, err := os.OpenFile(logs, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		e.log = slog.New(slog.NewTextHandler(&lockedWriter{w: f}, nil))
	}
	return ctx, e, logs
}

// checkChaos checks what every chaos run must show: no problem, nothing lost
// or doubled, each of the commands accounted for, some of everything done.
// It returns the report, for messages.
func checkChaos(t *testing.T, res *chaosResult, commands int) string {
	t.Helper()
	var b bytes.Buffer
	_ = writeText(&b, res)
	out := b.String()
	t.Logf("chaos report:\n%s", out)
	if p := res.problems(); len(p) > 0 {
		t.Errorf("problems: %v\n%s", p, out)
	}
	for name, o := range map[string]outcome{"commands": res.Commands, "replies": res.Replies, "results": res.Results} {
		if o.Lost != 0 || o.Doubled != 0 {
			t.Errorf("%s: %d lost, %d doubled", name, o.Lost, o.Doubled)
		}
	}
	if got := res.Commands.Done + res.Commands.Told + res.Commands.Timeout; got != commands {
		t.Errorf("%d commands accounted for, want %d\n%s", got, commands, out)
	}
	if res.Commands.Done == 0 || res.Replies.Done == 0 || res.Results.Done == 0 {
		t.Errorf("nothing done: %+v\n%s", res, out)
	}
	return out
}
