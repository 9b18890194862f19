package helpchannels

import (
	"sync"
	"time"
)

// The answerer reads a channel's mode for every question asked by mention
// or /docs-ask in a channel (bot.HelpChannels.Mode), which was a Redis read
// per answer. This replica keeps each mode it read for modeFresh:
//
//   - a mode set on this replica (/docs-ask here) is forgotten at once, and
//     a read under way when it was set is not kept, so this replica answers
//     by the new mode from the next question on;
//   - a mode set on another replica is heard here at most modeFresh later.
//     Until then a stale read answers by the old mode: a channel just set
//     off still has its mentions answered (each drawing its share of the
//     hour, as before the change), one just set private still shows them
//     in the thread, not to the asker alone, and one set back to mention
//     still points its askers elsewhere (off) or answers them privately.
//
// Only the answerer's read is kept: a help channel's post (help.post) reads
// the mode afresh before it draws the channel's share, and /docs-ask here
// shows the mode as Redis has it.
const modeFresh = 5 * time.Second

// modeCacheMax bounds the channels kept; past it the stale ones go, and if
// none is, all.
const modeCacheMax = 1024

// modeCache is the channels' modes as this replica last read them.
type modeCache struct {
	mu sync.Mutex
	// gen counts the modes set here: a read begun under an older gen is
	// not kept.
	gen   uint64
	modes map[string]cachedMode
}

type cachedMode struct {
	mode Mode
	read time.Time
}

// get is channel's mode if one read since now-modeFresh is kept, and the
// gen to put a new read under.
func (c *modeCache) get(channel string, now time.Time) (Mode, bool, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := c.modes[channel]
	if !ok || now.Sub(m.read) >= modeFresh || now.Before(m.read) {
		return Mode{}, false, c.gen
	}
	return m.mode, true, c.gen
}

// put keeps m, read at now under gen, unless a mode was set here since.
func (c *modeCache) put(m Mode, gen uint64, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.modes == nil {
		c.modes = map[string]cachedMode{}
	}
	if len(c.modes) >= modeCacheMax {
		for ch, old := range c.modes {
			if now.Sub(old.read) >= modeFresh {
				delete(c.modes, ch)
			}
		}
		if len(c.modes) >= modeCacheMax {
			clear(c.modes)
		}
	}
	c.modes[m.Channel] = cachedMode{mode: m, read: now}
}

// forget drops what is kept: a mode was set here.
func (c *modeCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.modes)
}
