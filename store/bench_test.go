package store_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/docsbot/docsbot/store"
)

// benchJob is a job with realistic Slack ids and a prompt of the given length.
func benchJob(i, promptLen int, pr string) store.Job {
	prompt := strings.Repeat("Document the new webhook settings and update the quickstart. ", 1+promptLen/60)[:promptLen]
	return store.Job{
		ID:        fmt.Sprintf("ajob_%019d", i),
		Thread:    store.Thread{Team: "T04ABCDE12F", Channel: "C05ABCDEF12", TS: fmt.Sprintf("1732233445.%06d", i%1000000)},
		Requester: "U03ABCDEF12",
		Prompt:    prompt,
		Status:    "active",
		PRLink:    pr,
	}
}

// usedMemory returns the server's used_memory.
func usedMemory(tb testing.TB) int64 {
	tb.Helper()
	info, err := rdb.Info(context.Background(), "memory").Result()
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return n
		}
	}
	tb.Fatal("no used_memory in INFO")
	return 0
}

// deletePrefix removes every key under prefix.
func deletePrefix(tb testing.TB, prefix string) {
	tb.Helper()
	ctx := context.Background()
	iter := rdb.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	var keys []string
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		tb.Fatal(err)
	}
	for len(keys) > 0 {
		n := min(len(keys), 1000)
		if err := rdb.Del(ctx, keys[:n]...).Err(); err != nil {
			tb.Fatal(err)
		}
		keys = keys[n:]
	}
}

// BenchmarkJobMemory links b.N tracked jobs and reports the Redis memory one
// of them takes: MEMORY USAGE of its record and thread link plus its share of
// the schedule (B/job), and the growth of used_memory per job (used-B/job),
// which also counts the key table. Run it with enough jobs for the schedule
// to leave its small encoding, for example -benchtime=10000x. It uses the
// production prefix, whose length counts in every key, and removes its keys
// afterwards; no test writes under that prefix.
func BenchmarkJobMemory(b *testing.B) {
	const longPR = "https://github.com/example-organization/documentation-site/pull/12345"
	cases := []struct {
		name      string
		promptLen int
		pr        string
	}{
		{"prompt=80", 80, ""},
		{"prompt=300", 300, ""},
		{"prompt=300,pr=70", 300, longPR},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			s := store.New(rdb)
			ctx := context.Background()
			deletePrefix(b, s.Prefix())
			defer deletePrefix(b, s.Prefix())
			before := usedMemory(b)
			b.ResetTimer()
			for i := range b.N {
				if err := s.Jobs().LinkJob(ctx, benchJob(i, tc.promptLen, tc.pr), time.Hour); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			after := usedMemory(b)

			sample := min(b.N, 200)
			var keys int64
			for i := range sample {
				j := benchJob(i, tc.promptLen, tc.pr)
				for _, k := range []string{jobKey(s, j), threadKey(s, j.Thread)} {
					n, err := rdb.MemoryUsage(ctx, k, 0).Result()
					if err != nil {
						b.Fatal(err)
					}
					keys += n
				}
			}
			var sched int64
			for _, k := range s.SchedKeys() {
				n, err := rdb.MemoryUsage(ctx, k, 0).Result()
				if err != nil && !errors.Is(err, redis.Nil) {
					b.Fatal(err)
				}
				sched += n
			}
			enc, err := rdb.ObjectEncoding(ctx, jobKey(s, benchJob(0, tc.promptLen, tc.pr))).Result()
			if err != nil || enc != "listpack" {
				b.Fatalf("record encoding %q, %v; want listpack", enc, err)
			}
			b.ReportMetric(float64(keys)/float64(sample)+float64(sched)/float64(b.N), "B/job")
			b.ReportMetric(float64(after-before)/float64(b.N), "used-B/job")
		})
	}
}

// BenchmarkClaimReschedule measures one poll cycle per job (Claim in batches
// of 100, then Reschedule) over 10,000 tracked jobs.
func BenchmarkClaimReschedule(b *testing.B) {
	const jobs, batch = 10000, 100
	s := newStore(b)
	ctx := context.Background()
	defer deletePrefix(b, s.Prefix())
	for i := range jobs {
		if err := s.Jobs().LinkJob(ctx, benchJob(i, 120, ""), 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	done := 0
	for done < b.N {
		cs, err := s.Jobs().Claim(ctx, min(batch, b.N-done), time.Minute)
		if err != nil {
			b.Fatal(err)
		}
		if len(cs) == 0 {
			b.Fatal("nothing due")
		}
		for _, c := range cs {
			if err := s.Jobs().Reschedule(ctx, c, "active", 0); err != nil {
				b.Fatal(err)
			}
		}
		done += len(cs)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}
