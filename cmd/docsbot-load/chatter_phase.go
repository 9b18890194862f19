package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// chatterAckWait bounds the wait for one message's ack.
const chatterAckWait = 30 * time.Second

// post posts the next message: a question (question number q) or a line of
// chatter (chatter number c), each spread over the channels and the people
// by its own number. It returns the message and the envelope that carried
// it, once acked.
func (w *chatterWorld) post(ctx context.Context, question bool, k int) (sentMessage, string, error) {
	ch, user := w.channels[k%len(w.channels)], w.users[k%len(w.users)]
	text := chatterLines[k%len(chatterLines)]
	if question {
		text = fmt.Sprintf("How do I %s? (question %d)", questionTopics[k%len(questionTopics)], k)
	}
	ctx, cancel := context.WithTimeout(ctx, chatterAckWait)
	defer cancel()
	ts, event, err := w.r.slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: ch, UserID: user, Text: text})
	if err != nil {
		return sentMessage{}, "", err
	}
	env, _ := w.r.slack.EnvelopeOfEvent(event)
	return sentMessage{channel: ch, ts: ts, question: question}, env, nil
}

// warmUp sends each replica a few lines of chatter and, with questions, a
// question each, answered before it returns.
func (w *chatterWorld) warmUp(ctx context.Context, bots []*botProcess, questions bool) error {
	var asked []sentMessage
	for i := range 4 * len(bots) {
		if _, _, err := w.post(ctx, false, i); err != nil {
			return err
		}
	}
	for i := range len(bots) {
		if !questions {
			break
		}
		m, _, err := w.post(ctx, true, i)
		if err != nil {
			return err
		}
		asked = append(asked, m)
	}
	return w.r.waitSlackFor(ctx, bots, 100*time.Millisecond, func() bool {
		for _, m := range asked {
			if w.answers(m) == 0 {
				return false
			}
		}
		return true
	})
}

// phase sends o.perMinute messages a minute for o.duration, a question every
// questionEvery (0: none), waits for every ack and every question's answer,
// then for o.settle, and measures the replicas' CPU and the Redis commands
// and Slack calls per message over that window; idle is the replicas at
// rest, per second.
func (w *chatterWorld) phase(ctx context.Context, bots []*botProcess, idle fleetWindow, questionEvery int) (phaseFigures, error) {
	o := w.o
	n := int(int64(o.perMinute) * int64(o.duration) / int64(time.Minute))
	f := phaseFigures{Messages: n}
	if n <= 0 {
		return f, fmt.Errorf("chatter: %d a minute for %s is no message", o.perMinute, o.duration)
	}
	sent := make([]sentMessage, n)
	envs := make([]string, n)
	var failed []error
	var mu sync.Mutex
	m, err := startFleetMeter(ctx, w.r, bots)
	if err != nil {
		return f, err
	}
	tick := time.NewTicker(time.Minute / time.Duration(o.perMinute))
	var wg sync.WaitGroup
	first, questions, chatter := time.Now(), 0, 0
	for i := range n {
		if i > 0 {
			select {
			case <-ctx.Done():
			case <-tick.C:
			}
		}
		if ctx.Err() != nil {
			break
		}
		question, k := questionEvery > 0 && i%questionEvery == questionEvery-1, 0
		if question {
			k, questions = questions, questions+1
		} else {
			k, chatter = w.n+chatter, chatter+1
		}
		wg.Go(func() {
			s, env, err := w.post(ctx, question, k)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed = append(failed, err)
				return
			}
			sent[i], envs[i] = s, env
		})
	}
	tick.Stop()
	last := time.Now()
	wg.Wait()
	w.n += chatter
	if questionEvery > 0 {
		w.sent = sent
		if err := w.r.waitSlackFor(ctx, bots, 200*time.Millisecond, w.allAnswered); err != nil {
			w.r.log.Warn("chatter: not every question was answered", "err", err)
		}
	}
	sleep(ctx, o.settle)
	win, err := m.stop(ctx, n)
	if err != nil {
		return f, err
	}
	f.Acked = n - len(failed)
	f.SentPerMinute = round3(60 * perSecond(n, first, last))
	f.Ack = ackLatencies(w.r.slack, envs)
	f.WindowSeconds = round3(win.Took.Seconds())
	f.CPUms = msf(win.CPU)
	f.CPUPerMsgMs = round3(msf(win.CPU) / float64(n))
	idleRate := float64(idle.CPU) / idle.Took.Seconds() // ns a second
	f.NetCPUPerMsgMs = round3(max(0, (float64(win.CPU)-idleRate*win.Took.Seconds())/1e6/float64(n)))
	net := win.Cost.less(idle.Cost.scaled(win.Took.Seconds() / float64(n)))
	f.Cost = win.Cost
	f.Cost.Idle, f.Cost.Net = &idle.Cost, &net
	return f, nil
}

// ackLatencies are the ack latencies of the envelopes envs ("" skipped).
func ackLatencies(sl *slacktest.Server, envs []string) summary {
	want := make(map[string]bool, len(envs))
	for _, e := range envs {
		if e != "" {
			want[e] = true
		}
	}
	var lat []time.Duration
	for _, a := range sl.Acks() {
		if want[a.EnvelopeID] {
			lat = append(lat, a.Latency)
			delete(want, a.EnvelopeID) // the first ack of each
		}
	}
	return summarize(lat)
}

// answers counts the bot's messages in m's thread, shown whole (not
// streaming).
func (w *chatterWorld) answers(m sentMessage) int {
	n := 0
	for _, t := range w.r.slack.Thread(m.channel, m.ts) {
		if t.TS != m.ts && t.BotID != "" && !t.Streaming {
			n++
		}
	}
	return n
}

// allAnswered reports whether every question of the mixed phase has an
// answer in its thread.
func (w *chatterWorld) allAnswered() bool {
	for _, m := range w.sent {
		if m.question && w.answers(m) == 0 {
			return false
		}
	}
	return true
}

// outcomes counts the mixed phase's questions, those answered once and
// those more than once, and the chatter the bot replied to in its thread
// or reacted on.
func (w *chatterWorld) outcomes() (questions, once, doubled, chatter int) {
	for _, m := range w.sent {
		if m.ts == "" {
			continue // not posted
		}
		n := w.answers(m)
		switch {
		case !m.question:
			if msg, ok := w.r.slack.Message(m.channel, m.ts); n > 0 || (ok && len(msg.Reactions) > 0) {
				chatter++
			}
			continue
		case n == 1:
			once++
		case n > 1:
			doubled++
		}
		questions++
	}
	return questions, once, doubled, chatter
}
